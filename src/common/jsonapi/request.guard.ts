import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { HTTP_CODE_METADATA } from '@nestjs/common/constants';
import type { Request } from 'express';
import { DomainError } from '../errors/domain-error';
import { BODY_SHAPE, BodyShape } from './body';
import { parseFieldsets } from './fields';
import { parseInclude, READS_INCLUDE, singleQueryValue } from './query';
import { parseSortKeys, SORTABLE } from './sort';

/**
 * The JSON:API query and document rules every route follows, checked before the handler:
 * - a route that includes nothing refuses `include` (400); routes that read it (`@Includes`)
 *   validate it themselves against their own allow-list;
 * - a route that is not `@Sortable` refuses `sort` (400); sortable lists read it through `@Paging`;
 * - `fields[TYPE]` names known types and fields (400 otherwise); the document writer applies it;
 * - a create (a POST answering 201) refuses a client-generated `data.id` (403, as JSON:API asks
 *   of a server that does not support them) instead of silently replacing it;
 * - an update (a PATCH whose last path parameter is the resource's id) refuses a `data.id` naming
 *   another resource (409, the JSON:API rule) instead of silently updating the URL's resource.
 * Runs after authentication: an anonymous caller learns nothing about a route's includes.
 */
@Injectable()
export class JsonApiRequestGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    const req = context.switchToHttp().getRequest<Request>();
    const query = req.query;
    const handler = context.getHandler();
    if (query.include !== undefined && !this.reflector.get<boolean>(READS_INCLUDE, handler)) {
      parseInclude(query, []);
    }
    if (query.sort !== undefined && !this.reflector.get<object>(SORTABLE, handler)) {
      parseSortKeys(singleQueryValue(query, 'sort'), undefined);
    }
    parseFieldsets(query);
    if (req.method === 'POST' && this.reflector.get<number>(HTTP_CODE_METADATA, handler) === 201) {
      refuseClientId(req.body);
    }
    if (req.method === 'PATCH') {
      const shape = this.reflector.get<BodyShape | undefined>(BODY_SHAPE, handler);
      if (shape?.urlId) refuseOtherId(req);
    }
    return true;
  }
}

/** 403 for a create whose body names its own `data.id` (also used where the body is read later). */
export function refuseClientId(body: unknown): void {
  const data = dataOf(body);
  if (!data) return;
  const id = data.id;
  if (id === undefined || id === null) return;
  throw new DomainError('forbidden', [
    { detail: 'client-generated ids are not supported; leave out data.id', pointer: '/data/id' },
  ]);
}

/** The data object of a request body, if it has one. */
function dataOf(body: unknown): Record<string, unknown> | undefined {
  const data = (body as { data?: unknown } | null | undefined)?.data;
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return undefined;
  return data as Record<string, unknown>;
}

/** 409 for an update whose `data.id` is not the id its URL names (the route's last path parameter). */
function refuseOtherId(req: Request): void {
  const id = dataOf(req.body)?.id;
  if (typeof id !== 'string' || id === '') return;
  const path = (req.route as { path?: unknown } | undefined)?.path;
  const last = typeof path === 'string' ? path.split('/').pop() : undefined;
  if (!last?.startsWith(':')) return;
  const urlId: unknown = req.params[last.slice(1)];
  if (typeof urlId !== 'string' || urlId === id) return;
  throw new DomainError('conflict', [
    { detail: `Id must be ${urlId}, the id in the URL`, pointer: '/data/id' },
  ]);
}
