import { Logger } from '@nestjs/common';
import { RateLimiterAbstract, RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';

/** What a key holds in its current window, and how long that window has left. */
export interface WindowCount {
  count: number;
  msLeft: number;
}

/**
 * Counts per key in fixed windows that open at a key's first point. Adding is one atomic step in
 * every store (a Map in one process, the cluster primary's Map, a Redis script), so requests that
 * race each see a count of their own: two never both see the same one.
 */
export interface WindowCounter {
  add(key: string): Promise<WindowCount>;
  /** Gives back a point added earlier, in the same window. */
  takeBack(key: string): Promise<void>;
  /** Forgets the key: its next point opens a new window. */
  clear(key: string): Promise<void>;
}

/** The store never refuses: the caller decides what a count means. */
export const UNLIMITED_POINTS = Number.MAX_SAFE_INTEGER;

/**
 * A counter in the rate limits' store. When the store fails (Redis unreachable, the cluster primary
 * too slow to answer) this process counts on its own until it answers again: counting never stops.
 */
export class StoreWindowCounter implements WindowCounter {
  private readonly logger = new Logger('RateLimit');
  private failing = false;

  constructor(
    private readonly name: string,
    private readonly shared: () => RateLimiterAbstract,
    private readonly local: RateLimiterMemory,
  ) {}

  async add(key: string): Promise<WindowCount> {
    const res = await this.run((limiter) => settled(limiter.consume(key, 1)));
    return { count: res.consumedPoints, msLeft: Math.max(0, res.msBeforeNext) };
  }

  async takeBack(key: string): Promise<void> {
    await this.run((limiter) => limiter.reward(key, 1));
  }

  async clear(key: string): Promise<void> {
    await this.run((limiter) => limiter.delete(key));
  }

  private async run<T>(step: (limiter: RateLimiterAbstract) => Promise<T>): Promise<T> {
    try {
      const result = await step(this.shared());
      if (this.failing) this.logger.log(`${this.name} counters: the shared store answers again`);
      this.failing = false;
      return result;
    } catch (err) {
      if (!this.failing) {
        this.logger.warn(
          `${this.name} counters: the shared store failed (${(err as Error).message}); counting in this process meanwhile`,
        );
      }
      this.failing = true;
      return step(this.local);
    }
  }
}

/** A consume past the limiter's points rejects with the same result; with UNLIMITED_POINTS it never does. */
async function settled(consumed: Promise<RateLimiterRes>): Promise<RateLimiterRes> {
  try {
    return await consumed;
  } catch (err) {
    if (err instanceof RateLimiterRes) return err;
    throw err;
  }
}
