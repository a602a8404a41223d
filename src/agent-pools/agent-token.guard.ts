import { CanActivate, ExecutionContext, Injectable, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { DomainError } from '../common/errors/domain-error';
import { AgentContext, AgentTokenContext } from './agent-context';
import { AgentAuthService } from './agent-auth.service';

const REGISTERS_AGENT = 'plinth:registers-agent';

/** Marks the one agent route called before the executor has an agent id: registration. */
export const RegistersAgent = (): MethodDecorator => SetMetadata(REGISTERS_AGENT, true);

export const AGENT_HEADER = 'x-plinth-agent';

export type AgentRequest = Request & { agentToken?: AgentTokenContext; agent?: AgentContext };

/**
 * Guards the executor routes (`/api/v2/agent/...`, which are `@Public()` for the user guard):
 * `Authorization: Bearer <agent token>` and, except for registration, `X-Plinth-Agent: <agent id>`
 * naming an agent of the token's pool. User, team and organization tokens are not agent tokens
 * (401), and agent tokens are not in the user token table, so they open no user route either.
 */
@Injectable()
export class AgentTokenGuard implements CanActivate {
  constructor(
    private readonly auth: AgentAuthService,
    private readonly reflector: Reflector,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<AgentRequest>();
    const match = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
    if (!match) throw new DomainError('unauthorized', [{ detail: 'an agent token is required' }]);
    const token = await this.auth.authenticate(req, match[1]);
    if (this.reflector.get<boolean>(REGISTERS_AGENT, context.getHandler())) {
      req.agentToken = token;
      await this.auth.noteActivity(token);
      return true;
    }
    const agentId = req.headers[AGENT_HEADER];
    if (typeof agentId !== 'string' || agentId === '') {
      throw new DomainError('unauthorized', [{ detail: 'X-Plinth-Agent header is required' }]);
    }
    req.agent = await this.auth.agent(token, agentId);
    await this.auth.noteActivity(req.agent);
    return true;
  }
}
