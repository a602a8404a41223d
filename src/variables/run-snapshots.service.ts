import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Secrets } from '../secrets/secrets.service';
import { EffectiveVariablesService, SnapshotEntry } from './effective-variables.service';

/**
 * One variable as a run's jobs receive it (the executor protocol's `JobVariable`; declared from the
 * snapshot here so that this module does not depend on the agent pools).
 */
export type JobVariable = Pick<SnapshotEntry, 'key' | 'value' | 'category' | 'hcl' | 'sensitive'>;

const sealContext = (runId: string) => `run-variable-snapshots/${runId}`;

/** A run's variables as fixed for its jobs, and sealed for its row (RunEntity.variableSnapshot). */
export interface FixedVariables {
  variables: JobVariable[];
  sealed: string;
}

/**
 * The variables a run's jobs receive: taken when its plan is claimed, sealed, and kept with the
 * run (the runs module stores the sealed text in the run's row), so that every job of the run
 * receives the same and a change made between plan and apply does not reach the apply.
 */
@Injectable()
export class RunSnapshotsService {
  constructor(
    private readonly effective: EffectiveVariablesService,
    private readonly secrets: Secrets,
  ) {}

  /**
   * The run's variables as they are now, read in the caller's transaction (the claim of its plan):
   * every variable, set and attachment is read through that transaction, so the snapshot is the
   * one consistent with the claim's commit. `sealed` goes into the run's row in the same
   * transaction; a plan claimed anew takes a new one, in place of the one before.
   */
  async fix(
    manager: EntityManager,
    ws: { id: string; projectId: string; organizationId: string },
    runId: string,
  ): Promise<FixedVariables> {
    const entries = await this.effective.snapshot(ws, runId, manager);
    const variables: JobVariable[] = entries.map(({ key, value, category, hcl, sensitive }) => ({
      key,
      value,
      category,
      hcl,
      sensitive,
    }));
    return { variables, sealed: this.secrets.seal(JSON.stringify(variables), sealContext(runId)) };
  }

  /**
   * The run's snapshot in clear, for its jobs only; empty when none was taken (or it was dropped).
   * `sealed` undefined: the run was read without its snapshot (a bug in the caller's read, not an
   * empty snapshot), refused rather than answered with no variables.
   */
  open(runId: string, sealed: string | null | undefined): JobVariable[] {
    if (sealed === undefined) throw new Error(`run ${runId} was read without its variable snapshot`);
    if (sealed === null) return [];
    return JSON.parse(this.secrets.open(sealed, sealContext(runId)).toString('utf8')) as JobVariable[];
  }
}
