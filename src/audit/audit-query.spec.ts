import { DomainError } from '../common/errors/domain-error';
import { parseAuditPage, parseSince } from './audit-query';

describe('audit trail query parameters', () => {
  it('reads since as an ISO 8601 instant, a bare date as its midnight UTC', () => {
    expect(parseSince('2026-11-23T10:00:00+02:00')?.toISOString()).toBe('2026-11-23T08:00:00.000Z');
    expect(parseSince('2026-11-23')?.toISOString()).toBe('2026-11-23T00:00:00.000Z');
    expect(parseSince(undefined)).toBeUndefined();
  });

  it('refuses since values that are not timestamps, naming the parameter', () => {
    for (const raw of ['yesterday', '2026-13-45T00:00:00Z', '1700000000', '2026-11-23T10:00:00']) {
      expect(() => parseSince(raw)).toThrow(DomainError);
    }
    try {
      parseSince('soon');
    } catch (err) {
      expect((err as DomainError).items).toEqual([
        { detail: 'since must be an ISO 8601 timestamp', parameter: 'since' },
      ]);
    }
  });

  it('pages by 1000 unless told otherwise, at most 1000', () => {
    expect(parseAuditPage(undefined, undefined)).toEqual({ number: 1, size: 1000 });
    expect(parseAuditPage('3', '50')).toEqual({ number: 3, size: 50 });
    for (const [n, s] of [
      ['0', '10'],
      ['x', '10'],
      ['1', '1001'],
      ['1', '0'],
      ['1', '-1'],
    ]) {
      expect(() => parseAuditPage(n, s)).toThrow(DomainError);
    }
  });
});
