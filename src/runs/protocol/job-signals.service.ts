import { Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import type Redis from 'ioredis';
import { AppConfig } from '../../config/app-config';
import { HttpDrain } from '../../http/http-drain';
import { ClaimWaiters, JobScope } from './claim-waiters';
import { RunJobsRepository } from './run-jobs.repository';

/** With Redis telling the nodes of every queued job, the database check runs this many times less often. */
const REDIS_BACKSTOP_FACTOR = 20;
const REDIS_CONNECT_TIMEOUT_MS = 2000;

interface QueuedMessage {
  node: string;
  pool: string | null;
  org: string;
}

function parseMessage(raw: string): QueuedMessage | null {
  try {
    const m = JSON.parse(raw) as Partial<QueuedMessage>;
    if (typeof m.node !== 'string' || typeof m.org !== 'string') return null;
    if (m.pool !== null && typeof m.pool !== 'string') return null;
    return { node: m.node, pool: m.pool, org: m.org };
  } catch {
    return null;
  }
}

/**
 * Tells waiting claims that a job was queued. In this process: from the transaction that queued
 * it, once committed. From other nodes: over Redis pub/sub when REDIS_URL is set, and through one
 * query per process every CLAIM_WAIT_CHECK_MS while claims wait here (with Redis, every twentieth
 * interval only, as a backstop for messages lost while it was unreachable). Nothing here costs a
 * query per waiting executor.
 */
@Injectable()
export class JobSignals implements OnModuleInit, OnApplicationShutdown {
  readonly waiters = new ClaimWaiters();
  private readonly logger = new Logger('ClaimWaits');
  private readonly node = randomBytes(8).toString('hex');
  private readonly channel: string;
  private publisher?: Redis;
  private subscriber?: Redis;
  private timer?: NodeJS.Timeout;
  private ticks = 0;
  private checking = false;
  private checkFailed = false;

  constructor(
    private readonly config: AppConfig,
    private readonly jobs: RunJobsRepository,
    private readonly drain: HttpDrain,
  ) {
    this.channel = `${config.redisKeyPrefix}jobs-queued`;
  }

  /** The longest a claim may wait (CLAIM_WAIT_MAX_SECONDS). */
  get maxWaitSeconds(): number {
    return this.config.claimWaitMaxSeconds;
  }

  async onModuleInit(): Promise<void> {
    this.drain.onDrain(() => this.waiters.close());
    if (this.config.claimWaitMaxSeconds === 0) return;
    if (this.config.redisUrl) await this.connect(this.config.redisUrl);
    this.timer = setInterval(() => void this.tick(), this.config.claimWaitCheckMs);
    this.timer.unref();
  }

  /** A job of `job`'s scope was queued and committed in this process. */
  queued(job: JobScope): void {
    this.waiters.wake(job);
    const publisher = this.publisher;
    if (publisher?.status !== 'ready') return;
    const message: QueuedMessage = { node: this.node, pool: job.poolId, org: job.organizationId };
    publisher.publish(this.channel, JSON.stringify(message)).catch((err: Error) => {
      this.logger.warn(`could not tell other nodes of a queued job: ${err.message}`);
    });
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    this.waiters.close();
    const clients = [this.publisher, this.subscriber].filter((r): r is Redis => r !== undefined);
    await Promise.all(clients.map(quit));
  }

  private async tick(): Promise<void> {
    this.ticks++;
    const redisUp = this.subscriber?.status === 'ready';
    if (redisUp && this.ticks % REDIS_BACKSTOP_FACTOR !== 0) return;
    if (this.checking || this.waiters.size === 0) return;
    this.checking = true;
    try {
      for (const scope of await this.jobs.queuedScopes()) this.waiters.wake(scope, scope.count);
      this.checkFailed = false;
    } catch (err) {
      if (!this.checkFailed) this.logger.warn(`could not check for queued jobs: ${(err as Error).message}`);
      this.checkFailed = true;
    } finally {
      this.checking = false;
    }
  }

  private onMessage(raw: string): void {
    const m = parseMessage(raw);
    if (!m || m.node === this.node) return;
    this.waiters.wake({ poolId: m.pool, organizationId: m.org });
  }

  /** ioredis is loaded only by installations that configure Redis; it reconnects by itself. */
  private async connect(url: string): Promise<void> {
    const { default: RedisClient } = await import('ioredis');
    const options = { lazyConnect: true, maxRetriesPerRequest: 1, connectTimeout: REDIS_CONNECT_TIMEOUT_MS };
    const publisher = new RedisClient(url, { ...options, enableOfflineQueue: false });
    const subscriber = new RedisClient(url, options);
    this.publisher = publisher;
    this.subscriber = subscriber;
    for (const client of [publisher, subscriber]) {
      client.on('error', () => undefined);
    }
    subscriber.on('message', (_channel: string, raw: string) => this.onMessage(raw));
    // At every (re)connection: a start without Redis subscribes once it comes.
    subscriber.on('ready', () => {
      subscriber.subscribe(this.channel).catch((err: Error) => {
        this.logger.warn(`could not listen for jobs queued on other nodes: ${err.message}`);
      });
    });
    try {
      await Promise.all([publisher.connect(), subscriber.connect()]);
      // Listening before the first claim may wait here (the handler above may still be on its way).
      await subscriber.subscribe(this.channel);
    } catch (err) {
      // Until Redis is back, the database check runs at its full rate.
      this.logger.warn(`Redis not reachable at start: ${(err as Error).message}`);
    }
  }
}

async function quit(redis: Redis): Promise<void> {
  if (redis.status === 'end') return;
  await redis.quit().catch(() => redis.disconnect());
}
