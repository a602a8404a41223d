import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiQuery } from '@nestjs/swagger';
import { badRequest } from '../errors/domain-error';

/** Handler metadata set by `@Sortable`: wire field → property of the list's entity. */
export const SORTABLE = 'plinth:sortable';

/** The most keys one `sort` may name; more is a 400 (each key is an ORDER BY term). */
export const MAX_SORT_KEYS = 3;

/** One key of a requested order: the wire field, the entity property it sorts by, the direction. */
export interface SortKey {
  field: string;
  property: string;
  descending: boolean;
}

export type SortFields = Readonly<Record<string, string>>;

/**
 * Declares the fields a list may be sorted by (`sort=name,-created-at`), each mapped to the
 * property of the list's entity that orders it. The `Paging` parameter reads `sort` against this
 * declaration (an unknown field is a 400 naming it), the pagination helpers apply it with `id` as
 * the last key, and the OpenAPI document lists the values. Without `sort` a list keeps its own
 * default order, `defaultOrder` (documented).
 */
export function Sortable(fields: SortFields, defaultOrder: string): MethodDecorator {
  const values = Object.keys(fields).flatMap((f) => [f, `-${f}`]);
  return applyDecorators(
    SetMetadata(SORTABLE, fields),
    ApiQuery({
      name: 'sort',
      required: false,
      description:
        `Comma list of up to ${MAX_SORT_KEYS} fields, \`-\` in front for descending; \`id\` breaks ties. ` +
        `Default: ${defaultOrder}.`,
      style: 'form',
      explode: false,
      schema: { type: 'array', items: { type: 'string', enum: values }, maxItems: MAX_SORT_KEYS },
    }),
  );
}

/** `sort` against a list's declared fields; undefined when absent (the list's default order). */
export function parseSortKeys(
  raw: string | undefined,
  fields: SortFields | undefined,
): SortKey[] | undefined {
  if (raw === undefined || raw.trim() === '') return undefined;
  if (!fields) throw badRequest('sort is not supported on this route', 'sort');
  const parts = raw.split(',').map((p) => p.trim());
  if (parts.length > MAX_SORT_KEYS) throw badRequest(`sort may name at most ${MAX_SORT_KEYS} fields`, 'sort');
  const allowed = Object.keys(fields).join(', ');
  const seen = new Set<string>();
  return parts.map((part) => {
    const descending = part.startsWith('-');
    const field = descending ? part.slice(1) : part;
    if (!Object.prototype.hasOwnProperty.call(fields, field)) {
      const shown = field.length > 40 ? `${field.slice(0, 40)}…` : field;
      throw badRequest(`sort field ${shown} is not supported; allowed: ${allowed}`, 'sort');
    }
    if (seen.has(field)) throw badRequest(`sort names ${field} twice`, 'sort');
    seen.add(field);
    return { field, property: fields[field], descending };
  });
}

/** Compares two values of a sort key: nulls first, numbers and dates by value, strings by code point. */
function compareValues(a: unknown, b: unknown): number {
  if (a === b) return 0;
  if (a === null || a === undefined) return -1;
  if (b === null || b === undefined) return 1;
  const x = a instanceof Date ? a.getTime() : a;
  const y = b instanceof Date ? b.getTime() : b;
  if (typeof x === 'number' && typeof y === 'number') return x - y;
  const s = typeof x === 'string' ? x : JSON.stringify(x);
  const t = typeof y === 'string' ? y : JSON.stringify(y);
  return s < t ? -1 : s > t ? 1 : 0;
}

/**
 * A list read whole, put in the requested order (stable, `id` last); `valueOf` reads a key's
 * property from an item. Without keys the list keeps its order.
 */
export function sortInMemory<T>(
  items: T[],
  keys: readonly SortKey[] | undefined,
  valueOf: (item: T, property: string) => unknown,
): T[] {
  if (!keys?.length) return items;
  const last = keys[keys.length - 1].descending ? -1 : 1;
  return [...items].sort((a, b) => {
    for (const key of keys) {
      const c = compareValues(valueOf(a, key.property), valueOf(b, key.property));
      if (c !== 0) return key.descending ? -c : c;
    }
    return last * compareValues(valueOf(a, 'id'), valueOf(b, 'id'));
  });
}
