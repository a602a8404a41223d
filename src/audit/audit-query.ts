import { badRequest, DomainError } from '../common/errors/domain-error';
import { PageParams } from '../common/jsonapi/pagination';
import { parseSortKeys } from '../common/jsonapi/sort';

/** What an audit trail may be sorted by (`sort=-timestamp`): the event's time, `id` breaking ties. */
export const AUDIT_SORT = { timestamp: 'occurredAt' } as const;

/** Audit pages are larger than other lists, as the real service's (default and most: 1000). */
export const AUDIT_PAGE_DEFAULT = 1000;

/** `since`: an ISO 8601 timestamp with a zone; anything else is a 400 naming it. */
export function parseSince(raw: string | undefined): Date | undefined {
  if (raw === undefined || raw === '') return undefined;
  const ok = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2}))?$/.test(raw);
  const at = new Date(raw);
  if (!ok || Number.isNaN(at.getTime())) throw badRequest('since must be an ISO 8601 timestamp', 'since');
  return at;
}

/**
 * `page[number]`, `page[size]` (1–1000, default 1000) and `sort` (`timestamp` or `-timestamp`;
 * default oldest first) of an audit trail request.
 */
export function parseAuditPage(
  rawNumber: string | undefined,
  rawSize: string | undefined,
  rawSort?: string,
): PageParams {
  const number = rawNumber === undefined || rawNumber === '' ? 1 : Number(rawNumber);
  if (!/^\d{1,9}$/.test(rawNumber || '1') || number < 1)
    throw invalidParameter('page[number] must be a positive integer', 'page[number]');
  const size = rawSize === undefined || rawSize === '' ? AUDIT_PAGE_DEFAULT : Number(rawSize);
  if (!/^\d{1,4}$/.test(rawSize || '1') || size < 1 || size > AUDIT_PAGE_DEFAULT)
    throw invalidParameter(`page[size] must be between 1 and ${AUDIT_PAGE_DEFAULT}`, 'page[size]');
  const sort = parseSortKeys(rawSort, AUDIT_SORT);
  return sort ? { number, size, sort } : { number, size };
}

/** The 422 the other lists answer for page parameters out of range. */
function invalidParameter(detail: string, parameter: string): DomainError {
  return new DomainError('invalid', [{ detail, parameter }]);
}
