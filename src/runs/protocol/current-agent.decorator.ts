import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import { AgentContext, AgentTokenContext } from './agent-context';

export type AgentRequest = Request & { agentToken?: AgentTokenContext; agent?: AgentContext };

/** The executor calling this route (set by the `agent-token` strategy on `agent` routes). */
export const CurrentAgent = createParamDecorator((_: unknown, ctx: ExecutionContext): AgentContext => {
  const agent = ctx.switchToHttp().getRequest<AgentRequest>().agent;
  if (!agent) throw new Error("@CurrentAgent() used on a route without Endpoint({ auth: 'agent' })");
  return agent;
});

/** The agent token of a registration request (`agent-registration` routes). */
export const CurrentAgentToken = createParamDecorator(
  (_: unknown, ctx: ExecutionContext): AgentTokenContext => {
    const token = ctx.switchToHttp().getRequest<AgentRequest>().agentToken;
    if (!token)
      throw new Error(
        "@CurrentAgentToken() used on a route without Endpoint({ auth: 'agent-registration' })",
      );
    return token;
  },
);
