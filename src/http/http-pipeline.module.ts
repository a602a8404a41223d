import { Global, Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD } from '@nestjs/core';
import { AuthenticationGuard } from '../common/auth/authentication.guard';
import { JsonApiExceptionFilter } from '../common/errors/jsonapi-exception.filter';
import { JsonApiRequestGuard } from '../common/jsonapi/request.guard';
import { ChangeEpochGuard } from './change-epoch.guard';
import { HttpDrain } from './http-drain';
import { RequestWatchers } from './request-watchers';
import { ResponseCache } from './response-cache';

/**
 * The request pipeline's Nest half, in the order it runs (docs/architecture.md). The express half,
 * from the socket to routing (logging, drain, metrics, headers, rate limit, request watchers,
 * negotiation, the response cache, body parsing), is mounted in that order by configureApp
 * (pipeline.ts).
 *
 * Global guards run in the order they are provided: the change epoch is learnt before the token is
 * looked up through the caches, `include`, `sort`, `fields` and client ids are checked after authentication. One catch-all filter
 * writes every error as a JSON:API document.
 */
@Global()
@Module({
  providers: [
    HttpDrain,
    ResponseCache,
    RequestWatchers,
    { provide: APP_GUARD, useClass: ChangeEpochGuard },
    { provide: APP_GUARD, useClass: AuthenticationGuard },
    { provide: APP_GUARD, useClass: JsonApiRequestGuard },
    { provide: APP_FILTER, useValue: new JsonApiExceptionFilter() },
  ],
  exports: [HttpDrain, ResponseCache, RequestWatchers],
})
export class HttpPipelineModule {}
