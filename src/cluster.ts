import cluster, { Worker } from 'node:cluster';
import { availableParallelism } from 'node:os';
import type { Logger } from 'pino';
import { RateLimiterClusterMaster } from 'rate-limiter-flexible';
import { AppConfig } from './config/app-config';
import { openDataSource } from './persistence/data-source-options';
import { aggregateWorkerMetrics } from './observability/cluster-metrics';
import { createLogger } from './observability/logger';
import { unsupportedNodeLine } from './config/node-support';

/** A worker that dies sooner than this after its start counts as crash-looping. */
const STABLE_AFTER_MS = 10_000;
const MAX_RESTART_DELAY_MS = 30_000;
/** After forwarding SIGTERM the primary waits this much beyond the workers' own drain timeout. */
const EXIT_GRACE_MS = 5_000;

/**
 * WEB_CONCURRENCY=N (default: one per core in production, 1 otherwise) runs N worker processes
 * sharing the port. The primary warns once on an unsupported Node.js line, migrates the database
 * once, forks, restarts crashed workers and forwards SIGTERM/SIGINT (and SIGHUP when serving TLS); with a single worker the
 * server runs in this process.
 */
export async function runCluster(startWorker: () => Promise<unknown>): Promise<void> {
  if (cluster.isWorker) {
    await startWorker();
    return;
  }
  const config = new AppConfig();
  // Once, here in the primary (or the single process): workers returned above.
  const unsupported = unsupportedNodeLine(process.version);
  if (unsupported) createLogger(config.logLevel).child({ context: 'Runtime' }).warn(unsupported);
  const count = config.workerCount(availableParallelism());
  if (count <= 1) {
    await startWorker();
    return;
  }
  await new Primary(config, count).run();
}

class Primary {
  private readonly log: Logger;
  private stopping = false;
  private crashes = 0;
  /** Live workers by cluster id, with their start time. */
  private readonly startedAt = new Map<number, number>();

  constructor(
    private readonly config: AppConfig,
    private readonly count: number,
  ) {
    this.log = createLogger(config.logLevel).child({ context: 'Cluster' });
  }

  async run(): Promise<void> {
    // A failure here ends the start before any worker exists; main logs why.
    await this.migrate();
    // Without Redis, workers keep their rate-limit and login counters here so they hold per machine.
    if (!this.config.redisUrl) new RateLimiterClusterMaster();
    aggregateWorkerMetrics();
    cluster.on('exit', (worker, code, signal) => this.onExit(worker, code, signal));
    process.on('SIGTERM', () => this.stop('SIGTERM'));
    process.on('SIGINT', () => this.stop('SIGINT'));
    // Each worker serves TLS with its own context: each reloads its certificate and key.
    if (this.config.tls) process.on('SIGHUP', () => this.forward('SIGHUP'));
    for (let i = 0; i < this.count; i++) this.fork();
    this.log.info(`primary ${process.pid} started ${this.count} workers`);
  }

  private async migrate(): Promise<void> {
    if (!this.config.migrationsRun) return;
    const ds = await openDataSource(this.config);
    await ds.initialize();
    try {
      const applied = await ds.runMigrations({ transaction: 'each' });
      this.log.info(`database migrations up to date (${applied.length} applied now)`);
    } finally {
      await ds.destroy();
    }
  }

  private fork(): void {
    // Workers never migrate: the primary did it once, before any of them started.
    const worker = cluster.fork({ MIGRATIONS_RUN: 'false' });
    this.startedAt.set(worker.id, Date.now());
  }

  private onExit(worker: Worker, code: number | null, signal: string | null): void {
    const lived = Date.now() - (this.startedAt.get(worker.id) ?? 0);
    this.startedAt.delete(worker.id);
    if (this.stopping) {
      if (this.startedAt.size === 0) {
        this.log.info('all workers stopped');
        process.exit(0);
      }
      return;
    }
    this.crashes = lived < STABLE_AFTER_MS ? this.crashes + 1 : 0;
    const delay = this.crashes ? Math.min(250 * 2 ** (this.crashes - 1), MAX_RESTART_DELAY_MS) : 0;
    this.log.error(
      `worker ${worker.process.pid} exited (${signal ?? `code ${code}`}); starting a replacement in ${delay} ms`,
    );
    setTimeout(() => {
      if (!this.stopping) this.fork();
    }, delay);
  }

  private forward(signal: NodeJS.Signals): void {
    for (const w of Object.values(cluster.workers ?? {})) w?.process.kill(signal);
  }

  private stop(signal: NodeJS.Signals): void {
    if (this.stopping) return;
    this.stopping = true;
    const workers = Object.values(cluster.workers ?? {}).filter((w): w is Worker => !!w);
    this.log.info(`${signal}: stopping ${workers.length} workers`);
    if (workers.length === 0) process.exit(0);
    // Signal the processes directly: worker.kill() would cut the IPC channel that draining
    // requests still use for rate-limit counters.
    for (const w of workers) w.process.kill('SIGTERM');
    setTimeout(() => {
      for (const w of Object.values(cluster.workers ?? {})) w?.process.kill('SIGKILL');
      this.log.error('workers did not stop in time; killed');
      process.exit(1);
    }, this.config.shutdownTimeoutMs + EXIT_GRACE_MS).unref();
  }
}
