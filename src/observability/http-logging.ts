import { Inject, Injectable, LoggerService } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import type { DestinationStream, Level, Logger } from 'pino';
import { AppConfig } from '../config/app-config';
import { createLogger } from './logger';

/** Where JSON log lines go: stdout, unless a test captures them. */
export const LOG_DESTINATION = Symbol('LOG_DESTINATION');

/** A client's own request id when it is sane, else a fresh one; echoed back as `X-Request-Id`. */
export function requestId(req: IncomingMessage, res: ServerResponse): string {
  const given = req.headers['x-request-id'];
  const id = typeof given === 'string' && /^[\w.-]{1,128}$/.test(given) ? given : randomUUID();
  res.setHeader('X-Request-Id', id);
  return id;
}

/** The request id the access-log middleware gave a request. */
export function idOf(req: IncomingMessage): string | undefined {
  return (req as IncomingMessage & { id?: string }).id;
}

const ERROR_CODE = Symbol('errorCode');

/** Notes which refusal a response answers with (`NAME_TAKEN`), for its log line. */
export function noteErrorCode(res: ServerResponse, code: string): void {
  (res as ServerResponse & { [ERROR_CODE]?: string })[ERROR_CODE] = code;
}

/** The refusal `noteErrorCode` noted on a response, if any. */
export function errorCodeOf(res: ServerResponse): string | undefined {
  return (res as ServerResponse & { [ERROR_CODE]?: string })[ERROR_CODE];
}

/**
 * The process's pino logger and its access-log middleware. configureApp mounts the middleware
 * first of all, so every response (a body-parser 400 or an early 429 too) carries a request id and
 * gets one log line when it ends: `request completed` at info, `request errored` at error for a
 * 5xx, `request aborted` at warn when the client went away first; a coded refusal (`NAME_TAKEN`)
 * adds its `errorCode`. Nothing is built per request beyond the id unless the line is actually
 * written.
 */
@Injectable()
export class HttpLogging {
  readonly logger: Logger;

  constructor(config: AppConfig, @Inject(LOG_DESTINATION) destination: DestinationStream) {
    this.logger = createLogger(config.logLevel, destination);
  }

  readonly middleware = (req: Request, res: Response, next: NextFunction): void => {
    const id = requestId(req, res);
    (req as Request & { id: string }).id = id;
    const started = performance.now();
    res.once('close', () => {
      const status = res.statusCode;
      const [level, msg]: [Level, string] = !res.writableFinished
        ? ['warn', 'request aborted']
        : status >= 500
          ? ['error', 'request errored']
          : ['info', 'request completed'];
      if (!this.logger.isLevelEnabled(level)) return;
      const errorCode = errorCodeOf(res);
      this.logger[level](
        {
          req: { id, method: req.method, url: req.originalUrl },
          res: errorCode ? { statusCode: status, errorCode } : { statusCode: status },
          responseTime: Math.round(performance.now() - started),
        },
        msg,
      );
    });
    next();
  };
}

const NEST_LEVELS = {
  log: 'info',
  error: 'error',
  warn: 'warn',
  debug: 'debug',
  verbose: 'trace',
  fatal: 'fatal',
} as const;

/**
 * Nest's start-up lines, one per module, controller and route (some 150): debug, so that at the
 * default level a start shows what an operator acts on (the first-administrator hint, listening).
 */
const BOOT_CHATTER = new Set(['InstanceLoader', 'RoutesResolver', 'RouterExplorer']);

/**
 * Nest's logger interface over the same pino logger: `new Logger('Context').warn(...)` anywhere in
 * the app becomes one JSON line with `context`. An object message is merged into the line; Nest
 * passes `error(message, stack, context)`.
 */
export class PinoNestLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}

  log(message: unknown, ...params: unknown[]): void {
    this.write('log', message, params);
  }
  error(message: unknown, ...params: unknown[]): void {
    this.write('error', message, params);
  }
  warn(message: unknown, ...params: unknown[]): void {
    this.write('warn', message, params);
  }
  debug(message: unknown, ...params: unknown[]): void {
    this.write('debug', message, params);
  }
  verbose(message: unknown, ...params: unknown[]): void {
    this.write('verbose', message, params);
  }
  fatal(message: unknown, ...params: unknown[]): void {
    this.write('fatal', message, params);
  }

  private write(method: keyof typeof NEST_LEVELS, message: unknown, params: unknown[]): void {
    const rest = [...params];
    const context = rest.length && typeof rest[rest.length - 1] === 'string' ? rest.pop() : undefined;
    const level = method === 'log' && BOOT_CHATTER.has(context as string) ? 'debug' : NEST_LEVELS[method];
    if (!this.logger.isLevelEnabled(level)) return;
    const extra = typeof rest[0] === 'string' ? rest[0] : undefined;
    const fields: Record<string, unknown> = { context };
    if (message instanceof Error) {
      this.logger[level]({ ...fields, err: message }, message.message);
    } else if (typeof message === 'object' && message !== null) {
      // logger.error({ ...fields }, 'message')
      this.logger[level]({ ...fields, ...message }, extra);
    } else {
      // logger.error('message', stack)
      if (method === 'error' && extra) fields.stack = extra;
      this.logger[level](fields, String(message));
    }
  }
}
