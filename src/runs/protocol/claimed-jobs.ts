import { Injectable } from '@nestjs/common';
import { RunJobEntity } from '../entities/run-job.entity';

/** Past this many, the oldest go: a job whose executor never reported stays until then. */
const MAX_KEPT = 10_000;

/**
 * The jobs this process handed out, as claimed. What a report needs of its job (the agent that
 * claimed it, its kind, run, phase and evaluation) never changes once the job is claimed, so a
 * report that reaches the process that handed its job out is spared reading the job again. Whether
 * the job still takes the report is never taken from here: the report's compare-and-set on the
 * job's status decides. A report that reaches another process reads the job.
 */
@Injectable()
export class ClaimedJobs {
  private readonly kept = new Map<string, RunJobEntity>();

  private readonly max: number = MAX_KEPT;

  /** `max`: for tests of the bound. */
  static bounded(max: number): ClaimedJobs {
    return Object.assign(new ClaimedJobs(), { max });
  }

  keep(job: RunJobEntity): void {
    if (this.kept.size >= this.max) {
      const oldest = this.kept.keys().next();
      if (!oldest.done) this.kept.delete(oldest.value);
    }
    this.kept.set(job.id, Object.assign(new RunJobEntity(), job));
  }

  /** A copy of the job as it was claimed here, if `agentId` claimed it here. */
  find(id: string, agentId: string): RunJobEntity | undefined {
    const job = this.kept.get(id);
    return job && job.agentId === agentId ? Object.assign(new RunJobEntity(), job) : undefined;
  }

  release(id: string): void {
    this.kept.delete(id);
  }

  get size(): number {
    return this.kept.size;
  }
}
