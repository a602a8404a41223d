import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, MoreThan, Repository } from 'typeorm';
import { Secrets } from '../secrets/secrets.service';
import { EffectiveVariablesService, SnapshotEntry } from './effective-variables.service';
import { RunVariableSnapshotEntity } from './entities/run-variable-snapshot.entity';
import { replaceSealed } from '../common/sql/transaction';

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
    @InjectRepository(RunVariableSnapshotEntity) private readonly repo: Repository<RunVariableSnapshotEntity>,
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
    await manager
      .getRepository(RunVariableSnapshotEntity)
      .upsert({ runId, sealedVariables }, { conflictPaths: ['runId'], skipUpdateIfNoValuesChanged: false });
    return variables;
  }

  /** The run's snapshot in clear, for its jobs only; empty when none was taken (or it was dropped). */
  async of(runId: string): Promise<JobVariable[]> {
    const row = await this.repo.findOne({ where: { runId } });
    if (!row) return [];
    return JSON.parse(
      this.secrets.open(row.sealedVariables, sealContext(runId)).toString('utf8'),
    ) as JobVariable[];
  }

  /** Forgets the run's snapshot (the run ended: no job of it will be claimed again). */
  async drop(manager: EntityManager, runId: string): Promise<void> {
    await manager.getRepository(RunVariableSnapshotEntity).delete({ runId });
  }

  async sealedValues(afterId: string, limit: number): Promise<{ id: string; wrapped: string }[]> {
    const rows = await this.repo.find({
      select: { runId: true, sealedVariables: true },
      where: { runId: MoreThan(afterId) },
      order: { runId: 'ASC' },
      take: limit,
    });
    return rows.map((r) => ({ id: r.runId, wrapped: r.sealedVariables }));
  }

  replaceSealedValue(manager: EntityManager, runId: string, from: string, to: string): Promise<boolean> {
    return replaceSealed(manager, RunVariableSnapshotEntity, { runId }, 'sealedVariables', from, to);
  }
}
