import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Clock } from '../common/clock';
import { inTransaction } from '../common/sql/transaction';
import { AppConfig } from '../config/app-config';
import { RunJobsRepository } from './protocol/run-jobs.repository';
import { RunQueueService } from './run-queue.service';
import { canMove } from './run-rules';
import { RunsRepository } from './runs.repository';

/** Jobs errored per sweep at most; the next sweep takes the rest. */
const BATCH = 100;

/**
 * Errors claimed jobs whose executor stopped heartbeating for EXECUTOR_TIMEOUT seconds, and their
 * runs. Not re-queued: an apply may have half-run, and only the operator can tell. Every node
 * sweeps; the compare-and-set on the job (still claimed, still quiet) lets one node win each job.
 */
@Injectable()
export class RunTimeoutsService implements OnApplicationBootstrap, OnApplicationShutdown {
  private timer?: NodeJS.Timeout;
  private sweeping = false;
  private readonly logger = new Logger('RunTimeouts');

  constructor(
    private readonly jobs: RunJobsRepository,
    private readonly runs: RunsRepository,
    private readonly queue: RunQueueService,
    private readonly config: AppConfig,
    private readonly clock: Clock,
    @InjectDataSource() private readonly ds: DataSource,
  ) {}

  onApplicationBootstrap(): void {
    // A tenth of the timeout, between 1 and 30 s: a quiet job is errored within 110 % of the timeout.
    const everyMs = Math.min(30_000, Math.max(1_000, this.config.executorTimeoutSeconds * 100));
    this.timer = setInterval(() => void this.tick(), everyMs);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    if (this.timer) clearInterval(this.timer);
  }

  private async tick(): Promise<void> {
    if (this.sweeping) return;
    this.sweeping = true;
    try {
      await this.sweep();
    } catch (err) {
      this.logger.warn(`executor timeout sweep failed: ${String(err)}`);
    } finally {
      this.sweeping = false;
    }
  }

  /** Errors the jobs gone quiet and their runs; returns how many this node took. */
  async sweep(): Promise<number> {
    const seconds = this.config.executorTimeoutSeconds;
    const cutoff = new Date(this.clock.now().getTime() - seconds * 1000);
    const reason = `the executor stopped reporting for ${seconds} s`;
    let taken = 0;
    for (const stale of await this.jobs.stale(cutoff, BATCH)) {
      const won = await inTransaction(this.ds, async (manager) => {
        const at = this.clock.now();
        if (!(await this.jobs.timeOut(manager, stale.id, cutoff, at))) return false;
        const phase = stale.phaseId ? await this.runs.findPhase(stale.phaseId, manager) : null;
        if (phase) await this.queue.movePhase(manager, phase, 'errored', { errorMessage: reason });
        const run = await this.runs.findById(stale.runId, manager);
        // A claimed job's run is planning, applying or policy checking (its evaluations).
        if (run && canMove(run.status, 'errored')) {
          await this.queue.end(manager, run, 'errored', {
            errorMessage:
              stale.kind === 'policy-evaluation' ? `${reason} while it evaluated policies` : reason,
          });
        }
        return true;
      });
      if (won) taken += 1;
    }
    return taken;
  }
}
