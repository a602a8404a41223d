import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { createHash } from 'node:crypto';
import { Principal } from '../common/auth/principal';
import { requestOrigin } from '../common/jsonapi/base-url';
import { requestContext, RequestContext } from '../common/request-context';
import { enforceRateLimit, isLimited, principalKey } from '../common/rate-limit/rate-limit.http';
import { RateLimitService } from '../common/rate-limit/rate-limit.service';
import { ChangeEpoch } from '../common/cache/change-epoch';
import { holdTracking, ReadSet, trackReads } from '../common/cache/read-set';
import { ResponseCache } from './response-cache';

type CachingRequest = Request & { user?: Principal };

/**
 * Whether the request carries a body, told as body-parser tells it (by these two headers). A GET
 * with one is left to the normal path here: its body may be one the parser refuses.
 */
export function hasBody(req: Request): boolean {
  return req.headers['transfer-encoding'] !== undefined || req.headers['content-length'] !== undefined;
}

export interface ResponseCacheOptions {
  cache: ResponseCache;
  epoch: ChangeEpoch;
  limits: RateLimitService;
  /** The route template that computed an answer: the metrics label its repeats are counted under. */
  routeOf(req: Request): string;
  baseUrl?: string;
}

/**
 * Answers a GET that the same credentials made for the same URL since the last write to what it
 * read, before routing: no router walk, no guards, no handler, no rendering. Mounted after the request
 * id, access log, metrics, drain, security headers and rate-limit announcement, so a remembered
 * answer leaves with every header a computed one has.
 *
 * Why this is exactly what the full path would answer: the key is the Authorization header (as a
 * digest), the origin links are built on, and the URL; an answer is kept only when it was a 200
 * computed for an authenticated principal, and only while no table its computation read (noted
 * where the queries run) has changed since it started and the access counter stands. Anything that
 * could change the answer — a revoked token, a removed team member, a changed row — is a write,
 * and every write stamps the tables it wrote (and moves the access counter, for tokens and rights)
 * before it is answered; this request learns the stamps with a read that starts after it arrived. Time is the one thing
 * that changes without a write: an entry lasts no longer than its token. The principal's rate
 * limit is spent as on the full path.
 *
 * What is remembered is the body and its Content-Type; every other header comes from the
 * middleware mounted before this one, so an answer to which the route added headers of its own
 * (`@Header`, `res.setHeader`) is not kept. GET handlers change nothing, so skipping them skips
 * no effect.
 *
 * On a miss the request's context carries a slot (RequestContext.responseSlot); the Express adapter
 * fills it with the rendered answer.
 */
export function responseCacheMiddleware(options: ResponseCacheOptions): RequestHandler {
  const { cache, epoch, limits, baseUrl } = options;
  return (req: Request, res: Response, next: NextFunction) => {
    const authorization = req.headers.authorization;
    if (!cache.enabled || req.method !== 'GET' || !authorization || hasBody(req)) return next();
    const key = `${createHash('sha256').update(authorization).digest('base64')} ${requestOrigin(req, baseUrl)}${req.originalUrl}`;
    const context = requestContext(req);
    epoch.syncFor(req).then(
      () => {
        const hit = cache.get(key);
        if (!hit) {
          // Every table the computation reads is noted, whatever code reads it.
          const reads = new ReadSet();
          keepOnSuccess(req as CachingRequest, context, res, key, reads, options);
          res.once('close', holdTracking());
          return trackReads(reads, next);
        }
        context.cachedRoute = hit.route;
        const counted = limits.enabled && isLimited(req);
        (counted ? enforceRateLimit(limits, hit.owner, res) : Promise.resolve()).then(
          () => void hit.body.send(res),
          next,
        );
      },
      // The database is away: the full path answers (ChangeEpochGuard turns this failure into a 503).
      () => next(),
    );
  };
}

function keepOnSuccess(
  req: CachingRequest,
  context: RequestContext,
  res: Response,
  key: string,
  reads: ReadSet,
  options: ResponseCacheOptions,
): void {
  const since = options.cache.since();
  const headers = res.getHeaderNames().length;
  context.responseSlot = {
    keep: (body) => {
      const principal = req.user;
      if (!principal) return; // a public route: nothing says who may see it again
      if (res.getHeaderNames().length !== headers) return; // headers a hit would not repeat
      const answer = { body, owner: principalKey(principal), route: options.routeOf(req) };
      options.cache.set(key, answer, since, reads, context.credentialExpiry);
    },
  };
}
