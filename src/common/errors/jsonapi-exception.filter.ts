import { idOf } from '../../observability/http-logging';
import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { randomUUID } from 'node:crypto';
import { QueryFailedError } from 'typeorm';
import { DomainError, ErrorItem, ErrorKind } from './domain-error';
import { bodyParserError } from './body-errors';
import { isConnectionError, isForeignKeyViolation, isUniqueViolation } from './db-errors';
import { JSONAPI_MEDIA_TYPE } from '../jsonapi/media-type';

interface ErrorObject {
  id?: string;
  status: string;
  title: string;
  detail?: string;
  source?: { pointer?: string; parameter?: string };
}

interface Mapped {
  status: number;
  items: ErrorItem[];
  id?: string;
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
  409: 'conflict',
  410: 'gone',
  412: 'precondition failed',
  413: 'payload too large',
  415: 'unsupported media type',
  422: 'invalid attribute',
  429: 'too many requests',
  500: 'internal server error',
  503: 'service unavailable',
};

/**
 * The one place that knows HTTP for errors: every failure leaves as a JSON:API error document,
 * and nothing internal (stack, SQL, echo of the input) reaches the client.
 */
@Catch()
export class JsonApiExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('Errors');

  catch(exception: unknown, host: ArgumentsHost): void {
    const ctx = host.switchToHttp();
    const res = ctx.getResponse<Response>();
    const req = ctx.getRequest<Request>();
    const mapped = this.map(exception, req);
    if (res.headersSent) {
      res.end();
      return;
    }
    const title = TITLES[mapped.status] ?? 'error';
    const errors: ErrorObject[] = (mapped.items.length ? mapped.items : [{}]).map((item) => {
      const error: ErrorObject = { status: String(mapped.status), title };
      if (mapped.id) error.id = mapped.id;
      if (item.detail) error.detail = item.detail;
      if (item.pointer || item.parameter) {
        error.source = item.pointer ? { pointer: item.pointer } : { parameter: item.parameter };
      }
      return error;
    });
    res.status(mapped.status).type(JSONAPI_MEDIA_TYPE).send(JSON.stringify({ errors }));
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
    return this.internal(exception, req);
  }

  private internal(exception: unknown, req: Request): Mapped {
    const id = randomUUID();
    this.logger.error(
      { errorId: id, reqId: idOf(req), method: req.method, path: req.path, err: loggable(exception) },
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

/** What the log keeps of an error: never the bound parameters of a failed query (they hold user data). */
function loggable(exception: unknown): { name: string; message: string; stack?: string; code?: unknown } {
  if (!(exception instanceof Error)) return { name: 'NonError', message: String(exception) };
  const out: { name: string; message: string; stack?: string; code?: unknown } = {
    name: exception.name,
    message: exception.message,
    stack: exception.stack,
  };
  if (exception instanceof QueryFailedError) {
    out.code = (exception.driverError as { code?: unknown } | undefined)?.code;
  }
  return out;
}
