import { Injectable } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { PreparedBody } from '../common/jsonapi/prepared-body';
import { ChangeEpoch, EpochView } from '../common/cache/change-epoch';
import { ReadSet } from '../common/cache/read-set';
import { Clock } from '../common/clock';

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
  /** What its computation started under, and what it read. */
  since: EpochView;
  /** Where this process's own writes stood when its computation started (ChangeEpoch.hereMark). */
  here: number;
  reads: ReadSet;
  /**
   * The newest view, and own-writes mark, it was found current under: nothing to compare while
   * both still stand.
   */
  checked: EpochView;
  checkedHere: number;
  /** Its computation read the clock: it ends at this time on the Clock (ReadSet.until). */
  clockUntil: number | undefined;
}

/** When a computation started: the view it keeps, and where this process's own writes stood. */
export interface CacheStart {
  view: EpochView;
  here: number;
}

/**
 * Rendered GET answers, per credential and URL, kept until a write to a table their computation
 * read is answered anywhere, or one that may change tokens or rights (ChangeEpoch), for
 * CACHE_TTL_MS at most, within RESPONSE_CACHE_MB per process (the least recently used go first).
 * A read-mostly API answers most requests again and again from unchanged rows: this spares the
 * queries, the permission checks and the rendering of those answers, and a write ends only the
 * answers that read what it wrote. An answer computed from the clock as well carries the time at
 * which it changes by itself (`answerStandsUntil`) and is not given after it.
 */
@Injectable()
export class ResponseCache {
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;
  private readonly ttlMs: number;
  private readonly maxBytes: number;

  constructor(
    config: AppConfig,
    private readonly epoch: ChangeEpoch,
    private readonly clock: Clock,
  ) {
    this.ttlMs = config.cacheTtlMs;
    this.maxBytes = epoch.enabled ? config.responseCacheBytes : 0;
  }

  get enabled(): boolean {
    return this.maxBytes > 0 && this.ttlMs > 0;
  }

  /** What an entry whose computation starts now will be tagged with. */
  since(): CacheStart {
    return { view: this.epoch.snapshot(), here: this.epoch.hereMark() };
  }

  get(key: string): CachedResponse | undefined {
    const hit = this.entries.get(key);
    if (!hit) return undefined;
    if (hit.expiresAt <= Date.now() || !this.current(hit) || this.outlived(hit.clockUntil)) {
      this.remove(key, hit);
      return undefined;
    }
    // Most recently used last: Map keeps insertion order.
    this.entries.delete(key);
    this.entries.set(key, hit);
    return hit.answer;
  }

  /**
   * Keeps `answer` if nothing it read changed since its computation started (`since`), until the
   * TTL or `notAfter` (epoch ms: when the credential it was made for expires), whichever is first.
   */
  set(key: string, answer: CachedResponse, start: CacheStart, reads: ReadSet, notAfter?: number): void {
    reads.close();
    // unchangedSince also compares the access counter: the answer was made for a principal.
    if (!this.epoch.unchangedSince(start.view, reads) || this.epoch.writtenHereSince(start.here, reads)) return;
    if (this.outlived(reads.until)) return;
    const bytes = answer.body.bytes.length + key.length;
    if (bytes > this.maxBytes / 8) return;
    const old = this.entries.get(key);
    if (old) this.remove(key, old);
    while (this.bytes + bytes > this.maxBytes) {
      const [oldestKey, oldest] = this.entries.entries().next().value as [string, Entry];
      this.remove(oldestKey, oldest);
    }
    const expiresAt = Math.min(Date.now() + this.ttlMs, notAfter ?? Infinity);
    this.entries.set(key, {
      answer,
      bytes,
      expiresAt,
      since: start.view,
      here: start.here,
      reads,
      checked: this.epoch.snapshot(),
      checkedHere: this.epoch.hereMark(),
      clockUntil: reads.until,
    });
    this.bytes += bytes;
  }

  /**
   * Made for a principal: it ends with a write to what it read, or to tokens and rights; with one
   * of this process's own at once, before the counters are read again (a sweeper's, a timer's).
   */
  private current(entry: Entry): boolean {
    const now = this.epoch.snapshot();
    const here = this.epoch.hereMark();
    if (entry.checked === now && entry.checkedHere === here) return true;
    if (this.epoch.writtenHereSince(entry.here, entry.reads)) return false;
    if (!this.epoch.unchangedSince(entry.since, entry.reads)) return false;
    entry.checked = now;
    entry.checkedHere = here;
    return true;
  }

  /** Whether the time an answer computed from the clock stands until has come. */
  private outlived(until: number | undefined): boolean {
    return until !== undefined && this.clock.now().getTime() >= until;
  }

  private remove(key: string, entry: Entry): void {
    this.entries.delete(key);
    this.bytes -= entry.bytes;
  }
}
