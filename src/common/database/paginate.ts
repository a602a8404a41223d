import { ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import { offsetOf, PageParams } from '../jsonapi/pagination';

export interface Page<T> {
  items: T[];
  totalCount: number;
  number: number;
  size: number;
}

/** One query for the page and one count; the query builder must already carry a stable order. */
export async function paginate<T extends ObjectLiteral>(
  qb: SelectQueryBuilder<T>,
  page: PageParams,
): Promise<Page<T>> {
  const [items, totalCount] = await Promise.all([
    qb.clone().offset(offsetOf(page)).limit(page.size).getMany(),
    qb.clone().orderBy().getCount(),
  ]);
  return { items, totalCount, number: page.number, size: page.size };
}

export function pageResult(page: Page<unknown>): { number: number; size: number; totalCount: number } {
  return { number: page.number, size: page.size, totalCount: page.totalCount };
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
  const { entities, raw } = await qb
    .clone()
    .addSelect('COUNT(*) OVER ()', 'page_total_count')
    .offset(offsetOf(page))
    .limit(page.size)
    .getRawAndEntities<{ page_total_count: number | string }>();
  const totalCount = raw.length ? Number(raw[0].page_total_count) : await qb.clone().orderBy().getCount();
  return { items: entities, totalCount, number: page.number, size: page.size };
}
