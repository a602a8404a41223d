import { PageResult } from './document';
import type { SortKey } from './sort';

export interface PageParams {
  number: number;
  size: number;
  /** The order `sort` asked for (see `@Sortable`); absent: the list's own default order. */
  sort?: readonly SortKey[];
}

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

export interface PaginationMeta {
  'current-page': number;
  'page-size': number;
  'prev-page': number | null;
  'next-page': number | null;
  'total-pages': number;
  'total-count': number;
}

export function paginationMeta(page: PageResult): PaginationMeta {
  const totalPages = Math.ceil(page.totalCount / page.size);
  return {
    'current-page': page.number,
    'page-size': page.size,
    'prev-page': page.number > 1 ? Math.min(page.number - 1, Math.max(totalPages, 1)) : null,
    'next-page': page.number < totalPages ? page.number + 1 : null,
    'total-pages': totalPages,
    'total-count': page.totalCount,
  };
}

export function offsetOf(page: PageParams): number {
  return (page.number - 1) * page.size;
}

/**
 * Absolute list links with encoded brackets. Every query parameter of the request is kept;
 * only the page parameters change from link to link.
 */
export function paginationLinks(
  baseUrl: string,
  path: string,
  query: Record<string, unknown>,
  page: PageResult,
): Record<string, string | null> {
  const meta = paginationMeta(page);
  const lastPage = Math.max(meta['total-pages'], 1);
  const kept = Object.entries(query).filter(
    ([k, v]) => k !== 'page[number]' && k !== 'page[size]' && typeof v === 'string',
  ) as [string, string][];
  const link = (n: number): string => {
    const params = new URLSearchParams([
      ['page[number]', String(n)],
      ['page[size]', String(page.size)],
      ...kept,
    ]);
    return `${baseUrl}${path}?${params.toString()}`;
  };
  return {
    self: link(page.number),
    first: link(1),
    prev: meta['prev-page'] === null ? null : link(meta['prev-page']),
    next: meta['next-page'] === null ? null : link(meta['next-page']),
    last: link(lastPage),
  };
}
