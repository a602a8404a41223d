import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import { badRequest, DomainError } from '../errors/domain-error';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, PageParams } from './pagination';
import { parseSortKeys, SORTABLE, SortFields } from './sort';

type Query = Record<string, unknown>;

function queryOf(ctx: ExecutionContext): Query {
  return ctx.switchToHttp().getRequest<Request>().query;
}

/** One value of a query parameter; a repeated parameter is refused rather than guessed at. */
export function singleQueryValue(query: Query, name: string): string | undefined {
  const value = query[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw badRequest(`${name} must be given once, as a string`, name);
  return value;
}

function positiveInt(raw: string | undefined, name: string, fallback: number): number {
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d{1,9}$/.test(raw) || Number(raw) < 1) {
    throw new DomainError('invalid', [{ detail: `${name} must be a positive integer`, parameter: name }]);
  }
  return Number(raw);
}

export function parsePage(query: Query): PageParams {
  const number = positiveInt(singleQueryValue(query, 'page[number]'), 'page[number]', 1);
  const rawSize = singleQueryValue(query, 'page[size]');
  const sizeOk = rawSize === undefined || rawSize === '' || /^\d{1,4}$/.test(rawSize);
  const size = sizeOk && rawSize ? Number(rawSize) : DEFAULT_PAGE_SIZE;
  if (!sizeOk || size < 1 || size > MAX_PAGE_SIZE) {
    throw new DomainError('invalid', [
      { detail: `page[size] must be between 1 and ${MAX_PAGE_SIZE}`, parameter: 'page[size]' },
    ]);
  }
  return { number, size };
}

/** Include values are compared with `_` and `-` alike: `newest_version` is `newest-version`. */
const includeKey = (value: string) => value.replace(/_/g, '-');

/**
 * Parses `include` against the values a route allows, which are the relationships' own names.
 * The snake_case spelling of each (`newest_version`, `configuration_version`, …) names the same
 * relation; every value comes back as the allowed entry it matched (the first one, if a route
 * lists both spellings).
 */
export function parseInclude(query: Query, allowed: readonly string[]): string[] {
  const raw = singleQueryValue(query, 'include');
  if (raw === undefined || raw.trim() === '') return [];
  const byKey = new Map<string, string>();
  for (const name of allowed) if (!byKey.has(includeKey(name))) byKey.set(includeKey(name), name);
  const values = [...new Set(raw.split(',').map((v) => v.trim()))].filter(Boolean);
  const unknown = values.filter((v) => !byKey.has(includeKey(v)));
  if (unknown.length) {
    const names = [...byKey.values()];
    const hint = names.length ? `; allowed: ${names.join(', ')}` : '; this endpoint includes nothing';
    // Name what was wrong without echoing an arbitrarily long query string back.
    const shown = unknown.slice(0, 3).map((v) => (v.length > 40 ? `${v.slice(0, 40)}…` : v));
    const more = unknown.length > 3 ? ` and ${unknown.length - 3} more` : '';
    throw badRequest(`include parameter contains unknown value ${shown.join(', ')}${more}${hint}`, 'include');
  }
  return [...new Set(values.map((v) => byKey.get(includeKey(v)) as string))];
}

/**
 * `page[number]`, `page[size]` and `sort` of the request, validated; `sort` against the handler's
 * `@Sortable` declaration.
 */
export const Paging = createParamDecorator((_: unknown, ctx: ExecutionContext): PageParams => {
  const query = queryOf(ctx);
  const page = parsePage(query);
  const fields = Reflect.getMetadata(SORTABLE, ctx.getHandler()) as SortFields | undefined;
  const sort = parseSortKeys(singleQueryValue(query, 'sort'), fields);
  return sort ? { ...page, sort } : page;
});

/** Handler metadata set by `@Includes`: the route reads `include`, so JsonApiRequestGuard leaves it alone. */
export const READS_INCLUDE = 'plinth:reads-include';

const markReadsInclude: ParameterDecorator = (target, key) => {
  if (key !== undefined)
    Reflect.defineMetadata(READS_INCLUDE, true, (target as Record<string | symbol, object>)[key]);
};

/** `include` of the request, validated against the given allow-list. */
export const Includes = createParamDecorator(
  (allowed: readonly string[], ctx: ExecutionContext) => parseInclude(queryOf(ctx), allowed ?? []),
  [markReadsInclude],
);

/** A single query parameter by its literal name, e.g. `@QueryValue('filter[kind]')`. */
export const QueryValue = createParamDecorator((name: string, ctx: ExecutionContext) =>
  singleQueryValue(queryOf(ctx), name),
);

/** A boolean query parameter (`true`/`false`); anything else is a 400 naming it. */
export function parseBooleanParam(raw: string | undefined, name: string): boolean | undefined {
  if (raw === undefined || raw === '') return undefined;
  if (raw === 'true') return true;
  if (raw === 'false') return false;
  throw badRequest(`${name} must be true or false`, name);
}
