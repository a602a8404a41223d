import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import { AgentContext, AgentTokenContext } from './agent-context';
import type { AgentRequest } from './agent-token.guard';

/** The executor calling this route (set by AgentTokenGuard). */
export const CurrentAgent = createParamDecorator((_: unknown, ctx: ExecutionContext): AgentContext => {
  const agent = ctx.switchToHttp().getRequest<AgentRequest>().agent;
  if (!agent) throw new Error('@CurrentAgent() used on a route without AgentTokenGuard');
  return agent;
});

/** The agent token of a registration request (set by AgentTokenGuard on `@RegistersAgent()` routes). */
export const CurrentAgentToken = createParamDecorator(
  (_: unknown, ctx: ExecutionContext): AgentTokenContext => {
    const token = ctx.switchToHttp().getRequest<AgentRequest>().agentToken;
    if (!token) throw new Error('@CurrentAgentToken() used on a route without @RegistersAgent()');
    return token;
  },
);
