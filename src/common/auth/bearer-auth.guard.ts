import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import { DomainError } from '../errors/domain-error';
import {
  addressKey,
  COUNTED_BY_ROUTE,
  enforceRateLimit,
  isLimited,
  presentsCredentials,
  principalCost,
  principalKey,
} from '../rate-limit/rate-limit.http';
import { RateLimitService } from '../rate-limit/rate-limit.service';
import { BearerTokens } from './bearer-tokens';
import { Principal } from './principal';
import { IS_PUBLIC } from './public.decorator';

/**
 * Deny by default: every route needs a valid bearer token unless marked `@Public()`.
 * Requests that present credentials are rate limited here, once the principal is known: per user,
 * team or organization, a write costing more than a read (`principalCost`); a public route or a
 * failed authentication counts against the address.
 * (Requests without credentials were already counted per address by the rate-limit middleware.)
 */
@Injectable()
export class BearerAuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly limits: RateLimitService,
    private readonly tokens: BearerTokens,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const http = context.switchToHttp();
    const req = http.getRequest<Request & { user?: Principal }>();
    const res = http.getResponse<Response>();
    const counted = this.limits.enabled && isLimited(req) && presentsCredentials(req);
    const isPublic = this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (isPublic) {
      const countedByRoute = this.reflector.getAllAndOverride<boolean>(COUNTED_BY_ROUTE, [
        context.getHandler(),
        context.getClass(),
      ]);
      if (counted && !countedByRoute) await enforceRateLimit(this.limits, addressKey(req), res);
      return true;
    }
    try {
      // Any error from the token lookup propagates as it is: a database outage must be a 503, not a 401.
      req.user = await this.tokens.principalOf(bearerToken(req));
    } catch (err) {
      if (counted) await enforceRateLimit(this.limits, addressKey(req), res);
      throw err;
    }
    if (counted) {
      const points = principalCost(req.method, this.limits.limit);
      await enforceRateLimit(this.limits, principalKey(req.user), res, points);
    }
    return true;
  }
}

/**
 * The token of `Authorization: Bearer <token>` (RFC 6750 §2.1: the scheme in any case, one space,
 * the token). Only the header is read: a token in a query string or a form body (RFC 6750 §2.2–2.3)
 * is not accepted, since URLs end up in logs and histories.
 */
export function bearerToken(req: Request): string {
  const parts = req.headers.authorization?.split(' ');
  if (!parts || parts.length !== 2 || !/^bearer$/i.test(parts[0]) || !parts[1]) {
    throw new DomainError('unauthorized');
  }
  return parts[1];
}
