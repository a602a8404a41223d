import { Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import type { Server as HttpsServer } from 'node:https';
import { AppModule } from './app.module';
import { configureApp } from './http/pipeline';
import { readTlsFiles, reloadTls } from './http/tls';
import { JsonApiExpressAdapter } from './http/jsonapi.adapter';
import { AppConfig } from './config/app-config';
import { PinoNestLogger } from './observability/http-logging';
import { createLogger } from './observability/logger';

export interface ServerOptions {
  /** Runs after configuration and before listening (tests register upload purposes here). */
  prepare?(app: NestExpressApplication): void | Promise<void>;
}

/**
 * One HTTP server process: the app, its shutdown on SIGTERM/SIGINT (drain, then close the
 * database, then exit 0) and the listener.
 */
export async function startServer(options: ServerOptions = {}): Promise<NestExpressApplication> {
  const config = new AppConfig();
  const logger = createLogger(config.logLevel);
  // A certificate that cannot serve stops the start here, naming the variable to fix.
  const httpsOptions = config.tls ? readTlsFiles(config.tls) : undefined;
  // JSON lines from the first one, and a failed start is rethrown to the caller, which logs why.
  const app = await NestFactory.create<NestExpressApplication>(AppModule, new JsonApiExpressAdapter(), {
    bodyParser: false,
    bufferLogs: true,
    logger: new PinoNestLogger(logger),
    abortOnError: false,
    httpsOptions,
  });
  await configureApp(app);
  app.enableShutdownHooks(['SIGTERM', 'SIGINT'], { useProcessExit: true });
  await options.prepare?.(app);
  await app.listen(config.port, config.host);
  const server = app.getHttpServer();
  server.keepAliveTimeout = 65_000;
  // The upload sweep removes temporary files older than this: no request body may take longer.
  server.requestTimeout = config.uploadTimeoutSeconds * 1000;
  const tls = config.tls;
  if (tls) {
    // The default action of SIGHUP ends the process; here it renews the certificate instead.
    const log = logger.child({ context: 'Server' });
    process.on('SIGHUP', () => reloadTls(server as HttpsServer, tls, log));
  }
  const scheme = tls ? 'https' : 'http';
  new Logger('Server').log(
    `listening on ${scheme}://${config.host}:${config.port}; the API explorer is at /docs`,
  );
  return app;
}
