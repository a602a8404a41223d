import { Injectable, Logger, BeforeApplicationShutdown } from '@nestjs/common';

/** Writes `last-used-at` = `at` for these tokens where it is unset or not after `notAfter`. */
export type TokenUsageWriter = (ids: string[], at: Date, notAfter: Date) => Promise<void>;

/** `last-used-at` is kept to the minute: a token's row is written at most once a minute. */
export const LAST_USED_RESOLUTION_MS = 60_000;

/** Uses seen within this long are written together, in one statement. */
const FLUSH_DELAY_MS = 1_000;

/** Tokens remembered as written; beyond it, entries older than the resolution are dropped. */
const MAX_REMEMBERED = 50_000;

/**
 * When each token last authenticated a request, without a write per request. A process writes a
 * token's `last_used_at` at most once a minute, batched with the other tokens first seen in the
 * same second; the statement itself skips rows another process wrote within the minute, so across
 * processes and nodes a row is still written about once a minute. The value read back may trail the
 * true last use by up to a minute (and a second). The tokens module, which owns the table,
 * registers the writer at start-up (common/ cannot import it).
 */
@Injectable()
export class TokenUsage implements BeforeApplicationShutdown {
  private readonly logger = new Logger('TokenUsage');
  /** Token id → when this process last decided to write it. */
  private readonly noted = new Map<string, number>();
  private pending = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  private writer: TokenUsageWriter | undefined;

  register(writer: TokenUsageWriter): void {
    this.writer = writer;
  }

  /** Called for every request a token authenticates; costs a map lookup unless a write is due. */
  touch(tokenId: string, now = Date.now()): void {
    const last = this.noted.get(tokenId);
    if (last !== undefined && now - last < LAST_USED_RESOLUTION_MS) return;
    if (this.noted.size >= MAX_REMEMBERED) this.forgetOlderThan(now - LAST_USED_RESOLUTION_MS);
    this.noted.set(tokenId, now);
    this.pending.add(tokenId);
    this.timer ??= setTimeout(() => void this.flush(), FLUSH_DELAY_MS).unref();
  }

  /** Writes what is pending now (the timer does it a second after the first use; tests call it). */
  async flush(now = new Date()): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (!this.pending.size || !this.writer) return;
    const ids = [...this.pending];
    this.pending = new Set();
    try {
      await this.writer(ids, now, new Date(now.getTime() - LAST_USED_RESOLUTION_MS));
    } catch (err) {
      // Dropped, not retried: the next use after the minute writes it again.
      for (const id of ids) this.noted.delete(id);
      this.logger.warn(`could not record token use: ${String(err)}`);
    }
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.flush();
  }

  private forgetOlderThan(cutoff: number): void {
    for (const [id, at] of this.noted) if (at < cutoff) this.noted.delete(id);
  }
}
