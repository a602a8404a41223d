import { ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import { DEFAULT_PAGE_SIZE, offsetOf, PageParams } from '../jsonapi/pagination';
import { sortInMemory } from '../jsonapi/sort';

export interface Page<T> {
  items: T[];
  totalCount: number;
  number: number;
  size: number;
}

/**
 * The one place a Page is made. Lists come in three kinds, each with its helper: a query builder
 * (`paginate`, `paginateCounted` below), plain SQL (`paginateRows`, `paginateRowsCounted` in
 * sql-page.ts, or a hand-written query carrying a window total, `windowTotal`), and a short list
 * read whole (`pageOfAll`).
 */
export function pageOf<T>(items: T[], totalCount: number, page: PageParams): Page<T> {
  return { items, totalCount, number: page.number, size: page.size };
}

/**
 * The order `sort` asked for (`page.sort`, see `@Sortable`) in place of the query's own, each key
 * a property of the query's main entity, `id` last so that equal keys keep one order across pages.
 * Without `sort` the query keeps the (stable) order its repository gave it.
 */
export function sorted<T extends ObjectLiteral>(
  qb: SelectQueryBuilder<T>,
  page: PageParams,
): SelectQueryBuilder<T> {
  if (!page.sort?.length) return qb;
  const alias = qb.alias;
  const ordered = qb.clone().orderBy();
  for (const key of page.sort)
    ordered.addOrderBy(`${alias}.${key.property}`, key.descending ? 'DESC' : 'ASC');
  return ordered.addOrderBy(`${alias}.id`, page.sort[page.sort.length - 1].descending ? 'DESC' : 'ASC');
}

/** One query for the page and one count; the query builder must already carry a stable order. */
export async function paginate<T extends ObjectLiteral>(
  qb: SelectQueryBuilder<T>,
  page: PageParams,
): Promise<Page<T>> {
  const [items, totalCount] = await Promise.all([
    sorted(qb, page).offset(offsetOf(page)).limit(page.size).getMany(),
    qb.clone().orderBy().getCount(),
  ]);
  return pageOf(items, totalCount, page);
}

export function pageResult(page: Page<unknown>): { number: number; size: number; totalCount: number } {
  return { number: page.number, size: page.size, totalCount: page.totalCount };
}

/** The SQL column that carries the total beside each row of a windowed page query. */
export const WINDOW_TOTAL = 'COUNT(*) OVER () AS page_total_count';

/**
 * The total a windowed page query carried (see `paginateCounted`); a page past the end has no row
 * to carry it, so only then is `count` asked.
 */
export async function windowTotal(
  rows: Record<string, unknown>[],
  count: () => Promise<number>,
): Promise<number> {
  return rows.length ? Number(rows[0].page_total_count) : count();
}

/**
 * One round trip for lists that stay short (a workspace's triggers, an organization's policy
 * sets): the page with the total count beside each row, from a window function (MySQL 8,
 * MariaDB 10.2 and SQLite 3.25 have them). Only a page past the end, which has no row to carry
 * the count, costs a second query. Not for lists that can grow large: the window makes the
 * database read every matching row.
 */
export async function paginateCounted<T extends ObjectLiteral>(
  qb: SelectQueryBuilder<T>,
  page: PageParams,
): Promise<Page<T>> {
  const { entities, raw } = await sorted(qb.clone(), page)
    .addSelect('COUNT(*) OVER ()', 'page_total_count')
    .offset(offsetOf(page))
    .limit(page.size)
    .getRawAndEntities<Record<string, unknown>>();
  return pageOf(entities, await windowTotal(raw, () => qb.clone().orderBy().getCount()), page);
}

/**
 * A page cut from a list read whole (a target's few tag bindings), in its order or, with `sort`,
 * in the requested one (`valueOf` reads a sort key's property from an item).
 */
export function pageOfAll<T>(
  all: T[],
  page: PageParams,
  valueOf: (item: T, property: string) => unknown = (item, property) =>
    (item as Record<string, unknown>)[property],
): Page<T> {
  const start = offsetOf(page);
  const ordered = sortInMemory(all, page.sort, valueOf);
  return pageOf(ordered.slice(start, start + page.size), all.length, page);
}

/** Everything a write answers with, as the first page of the default size (it fits there). */
export function firstPageOf<T>(items: T[]): Page<T> {
  return pageOf(items, items.length, { number: 1, size: DEFAULT_PAGE_SIZE });
}
