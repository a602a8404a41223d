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
        this.redis = await this.connectRedis(this.config.redisUrl!);
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
