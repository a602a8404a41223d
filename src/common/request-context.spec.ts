import type { Request, Response } from 'express';
import type { Principal } from './auth/principal';
import { contextOf, openRequestContext, requestContext } from './request-context';
import { fileOf, matchesInSource } from './source-scan.testing';

/**
 * What the pipeline learns about a request is kept in its RequestContext, not beside it: a weak
 * map or set keyed by a request or a principal elsewhere is a side channel the context replaces.
 * Handles that outlive every request (a data source, its entity managers, the MySQL pool and its
 * connections) may key per-process memos; any other key fails here, naming the file and the line.
 */
const LONG_LIVED_KEYS = new Set(['DataSource', 'EntityManager', 'Mysql2Pool', 'Mysql2Connection']);

/** A weak collection and its key type (group 1; absent when it names none). */
const WEAK_COLLECTION = /\bnew\s+Weak(?:Map|Set)\b\s*(?:<\s*([^,>]+?)\s*[,>])?/g;

const keyedPerRequest = (key: string | undefined) => !LONG_LIVED_KEYS.has(key ?? '');

const ann: Principal = {
  kind: 'user',
  tokenId: 'at-1',
  userId: 'user-1',
  username: 'ann',
  isSiteAdmin: false,
};

describe('the request context', () => {
  it('is the only place per-request facts are kept: no weak map or set keyed by a request or principal elsewhere', () => {
    const hits = matchesInSource(WEAK_COLLECTION)
      .filter(({ at, match }) => fileOf(at) !== 'common/request-context.ts' && keyedPerRequest(match[1]))
      .map(({ at, match }) => `${at} ${match[0]}`);
    expect(hits).toEqual([]);
  });

  it('tells the side channels it replaced from the memos of long-lived handles', () => {
    const keys = (code: string) => [...code.matchAll(WEAK_COLLECTION)].map((m) => keyedPerRequest(m[1]));
    expect(
      keys(`
        const unchangedOfRequest = new WeakMap<object, readonly number[]>();
        private readonly cache = new WeakMap<Principal, Map<string, Promise<OrganizationAccess | null>>>();
        const seen = new WeakSet<Request>();
        const untyped = new WeakMap();
      `),
    ).toEqual([true, true, true, true]);
    expect(
      keys(`
        const trackers = new WeakMap<DataSource, { tables: StatementTables }>();
        const afterCommits = new WeakMap<EntityManager, (() => void)[]>();
        const counted = new WeakSet<Mysql2Connection>();
      `),
    ).toEqual([false, false, false]);
  });

  it('is one object per request, made by the first middleware or at the first ask', () => {
    const req = {} as Request;
    const next = jest.fn();
    openRequestContext(req, {} as Response, next);
    expect(next).toHaveBeenCalledWith();
    const context = requestContext(req);
    openRequestContext(req, {} as Response, next);
    expect(requestContext(req)).toBe(context);
    const other = {};
    expect(requestContext(other)).toBe(requestContext(other));
    expect(requestContext(other)).not.toBe(context);
  });

  it("gives each request its own principal, leading back to the request's context", () => {
    const req = {};
    const p = requestContext(req).actAs({ principal: ann, expiresAt: 1_900_000_000_000 });
    expect(p).not.toBe(ann);
    expect(p).toEqual(ann);
    expect({ ...p }).toEqual(ann);
    expect(JSON.stringify(p)).toBe(JSON.stringify(ann));
    expect(contextOf(p)).toBe(requestContext(req));
    expect(contextOf({ ...p })).toBeUndefined();
    expect(contextOf(ann)).toBeUndefined();
    expect(requestContext(req).credentialExpiry).toBe(1_900_000_000_000);
  });

  it('notes no expiry for a credential that never expires', () => {
    const req = {};
    requestContext(req).actAs({ principal: ann, expiresAt: null });
    expect(requestContext(req).credentialExpiry).toBeUndefined();
  });
});
