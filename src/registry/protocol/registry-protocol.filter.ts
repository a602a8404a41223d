import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import { isConnectionError } from '../../common/errors/db-errors';
import { DomainError } from '../../common/errors/domain-error';
import { statusOf } from '../../common/errors/jsonapi-exception.filter';

/**
 * The registry protocol's error shape, `{"errors": ["message", …]}` (not JSON:API), for every
 * failure on its routes, including the 401 of the bearer guard. Internals stay hidden as in the
 * JSON:API filter: a 500 carries only an id that is also logged.
 */
@Catch()
export class RegistryProtocolExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('RegistryProtocol');

  catch(exception: unknown, host: ArgumentsHost): void {
    const ctx = host.switchToHttp();
    const res = ctx.getResponse<Response>();
    const req = ctx.getRequest<Request>();
    const { status, messages } = this.map(exception, req);
    if (res.headersSent) {
      res.end();
      return;
    }
    res.status(status).json({ errors: messages.length ? messages : [STATUS_CODES[status] ?? 'Error'] });
  }

  private map(exception: unknown, req: Request): { status: number; messages: string[] } {
    if (exception instanceof DomainError) {
      return {
        status: statusOf(exception.kind),
        messages: exception.items.map((i) => i.detail).filter((d): d is string => !!d),
      };
    }
    if (exception instanceof HttpException && exception.getStatus() < 500) {
      return { status: exception.getStatus(), messages: [] };
    }
    if (isConnectionError(exception)) {
      return { status: 503, messages: ['the database is unavailable; try again shortly'] };
    }
    const id = randomUUID();
    const err = exception instanceof Error ? exception : new Error(String(exception));
    this.logger.error({ errorId: id, method: req.method, path: req.path, err }, `unhandled error ${id}`);
    return { status: 500, messages: [`an unexpected error occurred; quote ${id} when reporting it`] };
  }
}
