import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { Request, Response } from 'express';
import { Observable, map, of } from 'rxjs';
import { AppConfig } from '../../config/app-config';
import { Principal } from '../auth/principal';
import { principalKey } from '../rate-limit/rate-limit.http';
import { requestOrigin } from '../jsonapi/base-url';
import { prepareBody } from '../jsonapi/jsonapi.adapter';
import { ResponseCache } from './response-cache';

/**
 * Answers an authenticated GET from the ResponseCache when the same principal asked for the same
 * URL since the last write, and keeps what the handler rendered otherwise. Runs after the guards:
 * authentication, rate limiting and the `include` check apply to every request, cached or not.
 * The key holds the principal (answers depend on rights) and the origin links are built on.
 */
@Injectable()
export class ResponseCacheInterceptor implements NestInterceptor {
  constructor(
    private readonly cache: ResponseCache,
    private readonly config: AppConfig,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const req = context.switchToHttp().getRequest<Request & { user?: Principal }>();
    if (!this.cache.enabled || req.method !== 'GET' || !req.user) return next.handle();
    const key = `${principalKey(req.user)} ${requestOrigin(req, this.config.baseUrl)}${req.originalUrl}`;
    const hit = this.cache.get(key);
    if (hit) return of(hit);
    const since = this.cache.since();
    const res = context.switchToHttp().getResponse<Response>();
    return next.handle().pipe(
      map((result) => {
        const body = prepareBody(result, req, this.config.baseUrl);
        if (!body) return result;
        if (res.statusCode === 200) this.cache.set(key, body, since);
        return body;
      }),
    );
  }
}
