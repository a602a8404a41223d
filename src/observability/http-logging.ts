import { Inject, Injectable } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import type { DestinationStream, Logger } from 'pino';
import { HttpLogger, Options, pinoHttp } from 'pino-http';
import { AppConfig } from '../config/app-config';

/** Where JSON log lines go: stdout, unless a test captures them. */
export const LOG_DESTINATION = Symbol('LOG_DESTINATION');

export const REDACTED = '[redacted]';

/**
 * Capabilities that travel in URLs stay out of the logs: signed upload/download links carry theirs
 * in the path, the initial admin creation token (and any other `token`) in the query.
 */
export function redactUrl(url: string): string {
  return url
    .replace(/\/uploads\/[^/?#]+/g, `/uploads/${REDACTED}`)
    .replace(/([?&](?:[^=&]*token[^=&]*|signature|sig)=)[^&#]*/gi, `$1${REDACTED}`);
}

/** A client's own request id when it is sane, else a fresh one; echoed back as `X-Request-Id`. */
export function requestId(req: IncomingMessage, res: ServerResponse): string {
  const given = req.headers['x-request-id'];
  const id = typeof given === 'string' && /^[\w.-]{1,128}$/.test(given) ? given : randomUUID();
  res.setHeader('X-Request-Id', id);
  return id;
}

export function httpLoggerOptions(config: AppConfig): Options {
  return {
    level: config.logLevel,
    genReqId: requestId,
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers.cookie',
        'req.query.token',
        'res.headers["set-cookie"]',
      ],
      censor: REDACTED,
    },
    serializers: {
      req: (req: { id: string; method: string; url: string }) => ({
        id: req.id,
        method: req.method,
        url: redactUrl(req.url),
      }),
      res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
    },
  };
}

/**
 * The pino-http middleware and its root logger. configureApp mounts the middleware first of all,
 * so every response (a body-parser 400 or an early 429 too) gets a request id and an access log
 * line; nestjs-pino reuses the same logger for application logs.
 */
@Injectable()
export class HttpLogging {
  readonly middleware: HttpLogger;

  constructor(config: AppConfig, @Inject(LOG_DESTINATION) destination: DestinationStream) {
    this.middleware = pinoHttp(httpLoggerOptions(config), destination);
  }

  get logger(): Logger {
    return this.middleware.logger;
  }
}
