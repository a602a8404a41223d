import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { randomUUID } from 'node:crypto';
import { DomainError, ErrorItem, ErrorKind } from './domain-error';
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
  413: 'payload too large',
  415: 'unsupported media type',
  422: 'invalid attribute',
  429: 'too many requests',
  500: 'internal server error',
  503: 'service unavailable',
};

/** Errors raised by body-parser before any handler runs carry a `type` and a status. */
interface ParserError {
  type?: string;
  status?: number;
  statusCode?: number;
}

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
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      if (status >= 500) return this.internal(exception, req);
      return { status, items: status === 404 ? [] : [{ detail: this.httpDetail(exception) }] };
    }
    const parser = exception as ParserError;
    if (parser && typeof parser === 'object' && typeof parser.type === 'string') {
      const status = parser.status ?? parser.statusCode ?? 400;
      if (parser.type === 'entity.too.large') {
        return { status: 413, items: [{ detail: 'request body is too large' }] };
      }
      if (parser.type === 'entity.parse.failed') {
        return { status: 400, items: [{ detail: 'request body is not valid JSON' }] };
      }
      if (status >= 400 && status < 500) {
        return { status, items: [{ detail: 'request body could not be read' }] };
      }
    }
    if (isUniqueViolation(exception)) {
      return { status: 422, items: [{ detail: 'has already been taken' }] };
    }
    if (isForeignKeyViolation(exception)) {
      return { status: 422, items: [{ detail: 'is invalid' }] };
    }
    if (isConnectionError(exception)) {
      this.logger.warn(`database unavailable during ${req.method} ${req.path}`);
      return { status: 503, items: [{ detail: 'the database is unavailable; try again shortly' }] };
    }
    return this.internal(exception, req);
  }

  private internal(exception: unknown, req: Request): Mapped {
    const id = randomUUID();
    const err = exception instanceof Error ? exception : new Error(String(exception));
    this.logger.error({ errorId: id, method: req.method, path: req.path, err }, `unhandled error ${id}`);
    return {
      status: 500,
      id,
      items: [{ detail: `an unexpected error occurred; quote ${id} when reporting it` }],
    };
  }

  private httpDetail(exception: HttpException): string | undefined {
    // Express reports an undecodable path segment with the segment itself; do not echo it.
    if (exception.message.startsWith('Failed to decode param'))
      return 'the request path is not valid percent-encoding';
    const body = exception.getResponse();
    if (typeof body === 'string') return body;
    const message = (body as { message?: unknown }).message;
    if (Array.isArray(message)) return message.join('; ');
    return typeof message === 'string' ? message : undefined;
  }
}
