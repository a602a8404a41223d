import { INestApplication } from '@nestjs/common';
import { NestExpressApplication } from '@nestjs/platform-express';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import express, { NextFunction, Request, Response } from 'express';
import helmet from 'helmet';
import { DataSource } from 'typeorm';
import { CATALOGS } from './admin-catalogs/catalogs';
import { API_V2 } from './common/api-prefix';
import { ChangeEpoch } from './common/cache/change-epoch';
import { ResponseCache } from './common/cache/response-cache';
import { responseCacheMiddleware } from './common/cache/response-cache.middleware';
import { bodyParserError } from './common/errors/body-errors';
import { DomainError } from './common/errors/domain-error';
import { JsonApiExpressAdapter } from './common/jsonapi/jsonapi.adapter';
import { JSONAPI_MEDIA_TYPE } from './common/jsonapi/media-type';
import { rateLimitMiddleware } from './common/rate-limit/rate-limit.http';
import { RateLimitService } from './common/rate-limit/rate-limit.service';
import { AppConfig } from './config/app-config';
import { guardTransactions } from './common/database/transaction-scope';
import { enforceAcquireDeadline } from './database/mysql-pool';
import { HttpLogging, PinoNestLogger } from './observability/http-logging';
import { MetricsService, routeLabel } from './observability/metrics.service';
import { HttpDrain } from './server/http-drain';

export const MAX_JSON_BODY = '1mb';
/** JSON:API documents nest a handful of levels; far deeper nesting only exhausts the validators' stack. */
export const MAX_JSON_DEPTH = 64;

/** Paths whose bodies are raw streams (upload links), never parsed as JSON. */
const RAW_BODY_PREFIXES = ['/uploads/'];

function jsonBodies(): express.RequestHandler {
  const parse = express.json({
    limit: MAX_JSON_BODY,
    type: ['application/json', JSONAPI_MEDIA_TYPE, 'application/*+json'],
    strict: true,
  });
  return (req: Request, res: Response, next: NextFunction) => {
    if (RAW_BODY_PREFIXES.some((p) => req.path.startsWith(p))) return next();
    parse(req, res, (err?: unknown) => {
      // Turned into a domain error here: the framework would otherwise quote the parser's message.
      // Broken compression surfaces as a bare zlib error: still the body could not be read.
      if (err) return next(bodyParserError(err) ?? unreadable());
      const problem = shapeProblem(req.body);
      next(problem ? new DomainError('bad-request', [{ detail: problem }]) : undefined);
    });
  };
}

/** Keys that name object machinery; no document uses them and the class transformer trips over them. */
const RESERVED_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * What makes a parsed body unsafe to hand to the validators, if anything: nesting deeper than
 * MAX_JSON_DEPTH or a reserved key. Walks without recursion, so any depth the parser accepted
 * is safe to measure.
 */
export function shapeProblem(value: unknown): string | undefined {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length) {
    const [node, depth] = stack.pop()!;
    if (typeof node !== 'object' || node === null) continue;
    if (depth >= MAX_JSON_DEPTH) return 'request body is nested too deeply';
    for (const [key, child] of Object.entries(node)) {
      if (!Array.isArray(node) && RESERVED_KEYS.has(key)) return `request body must not use the key "${key}"`;
      stack.push([child, depth + 1]);
    }
  }
  return undefined;
}

const unreadable = () => new DomainError('bad-request', [{ detail: 'request body could not be read' }]);

export function buildOpenApiDocument(app: INestApplication) {
  const config = new DocumentBuilder()
    .setTitle('Plinth API')
    .setDescription(
      'Workspace governance and private provider registry. JSON:API documents under /api/v2; ' +
        'authenticate with `Authorization: Bearer <token>`.',
    )
    .setVersion('2.6')
    .addBearerAuth()
    .build();
  const doc = SwaggerModule.createDocument(app, config);
  if (app.get(AppConfig).deployment === 'cloud') {
    // A cloud installation has no administrator catalogs (every such route answers 404): not listed.
    const hidden = CATALOGS.map((catalog) => `/${API_V2}/admin/${catalog}`);
    for (const path of Object.keys(doc.paths)) {
      if (hidden.some((prefix) => path === prefix || path.startsWith(`${prefix}/`))) delete doc.paths[path];
    }
  }
  return doc;
}

/**
 * Everything the server and the e2e tests share: middleware order, body handling, headers, docs,
 * database deadlines, migrations. Request id and access log come first so that every response,
 * even one refused before routing, carries `X-Request-Id` and is logged and counted.
 */
export async function configureApp(app: NestExpressApplication): Promise<void> {
  const config = app.get(AppConfig);
  app.useLogger(new PinoNestLogger(app.get(HttpLogging).logger));
  const adapter = app.getHttpAdapter();
  if (!(adapter instanceof JsonApiExpressAdapter)) {
    throw new Error('create the application with a JsonApiExpressAdapter: it writes JSON:API documents');
  }
  adapter.useBaseUrl(config.baseUrl);
  app.disable('x-powered-by');
  // No ETag: hashing every body costs more than the rare revalidation it would save (docs/benchmarks.md).
  app.set('etag', false);
  app.set('query parser', 'simple');
  app.set('trust proxy', config.trustProxy);
  app.use(app.get(HttpLogging).middleware);
  app.use(app.get(HttpDrain).middleware());
  app.use(app.get(MetricsService).middleware());
  app.use(rateLimitMiddleware(app.get(RateLimitService)));
  app.use(helmet({ contentSecurityPolicy: false, crossOriginEmbedderPolicy: false }));
  app.use(
    responseCacheMiddleware({
      cache: app.get(ResponseCache),
      epoch: app.get(ChangeEpoch),
      limits: app.get(RateLimitService),
      routeOf: routeLabel,
      baseUrl: config.baseUrl,
    }),
  );
  app.use(jsonBodies());
  SwaggerModule.setup('docs', app, () => buildOpenApiDocument(app), {
    jsonDocumentUrl: 'docs-json',
    swaggerOptions: { persistAuthorization: true },
  });
  const ds = app.get(DataSource);
  if (config.dbTransactionGuard) guardTransactions();
  enforceAcquireDeadline(ds, config.dbAcquireTimeoutMs);
  if (config.migrationsRun) {
    await ds.runMigrations({ transaction: 'each' });
  }
}
