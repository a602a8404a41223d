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
