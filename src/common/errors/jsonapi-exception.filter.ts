import { idOf, noteErrorCode } from '../../observability/http-logging';
import { loggableError } from '../../observability/logger';
import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { randomUUID } from 'node:crypto';
import { DomainError, ErrorCode, ErrorItem, ErrorKind } from './domain-error';
import { bodyParserError } from './body-errors';
import { isConnectionError, isDatabaseBusy, isForeignKeyViolation, isUniqueViolation } from './db-errors';
import { JSONAPI_MEDIA_TYPE } from '../jsonapi/media-type';

interface ErrorObject {
  id?: string;
  status: string;
  title: string;
  /** Only when the item is a coded refusal (`NAME_TAKEN`): a member absent, never null. */
  code?: ErrorCode;
  detail?: string;
  source?: { pointer?: string; parameter?: string };
}

/** A failure as the client will see it, before it is written in one protocol's shape. */
export interface Failure {
  status: number;
  title: string;
  items: ErrorItem[];
  /** The id of a 500, also in the log line that describes it. */
  id?: string;
  /** Sent as `Retry-After`: the failure is expected to pass by then. */
  retryAfterSeconds?: number;
}

/** How soon a write refused because SQLite stayed locked may be tried again. */
const BUSY_RETRY_AFTER_SECONDS = 1;

type Mapped = Omit<Failure, 'title'>;

/** Writes a failure in the shape the routes it guards speak. */
export type ErrorWriter = (res: Response, failure: Failure) => void;

/**
 * The JSON:API error document: one error object per item, its members always in one order
 * (`status`, `title`, `id`, `code`, `detail`, `source`), each present only when it has a value.
 */
export const writeJsonApiErrors: ErrorWriter = (res, failure) => {
  const errors: ErrorObject[] = (failure.items.length ? failure.items : [{}]).map((item) => {
    const error: ErrorObject = { status: String(failure.status), title: failure.title };
    if (failure.id) error.id = failure.id;
    if (item.code) error.code = item.code;
    if (item.detail) error.detail = item.detail;
    if (item.pointer || item.parameter) {
      error.source = item.pointer ? { pointer: item.pointer } : { parameter: item.parameter };
    }
    return error;
  });
  // A Buffer, not a string: Express would add `; charset=utf-8`, which JSON:API forbids.
  res
    .status(failure.status)
    .setHeader('Content-Type', JSONAPI_MEDIA_TYPE)
    .send(Buffer.from(JSON.stringify({ errors }), 'utf8'));
};

/** Stream errors that mean the client closed the connection: nothing went wrong on our side. */
const CLIENT_GONE_CODES = new Set([
  'ERR_STREAM_PREMATURE_CLOSE',
  'ERR_STREAM_DESTROYED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
]);

function clientWentAway(exception: unknown, req: Request): boolean {
  const code = (exception as { code?: unknown } | null | undefined)?.code;
  return req.socket?.destroyed === true && typeof code === 'string' && CLIENT_GONE_CODES.has(code);
}

export function statusOf(kind: ErrorKind): number {
  switch (kind) {
    case 'bad-request':
      return 400;
    case 'unauthorized':
      return 401;
    case 'forbidden':
      return 403;
    case 'not-found':
      return 404;
    case 'conflict':
      return 409;
    case 'gone':
      return 410;
    case 'precondition-failed':
      return 412;
    case 'too-large':
      return 413;
    case 'not-acceptable':
      return 406;
    case 'unsupported-media-type':
      return 415;
    case 'invalid':
      return 422;
    case 'rate-limited':
      return 429;
    case 'unavailable':
      return 503;
  }
}

const TITLES: Record<number, string> = {
  400: 'bad request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not found',
  405: 'method not allowed',
  406: 'not acceptable',
  408: 'request timeout',
  409: 'conflict',
  410: 'gone',
  412: 'precondition failed',
  413: 'payload too large',
  415: 'unsupported media type',
  422: 'invalid attribute',
  429: 'too many requests',
  431: 'request header fields too large',
  500: 'internal server error',
  503: 'service unavailable',
};

export function errorTitle(status: number): string {
  return TITLES[status] ?? 'error';
}

/**
 * The one place that knows HTTP for errors and the one catch-all filter: every failure leaves as a
 * JSON:API error document (or, on routes of another protocol, in that protocol's shape through
 * its ErrorWriter), and nothing internal (stack, SQL, echo of the input) reaches the client. A
 * client that closed the connection is not a failure: nothing is logged and nothing sent.
 */
@Catch()
export class JsonApiExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('Errors');

  constructor(private readonly write: ErrorWriter = writeJsonApiErrors) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const ctx = host.switchToHttp();
    const res = ctx.getResponse<Response>();
    const req = ctx.getRequest<Request>();
    if (clientWentAway(exception, req)) {
      res.destroy();
      return;
    }
    const mapped = this.map(exception, req);
    if (exception instanceof DomainError && exception.code) noteErrorCode(res, exception.code);
    if (res.headersSent) {
      res.end();
      return;
    }
    const retryAfter =
      mapped.retryAfterSeconds ??
      (exception instanceof DomainError ? exception.retryAfterSeconds : undefined);
    if (retryAfter !== undefined) res.setHeader('Retry-After', String(retryAfter));
    this.write(res, { ...mapped, title: errorTitle(mapped.status) });
  }

  private map(exception: unknown, req: Request): Mapped {
    if (exception instanceof DomainError) {
      return { status: statusOf(exception.kind), items: exception.items };
    }
    if (exception instanceof HttpException) return this.mapHttp(exception, req);
    const unreadable = bodyParserError(exception);
    if (unreadable) return { status: statusOf(unreadable.kind), items: unreadable.items };
    if (isUniqueViolation(exception)) {
      return { status: 422, items: [{ detail: 'has already been taken' }] };
    }
    if (isForeignKeyViolation(exception)) {
      return { status: 422, items: [{ detail: 'is invalid' }] };
    }
    if (isConnectionError(exception)) {
      this.logger.warn({ reqId: idOf(req) }, `database unavailable during ${req.method} ${req.path}`);
      return { status: 503, items: [{ detail: 'the database is unavailable; try again shortly' }] };
    }
    if (isDatabaseBusy(exception)) {
      this.logger.warn({ reqId: idOf(req) }, `database busy during ${req.method} ${req.path}`);
      return {
        status: 503,
        retryAfterSeconds: BUSY_RETRY_AFTER_SECONDS,
        items: [{ detail: 'the database is busy; try again shortly' }],
      };
    }
    return this.internal(exception, req);
  }

  private internal(exception: unknown, req: Request): Mapped {
    const id = randomUUID();
    this.logger.error(
      { errorId: id, reqId: idOf(req), method: req.method, path: req.path, err: loggableError(exception) },
      `unhandled error ${id}`,
    );
    return {
      status: 500,
      id,
      items: [{ detail: `an unexpected error occurred; quote ${id} when reporting it` }],
    };
  }

  /**
   * Exceptions the framework raises itself: an unknown route (404), an undecodable path or body
   * (400), an unhealthy dependency in a readiness check (503). Their messages quote the request,
   * so the client gets a fixed detail instead.
   */
  private mapHttp(exception: HttpException, req: Request): Mapped {
    const status = exception.getStatus();
    if (status === 503) {
      return { status, items: [{ detail: 'a dependency is unavailable; try again shortly' }] };
    }
    if (status >= 500) return this.internal(exception, req);
    if (status === 400) return { status, items: [{ detail: 'the request is malformed' }] };
    return { status, items: [] };
  }
}
