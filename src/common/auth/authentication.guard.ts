import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
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
import { requestContext } from '../request-context';
import { AuthStrategies } from './auth-strategies';
import type { TokenHolder } from './bearer-tokens';
import { Principal } from './principal';

type CredentialKind = Exclude<AuthKind, 'public'>;

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
  constructor(
    private readonly reflector: Reflector,
    private readonly limits: RateLimitService,
    private readonly strategies: AuthStrategies,
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
      await this.authenticate(kind, req, res);
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

  /**
   * This app's strategy for `kind` (AuthStrategies), leaving what it authenticated where the
   * kind's handlers read it (for an API token, the request's own principal: RequestContext.actAs);
   * a refusal without an error of the strategy's own (no header, malformed) is a plain 401.
   */
  private authenticate(kind: CredentialKind, req: Authenticated, res: Response): Promise<void> {
    const options = { session: false, registering: kind === 'agent-registration' };
    return new Promise((resolve, reject) => {
      const fail = (err: unknown) => reject(err instanceof Error ? err : new Error(String(err)));
      const middleware = this.strategies.passport.authenticate(
        AUTH_STRATEGY[kind],
        options,
        (err: unknown, user: unknown) => {
          if (err) return fail(err);
          if (!user) return reject(new DomainError('unauthorized'));
          (req as unknown as Record<string, unknown>)[AUTH_PROPERTY[kind]] =
            kind === 'user' ? requestContext(req).actAs(user as TokenHolder) : user;
          resolve();
        },
      ) as (req: Request, res: Response, next: (err?: unknown) => void) => void;
      middleware(req, res, (err?: unknown) => (err ? fail(err) : resolve()));
    });
  }
}
