import {
  applyDecorators,
  CanActivate,
  ExecutionContext,
  Injectable,
  SetMetadata,
  UseGuards,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import { Public } from '../../common/auth/public.decorator';
import { DomainError } from '../../common/errors/domain-error';
import {
  addressKey,
  CountedByRoute,
  enforceRateLimit,
  isLimited,
} from '../../common/rate-limit/rate-limit.http';
import { RateLimitService } from '../../common/rate-limit/rate-limit.service';
import { AgentContext, AgentTokenContext } from './agent-context';
import { AgentAuthService } from '../pools/agent-auth.service';

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
    private readonly limits: RateLimitService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<AgentRequest>();
    const res = context.switchToHttp().getResponse<Response>();
    try {
      await this.authenticate(req, this.reflector.get<boolean>(REGISTERS_AGENT, context.getHandler()));
    } catch (err) {
      // A refused request counts against its address, so guessing tokens stays bounded.
      await this.count(req, res, () => addressKey(req));
      throw err;
    }
    await this.count(req, res, () =>
      req.agent ? `agent:${req.agent.agentId}` : `agent-token:${req.agentToken!.tokenId}`,
    );
    return true;
  }

  private async authenticate(req: AgentRequest, registering: boolean | undefined): Promise<void> {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
    if (!match) throw new DomainError('unauthorized', [{ detail: 'an agent token is required' }]);
    const token = await this.auth.authenticate(req, match[1]);
    if (registering) {
      req.agentToken = token;
      await this.auth.noteActivity(token);
      return;
    }
    const agentId = req.headers[AGENT_HEADER];
    if (typeof agentId !== 'string' || agentId === '') {
      throw new DomainError('unauthorized', [{ detail: 'X-Plinth-Agent header is required' }]);
    }
    req.agent = await this.auth.agent(token, agentId);
    await this.auth.noteActivity(req.agent);
  }

  /** Executors are counted per agent (per token while registering), not per address. */
  private async count(req: Request, res: Response, key: () => string): Promise<void> {
    if (this.limits.enabled && isLimited(req)) await enforceRateLimit(this.limits, key(), res);
  }
}

/**
 * The executor routes' composite decorator: public for the user guard, AgentTokenGuard instead,
 * rate limited per agent by that guard.
 */
export const AgentRoutes = (): ClassDecorator & MethodDecorator =>
  applyDecorators(Public(), CountedByRoute(), UseGuards(AgentTokenGuard));
