import { Injectable } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { PreparedBody } from '../common/jsonapi/prepared-body';
import { ChangeEpoch } from '../common/cache/change-epoch';

/** A remembered answer, and what giving it again needs besides the bytes. */
export interface CachedResponse {
  body: PreparedBody;
  /** Rate-limit key of the principal it was made for: a repeat counts against the same budget. */
  owner: string;
  /** Route template it was answered by (metrics label). */
  route: string;
}

interface Entry {
  answer: CachedResponse;
  expiresAt: number;
  bytes: number;
}

/**
 * Rendered GET answers, per credential and URL, kept until any write is answered anywhere (the
 * ChangeEpoch moves), for CACHE_TTL_MS at most, within RESPONSE_CACHE_MB per process (the least
 * recently used go first). A read-mostly API answers most requests again and again from unchanged
 * rows: this spares the queries, the permission checks and the rendering of those answers.
 */
@Injectable()
export class ResponseCache {
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;
  /** The epoch the entries were made under; a newer one empties the map in one step. */
  private epochOfEntries = -1;
  private readonly ttlMs: number;
  private readonly maxBytes: number;

  constructor(
    config: AppConfig,
    private readonly epoch: ChangeEpoch,
  ) {
    this.ttlMs = config.cacheTtlMs;
    this.maxBytes = epoch.enabled ? config.responseCacheBytes : 0;
  }

  get enabled(): boolean {
    return this.maxBytes > 0 && this.ttlMs > 0;
  }

  /** What an entry whose computation starts now will be tagged with. */
  since(): number {
    return this.epoch.current;
  }

  get(key: string): CachedResponse | undefined {
    this.dropIfStale();
    const hit = this.entries.get(key);
    if (!hit) return undefined;
    if (hit.expiresAt <= Date.now()) {
      this.remove(key, hit);
      return undefined;
    }
    // Most recently used last: Map keeps insertion order.
    this.entries.delete(key);
    this.entries.set(key, hit);
    return hit.answer;
  }

  /**
   * Keeps `answer` if nothing changed since its computation started (`since`), until the TTL or
   * `notAfter` (epoch ms: when the credential it was made for expires), whichever comes first.
   */
  set(key: string, answer: CachedResponse, since: number, notAfter?: number): void {
    this.dropIfStale();
    if (since !== this.epoch.current) return;
    const bytes = answer.body.bytes.length + key.length;
    if (bytes > this.maxBytes / 8) return;
    const old = this.entries.get(key);
    if (old) this.remove(key, old);
    while (this.bytes + bytes > this.maxBytes) {
      const [oldestKey, oldest] = this.entries.entries().next().value as [string, Entry];
      this.remove(oldestKey, oldest);
    }
    const expiresAt = Math.min(Date.now() + this.ttlMs, notAfter ?? Infinity);
    this.entries.set(key, { answer, bytes, expiresAt });
    this.bytes += bytes;
  }

  private dropIfStale(): void {
    if (this.epochOfEntries === this.epoch.current) return;
    this.entries.clear();
    this.bytes = 0;
    this.epochOfEntries = this.epoch.current;
  }

  private remove(key: string, entry: Entry): void {
    this.entries.delete(key);
    this.bytes -= entry.bytes;
  }
}
