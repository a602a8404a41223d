import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Clock } from '../common/clock';
import { pruneInBatches } from '../common/sql/batched-prune';
import { inTransaction } from '../common/sql/transaction';
import { AppConfig } from '../config/app-config';
import { BlobStore } from '../storage/blob-store';
import { logKey, phaseFileKey } from './run-links';
import { PlanCursor, RunRetentionRepository } from './run-retention.repository';

/** Rows per statement and objects per step: a step never holds a lock long. */
const PRUNE_CHUNK = 100;
/** The pause between two steps, so that a backlog leaves the API room. */
const PRUNE_PAUSE_MS = 500;
const PRUNE_EVERY_MS = 3_600_000;
/** The first pass waits for start-up to settle. */
const FIRST_PRUNE_AFTER_MS = 60_000;
const DAY_MS = 86_400_000;

const cutoff = (now: Date, days: number) => new Date(now.getTime() - days * DAY_MS);

/**
 * Removes the logs of plans and applies that ended more than RUN_LOG_RETENTION_DAYS ago and the
 * JSON of plans that ended more than PLAN_JSON_RETENTION_DAYS ago (unset: kept for ever), hourly
 * on every process. A log's blob goes before its row: a crash between leaves a row whose blob is
 * gone, which reads as a missing log (run-logs.service.ts) and is found again by the next pass.
 * A plan's JSON is only a blob; the walk over ended plans remembers where it stopped, so a pass
 * looks only at plans that ended since the last one (after a restart, at all of them once).
 */
@Injectable()
export class RunRetentionService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('RunRetention');
  private timer: NodeJS.Timeout | undefined;
  private planCursor: PlanCursor | undefined;
  private running: Promise<unknown> | undefined;

  constructor(
    private readonly repo: RunRetentionRepository,
    private readonly blobs: BlobStore,
    private readonly config: AppConfig,
    private readonly clock: Clock,
    @InjectDataSource() private readonly ds: DataSource,
  ) {}

  onApplicationBootstrap(): void {
    if (this.config.runLogRetentionDays === null && this.config.planJsonRetentionDays === null) return;
    this.timer = setTimeout(() => this.pruneOnSchedule(), FIRST_PRUNE_AFTER_MS).unref();
  }

  async beforeApplicationShutdown(): Promise<void> {
    clearTimeout(this.timer);
    await this.running;
  }

  /** One pass of both, as at `now`; how many logs and plans' JSON it removed. */
  async prune(now = this.clock.now(), pauseMs = PRUNE_PAUSE_MS): Promise<{ logs: number; planJson: number }> {
    return { logs: await this.pruneLogs(now, pauseMs), planJson: await this.prunePlanJson(now, pauseMs) };
  }

  private pruneLogs(now: Date, pauseMs: number): Promise<number> {
    const days = this.config.runLogRetentionDays;
    if (days === null) return Promise.resolve(0);
    const before = cutoff(now, days);
    const step = async () => {
      const old = await this.repo.logsArchivedBefore(before, PRUNE_CHUNK);
      if (!old.length) return { found: 0, removed: 0 };
      for (const { runId, phaseId } of old) await this.blobs.delete(logKey(runId, phaseId));
      const removed = await inTransaction(this.ds, (m) =>
        this.repo.deleteArchivedLogs(
          m,
          old.map((l) => l.phaseId),
        ),
      );
      return { found: old.length, removed };
    };
    return pruneInBatches(step, PRUNE_CHUNK, pauseMs);
  }

  private prunePlanJson(now: Date, pauseMs: number): Promise<number> {
    const days = this.config.planJsonRetentionDays;
    if (days === null) return Promise.resolve(0);
    const before = cutoff(now, days);
    const step = async () => {
      const plans = await this.repo.plansEndedBefore(before, this.planCursor, PRUNE_CHUNK);
      let removed = 0;
      for (const { runId, phaseId } of plans) {
        const key = phaseFileKey(runId, phaseId, 'plan-json');
        if (!(await this.blobs.stat(key))) continue;
        await this.blobs.delete(key);
        removed++;
      }
      if (plans.length) this.planCursor = plans[plans.length - 1].cursor;
      return { found: plans.length, removed };
    };
    return pruneInBatches(step, PRUNE_CHUNK, pauseMs);
  }

  /** A pass still under way (a backlog of millions takes a while) is left to finish. */
  private pruneOnSchedule(): void {
    this.running ??= this.prune()
      .then(
        ({ logs, planJson }) =>
          (logs || planJson) &&
          this.logger.log(`removed ${logs} run logs and ${planJson} plans' JSON past retention`),
        (err: unknown) => this.logger.warn(`could not prune run logs and plan JSON: ${String(err)}`),
      )
      .finally(() => (this.running = undefined));
    this.timer = setTimeout(() => this.pruneOnSchedule(), PRUNE_EVERY_MS).unref();
  }
}
