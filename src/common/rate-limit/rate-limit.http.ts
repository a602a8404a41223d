import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { Principal } from '../auth/principal';
import { DomainError } from '../errors/domain-error';
import { RateLimitService } from './rate-limit.service';

export const RATE_LIMITED_DETAIL = "You have exceeded the API's rate limit.";

/** Probes and scrapes are not API traffic: load balancers and Prometheus must never be refused. */
const UNLIMITED_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

/** Users are limited per user (all their tokens share one budget), team and organization tokens per owner. */
export function principalKey(p: Principal): string {
  switch (p.kind) {
    case 'user':
      return `user:${p.userId}`;
    case 'team':
      return `team:${p.teamId}`;
    case 'organization':
      return `org:${p.organizationId}`;
  }
}

export function addressKey(req: Request): string {
  return `ip:${req.ip ?? req.socket.remoteAddress ?? 'unknown'}`;
}

/** A request that presents credentials is counted once its principal is known (in the auth guard). */
export function presentsCredentials(req: Request): boolean {
  return req.headers.authorization !== undefined;
}

export function isLimited(req: Request): boolean {
  return !UNLIMITED_PATHS.has(req.path);
}

/** Points a write costs a principal at the default budget: six writes a second of the 30. */
export const WRITE_COST = 5;

const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * What a request costs its principal's budget: a read one point, a write (any other method)
 * WRITE_COST, since a write stores something and holds locks while a read only reads. Under a
 * budget of 6 × WRITE_COST a write costs a sixth of the budget, at least one point, so a small
 * budget still allows about six writes a second rather than one or none.
 */
export function principalCost(method: string, limit: number): number {
  if (READ_METHODS.has(method)) return 1;
  return Math.max(1, Math.min(WRITE_COST, Math.floor(limit / 6)));
}

/** Spends `points` of `key`; past the budget sets `X-RateLimit-Reset` and throws the 429. */
export async function enforceRateLimit(
  limits: RateLimitService,
  key: string,
  res: Response,
  points = 1,
): Promise<void> {
  const decision = await limits.consume(key, points);
  if (decision.allowed) return;
  res.setHeader('X-RateLimit-Reset', String(decision.resetSeconds));
  throw new DomainError('rate-limited', [{ detail: RATE_LIMITED_DETAIL }]);
}

/**
 * Runs before body parsing and authentication: announces the limit on every response and counts
 * anonymous requests per address, so a flood without credentials costs no parsing and no lookups.
 */
export function rateLimitMiddleware(limits: RateLimitService): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    if (!limits.enabled) return next();
    res.setHeader('X-RateLimit-Limit', String(limits.limit));
    if (!isLimited(req) || presentsCredentials(req)) return next();
    enforceRateLimit(limits, addressKey(req), res).then(() => next(), next);
  };
}
