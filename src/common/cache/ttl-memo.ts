import type { ChangeEpoch, EpochScope } from './change-epoch';

interface Entry {
  expiresAt: number;
  /** The change epoch when the value's computation started. */
  since: number;
  value: unknown;
}

/**
 * A process-local memo whose entries live `ttlMs` at most: the base of the caches that spare the
 * database work every request would repeat (see AuthCache, WorkspaceListCache). Given the
 * installation's ChangeEpoch, an entry counts only while no write has been answered anywhere since
 * its computation started, so every process sees every change at once; holders may still call
 * `invalidate()` after a change of their own. The TTL bounds how long an entry lives if the epoch
 * could not be advanced (the database went away between a write and its answer). A TTL of 0 turns
 * it off. Entries beyond `maxEntries` push out the oldest.
 */
export class TtlMemo {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly ttlMs: number,
    private readonly epoch?: ChangeEpoch,
    private readonly maxEntries = 10_000,
    /** Which writes end the entries: every write, or those that may change access (AuthCache). */
    private readonly scope: EpochScope = 'changes',
  ) {}

  /** What an entry whose computation starts now is tagged with (pass it to `set`). */
  since(): number {
    return this.epoch?.of(this.scope) ?? 0;
  }

  /** The remembered answer for `key`, or `load()`'s (shared by concurrent callers, kept for the TTL). */
  get<T>(key: string, load: () => Promise<T>): Promise<T> {
    if (this.ttlMs <= 0) return load();
    const hit = this.peek<Promise<T>>(key);
    if (hit) return hit;
    const since = this.since();
    const value = load();
    this.set(key, value, since);
    // A failed load (the database is away) is not remembered.
    value.catch(() => {
      if (this.peek(key) === value) this.forget(key);
    });
    return value;
  }

  /** The live entry for `key`, if any. */
  peek<T>(key: string): T | undefined {
    const hit = this.entries.get(key);
    if (!hit) return undefined;
    if (hit.expiresAt > Date.now() && hit.since === this.since()) return hit.value as T;
    this.entries.delete(key);
    return undefined;
  }

  set(key: string, value: unknown, since = this.since()): void {
    if (this.ttlMs <= 0) return;
    this.entries.delete(key);
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(key, { expiresAt: Date.now() + this.ttlMs, since, value });
  }

  forget(key: string): void {
    this.entries.delete(key);
  }

  /**
   * Forgets everything. A load still in flight is dropped with the rest, so it is handed only to
   * the callers already waiting for it, which started before the change.
   */
  invalidate(): void {
    this.entries.clear();
  }
}
