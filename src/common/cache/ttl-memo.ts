import type { ChangeEpoch, EpochScope, EpochView } from './change-epoch';
import { currentReadSet, holdTracking, ReadSet, trackReads } from './read-set';

/** When a value's computation started, and what it read (null: not known). */
export interface MemoStamp {
  view: EpochView | undefined;
  reads: ReadSet | null;
  /** Where this process's own writes stood when it started (ChangeEpoch.hereMark). */
  here?: number;
}

interface Entry extends MemoStamp {
  expiresAt: number;
  value: unknown;
  /** False while a promised value's load is still running. */
  settled: boolean;
}

/**
 * A process-local memo whose entries live `ttlMs` at most: the base of the caches that spare the
 * database work every request would repeat (see AuthCache, WorkspaceListCache). Given the
 * installation's ChangeEpoch, an entry counts only while none of the tables its load read has
 * changed anywhere since the load started (any table, when the load ran outside a tracked
 * computation and so its reads are not known), so every process sees every change at once. Nobody
 * tells a memo what to forget: writes reach it only through the statement tracking and the epoch.
 * A tracked computation that uses an entry takes on what the entry read, so an answer made from it
 * ends when it would have.
 *
 * With scope `access` (AuthCache) entries follow, across processes, the access counter only:
 * tokens and rights are announced by the writes that may change them, not by their tables. Their
 * loads still note what they read, for this process (below), but never hand it to their callers.
 *
 * This process's own writes end the entries that read what they wrote at once, without waiting
 * for the next read of the counters: a request that wrote and then reads through the memo sees its
 * write, and a revoked token or a removed member is refused by this process as soon as the
 * statement has run (again at its commit).
 *
 * The TTL bounds how long an entry lives if the epoch could not be advanced (the database went
 * away between a write and its answer). A TTL of 0 turns it off. Entries beyond `maxEntries` push
 * out the oldest.
 */
export class TtlMemo {
  private readonly entries = new Map<string, Entry>();
  /**
   * Loads note what they read even for a caller outside any tracked computation (which keeps the
   * tracking on while they run), so that such an entry ends only with a change to what it read,
   * not with any change: for entries most callers load outside a cached GET (WorkspaceByIdCache).
   * Scope `access` always does.
   */
  protected readonly tracksEveryLoad: boolean = false;

  constructor(
    private readonly ttlMs: number,
    private readonly epoch?: ChangeEpoch,
    private readonly maxEntries = 10_000,
    /** Which writes end the entries: those to the tables read, or those that may change access. */
    private readonly scope: EpochScope = 'changes',
  ) {}

  /** The remembered answer for `key`, or `load()`'s (shared by concurrent callers, kept for the TTL). */
  get<T>(key: string, load: () => Promise<T>): Promise<T> {
    if (this.ttlMs <= 0) return load();
    const hit = this.live(key);
    if (hit) return this.handOver(hit.value as Promise<T>, hit.reads);
    const { value, stamp } = this.loadNoting(load);
    this.set(key, value, stamp);
    // A failed load (the database is away) is not remembered.
    value.catch(() => {
      this.drop(key, value);
    });
    return value;
  }

  /**
   * Runs `load` noting what it reads when the caller is tracked (the caller takes it on when the
   * load ends); `set` its results with the stamp, which is taken before the load starts.
   */
  loadNoting<T>(load: () => Promise<T>): { value: Promise<T>; stamp: MemoStamp } {
    const view = this.epoch?.snapshot();
    const here = this.epoch?.hereMark();
    const reads = new ReadSet();
    if (this.scope !== 'access' && currentReadSet()) {
      return { value: this.handOver(trackReads(reads, load), reads), stamp: { view, reads, here } };
    }
    if (!this.tracksEveryLoad && this.scope !== 'access') return { value: load(), stamp: { view, reads: null, here } };
    const release = holdTracking();
    let value: Promise<T>;
    try {
      value = trackReads(reads, load);
    } catch (err) {
      release();
      throw err;
    }
    return { value: value.finally(release), stamp: { view, reads, here } };
  }

  /** The live entry for `key`, if any; a tracked caller takes on what it read. */
  peek<T>(key: string): T | undefined {
    return this.handOverHit<T>(this.live(key));
  }

  /**
   * `peek`, but only an entry whose load has ended: for a caller inside a transaction, which must
   * not wait on a load another request started outside it. On SQLite that load's statement waits
   * for the transaction to end, so each would wait for the other until the busy timeout.
   */
  peekSettled<T>(key: string): T | undefined {
    const hit = this.live(key);
    return hit?.settled ? this.handOverHit<T>(hit) : undefined;
  }

  /** A live entry's value; a tracked caller takes on what its load read. */
  private handOverHit<T>(hit: Entry | undefined): T | undefined {
    if (hit && this.scope !== 'access') currentReadSet()?.absorb(hit.reads);
    return hit?.value as T | undefined;
  }

  set(
    key: string,
    value: unknown,
    stamp: MemoStamp = { view: this.epoch?.snapshot(), reads: null, here: this.epoch?.hereMark() },
  ): void {
    if (this.ttlMs <= 0) return;
    this.entries.delete(key);
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    const entry: Entry = { expiresAt: Date.now() + this.ttlMs, value, ...stamp, settled: !isPromise(value) };
    this.entries.set(key, entry);
    if (!entry.settled) {
      (value as Promise<unknown>).then(
        () => (entry.settled = true),
        () => undefined,
      );
    }
  }

  /**
   * `get`, except that a null answer (an unknown token, a missing row) is handed to the callers
   * waiting for it but not remembered: guessing must not push real entries out.
   */
  getPresent<T>(key: string, load: () => Promise<T | null>): Promise<T | null> {
    const value = this.get(key, load);
    void value.then(
      (v) => v === null && this.drop(key, value),
      () => undefined,
    );
    return value;
  }

  /** Drops `key` if it still holds `value` (a load that must not be remembered). */
  private drop(key: string, value: unknown): void {
    if (this.entries.get(key)?.value === value) this.entries.delete(key);
  }

  private live(key: string): Entry | undefined {
    const hit = this.entries.get(key);
    if (!hit) return undefined;
    if (hit.expiresAt > Date.now() && this.current(hit)) return hit;
    this.entries.delete(key);
    return undefined;
  }

  private current(entry: Entry): boolean {
    if (!this.epoch || !entry.view) return true;
    if (entry.here !== undefined && this.epoch.writtenHereSince(entry.here, entry.reads)) return false;
    return this.epoch.unchangedSince(entry.view, this.scope === 'access' ? 'access' : entry.reads);
  }

  /** A pending load's reads are complete only when it ends: the caller takes them on then. */
  private handOver<T>(value: Promise<T>, reads: ReadSet | null): Promise<T> {
    const caller = this.scope === 'access' ? undefined : currentReadSet();
    if (!caller) return value;
    return value.then((v) => {
      caller.absorb(reads);
      return v;
    });
  }
}

function isPromise(value: unknown): value is Promise<unknown> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}
