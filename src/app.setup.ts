import { INestApplication } from '@nestjs/common';
import { NestExpressApplication } from '@nestjs/platform-express';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import express, { NextFunction, Request, Response } from 'express';
import helmet from 'helmet';
import { Logger } from 'nestjs-pino';
import { DataSource } from 'typeorm';
import { bodyParserError } from './common/errors/body-errors';
import { JSONAPI_MEDIA_TYPE } from './common/jsonapi/media-type';
import { AppConfig } from './config/app-config';

export const MAX_JSON_BODY = '1mb';

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
    // Turned into a domain error here: the framework would otherwise quote the parser's message.
    parse(req, res, (err?: unknown) => (err ? next(bodyParserError(err) ?? err) : next()));
  };
}

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
  return SwaggerModule.createDocument(app, config);
}

/** Everything main.ts and the e2e tests share: body handling, headers, docs, migrations. */
export async function configureApp(app: NestExpressApplication): Promise<void> {
  const config = app.get(AppConfig);
  app.useLogger(app.get(Logger));
  app.disable('x-powered-by');
  app.set('query parser', 'simple');
  app.use(helmet({ contentSecurityPolicy: false, crossOriginEmbedderPolicy: false }));
  app.use(jsonBodies());
  SwaggerModule.setup('docs', app, () => buildOpenApiDocument(app), {
    jsonDocumentUrl: 'docs-json',
    swaggerOptions: { persistAuthorization: true },
  });
  app.enableShutdownHooks();
  if (config.migrationsRun) {
    await app.get(DataSource).runMigrations({ transaction: 'each' });
  }
}
