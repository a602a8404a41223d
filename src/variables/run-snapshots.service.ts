import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Secrets } from '../secrets/secrets.service';
import { EffectiveVariablesService, SnapshotEntry } from './effective-variables.service';
import { RunSnapshotsRepository } from './run-snapshots.repository';

/**
 * One variable as a run's jobs receive it (the executor protocol's `JobVariable`; declared from the
 * snapshot here so that this module does not depend on the agent pools).
 */
export type JobVariable = Pick<SnapshotEntry, 'key' | 'value' | 'category' | 'hcl' | 'sensitive'>;

const sealContext = (runId: string) => `run-variable-snapshots/${runId}`;

/**
 * The variables a run's jobs receive: taken when its plan is claimed, stored sealed, and read back
 * for every job of the run, so that a change made between plan and apply does not reach the apply.
 */
@Injectable()
export class RunSnapshotsService {
  constructor(
    private readonly repo: RunSnapshotsRepository,
    private readonly effective: EffectiveVariablesService,
    private readonly secrets: Secrets,
  ) {}

  /**
   * Fixes the run's variables as they are now, in the caller's transaction (the claim of its plan):
   * every variable, set and attachment is read through that transaction, so the snapshot is the
   * one consistent with the claim's commit. A plan claimed anew takes a new one, in place of the
   * one before (one upsert).
   */
  async fix(
    manager: EntityManager,
    ws: { id: string; projectId: string; organizationId: string },
    runId: string,
  ): Promise<JobVariable[]> {
    const entries = await this.effective.snapshot(ws, runId, manager);
    const variables: JobVariable[] = entries.map(({ key, value, category, hcl, sensitive }) => ({
      key,
      value,
      category,
      hcl,
      sensitive,
    }));
    const sealedVariables = this.secrets.seal(JSON.stringify(variables), sealContext(runId));
    await this.repo.put(manager, runId, sealedVariables);
    return variables;
  }

  /** The run's snapshot in clear, for its jobs only; empty when none was taken (or it was dropped). */
  async of(runId: string): Promise<JobVariable[]> {
    const sealed = await this.repo.sealedOf(runId);
    if (sealed === null) return [];
    return JSON.parse(this.secrets.open(sealed, sealContext(runId)).toString('utf8')) as JobVariable[];
  }

  /** Forgets the run's snapshot (the run ended: no job of it will be claimed again). */
  async drop(manager: EntityManager, runId: string): Promise<void> {
    await this.repo.drop(manager, runId);
  }

  async sealedValues(afterId: string, limit: number): Promise<{ id: string; wrapped: string }[]> {
    return this.repo.sealedAfter(afterId, limit);
  }

  replaceSealedValue(manager: EntityManager, runId: string, from: string, to: string): Promise<boolean> {
    return this.repo.replaceSealedValue(manager, runId, from, to);
  }
}
