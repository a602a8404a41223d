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

/**
 * Refuses every `filter[…]` parameter a list does not support (400 naming it), so that a filter
 * the list would otherwise ignore never answers with the whole, unfiltered list.
 */
export function refuseUnknownFilters(query: Query, supported: readonly RegExp[]): void {
  for (const name of Object.keys(query)) {
    if (!name.startsWith('filter[')) continue;
    if (!supported.some((pattern) => pattern.test(name))) {
      const shown = name.length > 60 ? `${name.slice(0, 60)}…` : name;
      throw badRequest(`${shown} is not a filter this list supports`, shown);
    }
  }
}

/** One `filter[tagged][i]` entry: a key, and a value to match (none: any value). */
export interface TagFilter {
  key: string;
  value?: string;
}

/** How many `filter[tagged]` entries one list request may carry. */
export const MAX_TAG_FILTERS = 10;

export const TAG_FILTER_PARAM = /^filter\[tagged\]\[\d{1,2}\]\[(key|value)\]$/;

/**
 * `filter[tagged][i][key]` / `filter[tagged][i][value]` in index order (the real service's tag
 * binding filters; its Go client sends an empty value for a key-only tag, which matches any value).
 */
export function parseTagFilters(query: Query): TagFilter[] {
  const byIndex = new Map<number, TagFilter>();
  for (const name of Object.keys(query)) {
    const match = /^filter\[tagged\]\[(\d{1,2})\]\[(key|value)\]$/.exec(name);
    if (!match) continue;
    const entry = byIndex.get(Number(match[1])) ?? { key: '' };
    const value = singleQueryValue(query, name) ?? '';
    if (match[2] === 'key') entry.key = value;
    else if (value !== '') entry.value = value;
    byIndex.set(Number(match[1]), entry);
  }
  const filters = [...byIndex.entries()].sort(([a], [b]) => a - b).map(([, f]) => f);
  if (filters.length > MAX_TAG_FILTERS) {
    throw badRequest(`at most ${MAX_TAG_FILTERS} filter[tagged] entries are supported`, 'filter[tagged]');
  }
  const keyless = [...byIndex.entries()].find(([, f]) => f.key === '');
  if (keyless) {
    const name = `filter[tagged][${keyless[0]}][key]`;
    throw badRequest(`${name} is required`, name);
  }
  return filters;
}

/**
 * The `filter[tagged]` entries of a list (see parseTagFilters), after refusing every other
 * `filter[…]` parameter except the `supported` ones the list reads itself.
 */
export const TagFilters = createParamDecorator((supported: readonly RegExp[], ctx: ExecutionContext) => {
  const query = queryOf(ctx);
  refuseUnknownFilters(query, [...(supported ?? []), TAG_FILTER_PARAM]);
  return parseTagFilters(query);
});

/** The OpenAPI description of `filter[tagged]` (its first entry; more take indexes 1, 2, …). */
export const TAG_FILTER_QUERY_DOCS: Record<string, string> = {
  'filter[tagged][0][key]':
    'a tag binding key (any letter case) the item must carry; further entries take indexes 1, 2, … (at most 10), all must match',
  'filter[tagged][0][value]': 'the value that key must have; empty or absent: any value',
};
