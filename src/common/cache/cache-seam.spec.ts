import { fileOf, matchesInSource } from '../source-scan.testing';
import { ChangeEpoch } from './change-epoch';
import { TtlMemo } from './ttl-memo';

/**
 * Caches learn of writes from the statement tracking and the change epoch (docs/architecture.md,
 * "The cache seam"); domain code says what it does and never what to forget. These checks read
 * the source, so a hand-written forget or announcement fails here, naming the file and the line.
 */

/** `file:line` of every match of `pattern` (global) in non-test source, outside comments. */
const callsOf = (pattern: RegExp): string[] => matchesInSource(pattern).map((hit) => hit.at);

describe('the cache seam', () => {
  it('offers no way to forget a memo entry by hand', () => {
    const memo = Object.getOwnPropertyNames(TtlMemo.prototype);
    expect(memo.filter((name) => /^(forget|invalidate|clear)/i.test(name))).toEqual([]);
  });

  it('lets no source forget a cache by hand', () => {
    // These name what they do to rows or to routes, not to a cache of rows:
    const allowed = new Set([
      // the route table's per-path dispatch memo, rebuilt when routes are added at start-up
      'http/route-table.ts',
      // a pending report's row, deleted once delivered
      'executor/pending-reports.ts',
      // which tokens this process already stamped as used (spares writes, holds no rows)
      'common/auth/token-usage.ts',
      // clears tokens' `created_by` when their creator is deleted: a write
      'tokens/tokens.service.ts',
      'tokens/tokens.repository.ts',
      'admin-users/admin-users.service.ts',
    ]);
    const hits = callsOf(/\.\s*(forget\w*|invalidate\w*)\(/g);
    expect(hits.filter((hit) => !allowed.has(fileOf(hit)))).toEqual([]);
  });

  it('leaves the announcement of writes to the change-epoch guard and the statement tracking', () => {
    const methods = Object.getOwnPropertyNames(ChangeEpoch.prototype);
    expect(methods).toEqual(expect.arrayContaining(['advance', 'advanceEverything', 'wrote', 'flush']));
    const allowed = new Set([
      'common/cache/change-epoch.ts',
      'common/cache/cache.module.ts',
      'common/cache/sql-epoch-store.ts',
      'http/change-epoch.guard.ts',
    ]);
    const hits = callsOf(/\b(epoch|changes)\s*\??\s*\.\s*(advance\w*|wrote|flush)\(/gi);
    expect(hits.filter((hit) => !allowed.has(fileOf(hit)))).toEqual([]);
  });
});
