import { ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard } from '@nestjs/passport';
import type { Request, Response } from 'express';
import { DomainError } from '../errors/domain-error';
import {
  addressKey,
  COUNTED_BY_ROUTE,
  enforceRateLimit,
  isLimited,
  presentsCredentials,
  principalKey,
} from '../rate-limit/rate-limit.http';
import { RateLimitService } from '../rate-limit/rate-limit.service';
import { Principal } from './principal';
import { IS_PUBLIC } from './public.decorator';

/**
 * Deny by default: every route needs a valid bearer token unless marked `@Public()`.
 * Requests that present credentials are rate limited here, once the principal is known: per user,
 * team or organization; a public route or a failed authentication counts against the address.
 * (Requests without credentials were already counted per address by the rate-limit middleware.)
 */
@Injectable()
export class BearerAuthGuard extends AuthGuard('bearer') {
  constructor(
    private readonly reflector: Reflector,
    private readonly limits: RateLimitService,
  ) {
    super({ session: false });
  }

  override async canActivate(context: ExecutionContext): Promise<boolean> {
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
      await super.canActivate(context);
    } catch (err) {
      if (counted) await enforceRateLimit(this.limits, addressKey(req), res);
      throw err;
    }
    if (counted) await enforceRateLimit(this.limits, principalKey(req.user!), res);
    return true;
  }

  /**
   * Any error from the token lookup propagates as it is (a database outage must be a 503, not a
   * 401); `instanceof Error` is not a test for that, as errors raised by Node's own modules may
   * come from another realm.
   */
  override handleRequest<T>(err: unknown, user: T): T {
    if (err) throw err as Error;
    if (!user) throw new DomainError('unauthorized');
    return user;
  }
}
