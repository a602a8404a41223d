import { NestExpressApplication } from '@nestjs/platform-express';
import { SwaggerModule } from '@nestjs/swagger';
import express, { NextFunction, Request, Response } from 'express';
import helmet from 'helmet';
import { DataSource } from 'typeorm';
import { API_V2 } from '../common/api-prefix';
import { ChangeEpoch } from '../common/cache/change-epoch';
import { openRequestContext } from '../common/request-context';
import { ResponseCache } from './response-cache';
import { hasBody, responseCacheMiddleware } from './response-cache.middleware';
import { JsonApiExpressAdapter } from './jsonapi.adapter';
import { rateLimitMiddleware } from '../common/rate-limit/rate-limit.http';
import { RateLimitService } from '../common/rate-limit/rate-limit.service';
import { AppConfig } from '../config/app-config';
import { guardTransactions } from '../common/sql/transaction-scope';
import { enforceAcquireDeadline } from '../persistence/mysql-pool';
import { prepareRunnerStatements } from '../persistence/prepared-statements';
import { HttpLogging, PinoNestLogger } from '../observability/http-logging';
import { MetricsService, routeLabel } from '../observability/metrics.service';
import { answerClientErrors } from './client-errors';
import { HttpDrain } from './http-drain';
import { RequestWatchers } from './request-watchers';
import { middlewareSequence } from './middleware-sequence';
import { parseQueryOnce } from './query-memo';
import { contentNegotiation } from './negotiation';
import { fixedHeaders } from './fixed-headers';
import { apiVersionHeaders } from './api-version-headers';
import { jsonBodyParser } from './json-body-parser';
import { unreadableBody } from '../common/errors/body-errors';
import { buildOpenApiDocument } from './openapi-document';

export const MAX_JSON_BODY = '1mb';

/**
 * Paths whose bodies are raw streams (upload links, policy code), never parsed as JSON: a wrong
 * content type there is for the handler to refuse (415), not a JSON syntax error.
 */
const RAW_BODY_PATHS = [/^\/uploads\//, new RegExp(`^/${API_V2}/policies/[^/]+/upload$`)];

/**
 * Routes whose JSON bodies may pass MAX_JSON_BODY (a state version with its state inline). Their
 * bodies are read only once the caller is authenticated, by `@LargeJsonBody` on the route, up to
 * the route's own limit: an anonymous client cannot make the server hold a large body.
 */
const AFTER_AUTH_BODY_ROUTES = [
  { method: 'POST', path: new RegExp(`^/${API_V2}/workspaces/[^/]+/state-versions$`) },
];

/** `terraform login`'s sign-in form and OAuth token endpoint take form-encoded bodies (src/cli-login). */
const FORM_BODY_PATHS = [/^\/app\/oauth\/authorize$/, /^\/oauth\/token$/];

function jsonBodies(): express.RequestHandler {
  const parse = jsonBodyParser(MAX_JSON_BODY);
  const parseForm = express.urlencoded({ extended: false, limit: '16kb', parameterLimit: 32 });
  return (req: Request, res: Response, next: NextFunction) => {
    // Most requests (every GET) carry no body: nothing to parse, decided without the parser's own checks.
    if (!hasBody(req)) {
      req.body = undefined;
      return next();
    }
    if (RAW_BODY_PATHS.some((p) => p.test(req.path))) return next();
    if (FORM_BODY_PATHS.some((p) => p.test(req.path))) {
      return parseForm(req, res, (err?: unknown) => next(err ? unreadableBody(err) : undefined));
    }
    if (AFTER_AUTH_BODY_ROUTES.some((r) => r.method === req.method && r.path.test(req.path))) return next();
    parse(req, res, next);
  };
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
  parseQueryOnce(adapter.getInstance<express.Express>().request);
  app.set('trust proxy', config.trustProxy);
  answerClientErrors(app.getHttpServer());
  // One layer of the application router: every request passes all of them, in this order.
  app.use(
    middlewareSequence([
      openRequestContext,
      app.get(HttpLogging).middleware,
      app.get(HttpDrain).middleware(),
      app.get(MetricsService).middleware(),
      fixedHeaders(helmet({ contentSecurityPolicy: false, crossOriginEmbedderPolicy: false })),
      fixedHeaders(apiVersionHeaders),
      rateLimitMiddleware(app.get(RateLimitService)),
      app.get(RequestWatchers).middleware,
      contentNegotiation(),
      responseCacheMiddleware({
        cache: app.get(ResponseCache),
        epoch: app.get(ChangeEpoch),
        limits: app.get(RateLimitService),
        routeOf: routeLabel,
        baseUrl: config.baseUrl,
      }),
      jsonBodies(),
    ]),
  );
  SwaggerModule.setup('docs', app, () => buildOpenApiDocument(app), {
    jsonDocumentUrl: 'docs-json',
    swaggerOptions: { persistAuthorization: true },
  });
  const ds = app.get(DataSource);
  if (config.dbTransactionGuard) guardTransactions();
  enforceAcquireDeadline(ds, config.dbAcquireTimeoutMs);
  prepareRunnerStatements(ds);
  if (config.migrationsRun) {
    await ds.runMigrations({ transaction: 'each' });
  }
}
