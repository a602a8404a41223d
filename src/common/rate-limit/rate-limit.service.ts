import { Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import cluster from 'node:cluster';
import type Redis from 'ioredis';
import {
  RateLimiterAbstract,
  RateLimiterCluster,
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
} from 'rate-limiter-flexible';
import { AppConfig } from '../../config/app-config';
import { StoreWindowCounter, UNLIMITED_POINTS, WindowCounter } from './window-counter';

/** What one request's point cost left of its key's budget. */
export interface RateDecision {
  allowed: boolean;
  /** Seconds until the current window ends and the budget refills. */
  resetSeconds: number;
}

/** Where counters live: one process, the workers of one machine (via the primary), or Redis. */
export type RateStore = 'memory' | 'cluster' | 'redis';

const WINDOW_SECONDS = 1;
const REDIS_READY_WAIT_MS = 2000;

/**
 * Fixed one-second windows of `RATE_LIMIT_PER_SECOND` points per key. Keys name a principal
 * (`user:…`, `team:…`, `org:…`) or an address (`ip:…`). With several worker processes and no
 * Redis, the primary process keeps the counters so the budget is per machine, not per worker.
 * Other counters that must hold across processes (the login throttle's) live in the same store,
 * whether or not the request rate is limited.
 */
@Injectable()
export class RateLimitService implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('RateLimit');
  private limiter?: RateLimiterAbstract;
  private redis?: Redis;
  readonly store: RateStore;

  constructor(private readonly config: AppConfig) {
    if (config.redisUrl) this.store = 'redis';
    else this.store = cluster.isWorker ? 'cluster' : 'memory';
  }

  /** The configured budget per second; 0 means limiting is off. */
  get limit(): number {
    return this.config.rateLimitPerSecond;
  }

  get enabled(): boolean {
    return this.limit > 0;
  }

  async onModuleInit(): Promise<void> {
    if (this.store === 'redis') this.redis = await this.connectRedis(this.config.redisUrl!);
    if (!this.enabled) return;
    const points = this.limit;
    const keyPrefix = `${this.config.redisKeyPrefix}rl`;
    const memory = new RateLimiterMemory({ points, duration: WINDOW_SECONDS, keyPrefix });
    switch (this.store) {
      case 'memory':
        this.limiter = memory;
        return;
      case 'cluster':
        this.limiter = new RateLimiterCluster({
          points,
          duration: WINDOW_SECONDS,
          keyPrefix,
          timeoutMs: 1000,
        });
        return;
      case 'redis':
        this.limiter = new RateLimiterRedis({
          storeClient: this.redis,
          points,
          duration: WINDOW_SECONDS,
          keyPrefix,
          // Keys over budget are refused in memory until their window ends: no Redis round trip.
          inMemoryBlockOnConsumed: points + 1,
          // While Redis is unreachable each process counts on its own rather than failing requests.
          insuranceLimiter: memory,
          rejectIfRedisNotReady: true,
        });
        return;
    }
  }

  /** Spends `points` of `key`'s budget (one for most requests; see `principalCost`). */
  async consume(key: string, points = 1): Promise<RateDecision> {
    if (!this.limiter) return { allowed: true, resetSeconds: 0 };
    try {
      const res = await this.limiter.consume(key, points);
      return { allowed: true, resetSeconds: seconds(res.msBeforeNext) };
    } catch (err) {
      if (err instanceof RateLimiterRes) return { allowed: false, resetSeconds: seconds(err.msBeforeNext) };
      // The store itself failed (cluster primary did not answer): let the request through.
      this.logger.warn(`rate limit store failed: ${(err as Error).message}`);
      return { allowed: true, resetSeconds: 0 };
    }
  }

  /**
   * Windows of `durationSeconds` per key in this service's store, apart from every other counter
   * by `name`. Usable from construction on: the store is reached at the first count.
   */
  counter(name: string, durationSeconds: number): WindowCounter {
    const keyPrefix = `${this.config.redisKeyPrefix}${name}`;
    const options = { points: UNLIMITED_POINTS, duration: durationSeconds, keyPrefix };
    const local = new RateLimiterMemory(options);
    let shared: RateLimiterAbstract | undefined;
    const store = (): RateLimiterAbstract => {
      shared ??= this.sharedLimiter(options, local);
      return shared;
    };
    return new StoreWindowCounter(name, store, local);
  }

  private sharedLimiter(
    options: { points: number; duration: number; keyPrefix: string },
    local: RateLimiterMemory,
  ): RateLimiterAbstract {
    switch (this.store) {
      case 'memory':
        return local;
      case 'cluster':
        return new RateLimiterCluster({ ...options, timeoutMs: 1000 });
      case 'redis':
        if (!this.redis) throw new Error('Redis is not connected yet');
        return new RateLimiterRedis({ ...options, storeClient: this.redis, rejectIfRedisNotReady: true });
    }
  }

  async onApplicationShutdown(): Promise<void> {
    const redis = this.redis;
    if (!redis || redis.status === 'end') return;
    const ended = new Promise<void>((resolve) => {
      redis.once('end', resolve);
      setTimeout(resolve, 1000).unref();
    });
    await redis.quit().catch(() => redis.disconnect());
    await ended;
  }

  /** ioredis is loaded only by installations that configure Redis. */
  private async connectRedis(url: string): Promise<Redis> {
    const { default: RedisClient } = await import('ioredis');
    const redis = new RedisClient(url, {
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      connectTimeout: REDIS_READY_WAIT_MS,
    });
    let down = false;
    redis.on('error', (err: Error) => {
      if (!down) this.logger.warn(`Redis unavailable, counting in this process meanwhile: ${err.message}`);
      down = true;
    });
    redis.on('ready', () => {
      if (down) this.logger.log('Redis reachable again');
      down = false;
    });
    try {
      await redis.connect();
    } catch (err) {
      // ioredis keeps reconnecting in the background; until then the in-process insurance counts.
      this.logger.warn(`Redis not reachable at start: ${(err as Error).message}`);
    }
    return redis;
  }
}

function seconds(ms: number): number {
  return Math.max(0, Math.round(ms) / 1000);
}
