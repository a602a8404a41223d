import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard, IAuthGuard } from '@nestjs/passport';
import type { Request, Response } from 'express';
import { DomainError } from '../errors/domain-error';
import {
  addressKey,
  enforceRateLimit,
  isLimited,
  presentsCredentials,
  principalCost,
  principalKey,
} from '../rate-limit/rate-limit.http';
import { RateLimitService } from '../rate-limit/rate-limit.service';
import { AUTH_KIND, AUTH_PROPERTY, AUTH_STRATEGY, AuthKind } from './auth-kind';
import { Principal } from './principal';

type CredentialKind = Exclude<AuthKind, 'public'>;

/** @nestjs/passport's guard for one kind: its strategy, where it leaves the caller, its 401. */
function passportGuard(kind: CredentialKind): IAuthGuard {
  class KindGuard extends AuthGuard(AUTH_STRATEGY[kind]) {
    override getAuthenticateOptions() {
      return { session: false, property: AUTH_PROPERTY[kind], registering: kind === 'agent-registration' };
    }

    /** A refusal without an error of the strategy's own (no header, malformed) is a plain 401. */
    override handleRequest<T>(err: unknown, user: T | false): T {
      if (err) throw err as Error;
      if (!user) throw new DomainError('unauthorized');
      return user;
    }
  }
  return new KindGuard();
}

type Authenticated = Request & {
  user?: Principal;
  agent?: { agentId: string };
  agentToken?: { tokenId: string };
};

/**
 * Deny by default: every route needs a valid API token (passport's `bearer` strategy) unless its
 * `Endpoint` names another kind (AuthKind): the executor routes authenticate with an agent token
 * (`agent-token`), the signed links with their own path (`signed-link`), public routes not at all.
 * Any error of a strategy's lookup propagates as it is: a database outage is a 503, not a 401.
 *
 * Rate limits are counted here, once the caller is known. An API token counts per user, team or
 * organization, a write costing more than a read (`principalCost`); an executor per agent (per
 * token while registering), so many executors behind one address each get their own budget; a
 * public or signed-link route, and any failed authentication, against the address. (Requests
 * without credentials were already counted per address by the rate-limit middleware.)
 */
@Injectable()
export class AuthenticationGuard implements CanActivate {
  private readonly guards: Record<CredentialKind, IAuthGuard> = {
    user: passportGuard('user'),
    agent: passportGuard('agent'),
    'agent-registration': passportGuard('agent-registration'),
    'signed-link': passportGuard('signed-link'),
  };

  constructor(
    private readonly reflector: Reflector,
    private readonly limits: RateLimitService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const http = context.switchToHttp();
    const req = http.getRequest<Authenticated>();
    const res = http.getResponse<Response>();
    const kind =
      this.reflector.getAllAndOverride<AuthKind | undefined>(AUTH_KIND, [
        context.getHandler(),
        context.getClass(),
      ]) ?? 'user';
    const limited = this.limits.enabled && isLimited(req);
    const executor = kind === 'agent' || kind === 'agent-registration';
    // Executors are counted per agent below, whatever they present; others only when they present credentials.
    const counted = limited && (executor || presentsCredentials(req));
    if (kind === 'public' || kind === 'signed-link') {
      if (counted) await enforceRateLimit(this.limits, addressKey(req), res);
      if (kind === 'public') return true;
    }
    try {
      await this.guards[kind].canActivate(context);
    } catch (err) {
      if (counted && kind !== 'signed-link') await enforceRateLimit(this.limits, addressKey(req), res);
      throw err;
    }
    if (!counted || kind === 'signed-link') return true;
    if (executor) {
      const key = req.agent ? `agent:${req.agent.agentId}` : `agent-token:${req.agentToken!.tokenId}`;
      await enforceRateLimit(this.limits, key, res);
    } else {
      await enforceRateLimit(
        this.limits,
        principalKey(req.user!),
        res,
        principalCost(req.method, this.limits.limit),
      );
    }
    return true;
  }
}
