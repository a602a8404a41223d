interface Entry {
  expiresAt: number;
  value: unknown;
}

/**
 * A process-local memo whose entries live `ttlMs` at most: the base of the caches that spare the
 * database work every request would repeat (see AuthCache, WorkspaceListCache). Holders call
 * `invalidate()` after committing a change their entries depend on; other processes and nodes
 * rely on the expiry. A TTL of 0 turns it off. Entries beyond `maxEntries` push out the oldest.
 */
export class TtlMemo {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
  ) {}

  /** The remembered answer for `key`, or `load()`'s (shared by concurrent callers, kept for the TTL). */
  get<T>(key: string, load: () => Promise<T>): Promise<T> {
    if (this.ttlMs <= 0) return load();
    const hit = this.peek<Promise<T>>(key);
    if (hit) return hit;
    const value = load();
    this.set(key, value);
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
    if (hit.expiresAt > Date.now()) return hit.value as T;
    this.entries.delete(key);
    return undefined;
  }

  set(key: string, value: unknown): void {
    if (this.ttlMs <= 0) return;
    this.entries.delete(key);
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(key, { expiresAt: Date.now() + this.ttlMs, value });
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
