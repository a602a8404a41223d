import { Injectable } from '@nestjs/common';
import { AppConfig } from '../../config/app-config';

interface Entry {
  expiresAt: number;
  value: Promise<unknown>;
}

/** Entries beyond this are dropped oldest first; a busy install has far fewer live tokens. */
const MAX_ENTRIES = 10_000;

/**
 * A short-lived, process-local memo of what authentication and permission checks read from the
 * database: which principal a token digest stands for, what a principal may do in an
 * organization, and the organizations themselves (looked up by name or id). Nearly every request
 * needs them, and they change rarely.
 *
 * Correctness: services that change tokens, teams, memberships or organizations call
 * `invalidate()` once their transaction has committed, so this process answers from the new state
 * at once. Other processes and nodes keep their entries until they expire: `AUTH_CACHE_MS`
 * (default 5 s) is how long a revoked token or a removed member may still be honoured there.
 * 0 turns the cache off.
 */
@Injectable()
export class AuthCache {
  private readonly ttlMs: number;
  private readonly entries = new Map<string, Entry>();

  constructor(config: AppConfig) {
    this.ttlMs = config.authCacheMs;
  }

  /** The remembered answer for `key`, or `load()`'s (shared by concurrent callers, kept for the TTL). */
  get<T>(key: string, load: () => Promise<T>): Promise<T> {
    if (this.ttlMs <= 0) return load();
    const now = Date.now();
    const hit = this.entries.get(key);
    if (hit && hit.expiresAt > now) return hit.value as Promise<T>;
    const value = load();
    if (this.entries.size >= MAX_ENTRIES) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    const entry: Entry = { expiresAt: now + this.ttlMs, value };
    this.entries.set(key, entry);
    // A failed load (the database is away) is not remembered.
    value.catch(() => {
      if (this.entries.get(key) === entry) this.entries.delete(key);
    });
    return value;
  }

  /** Forgets one entry, e.g. an answer not worth keeping. */
  forget(key: string): void {
    this.entries.delete(key);
  }

  /**
   * Forgets everything: call after committing a change to tokens, teams, memberships or
   * organizations. A load still in flight is dropped with the rest, so it is handed only to the
   * requests that were already waiting for it, which started before the change.
   */
  invalidate(): void {
    this.entries.clear();
  }
}
