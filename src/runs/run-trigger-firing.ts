import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Clock } from '../common/clock';
import { newId } from '../common/ids';
import { RunTriggersService } from '../run-triggers/run-triggers.service';
import { WorkspaceLocks, WorkspaceQueueState } from '../workspaces/workspace-locks.service';
import { ConfigurationVersionsRepository } from './configuration-versions.repository';
import { RunTriggerOutcomeEntity } from './entities/run-trigger-outcome.entity';
import { RunEntity } from './entities/run.entity';
import { DEFAULT_RUN_OPTIONS } from './run-options';
import { JobClaims, NextJob } from './protocol/job-claims';
import { NewRun } from './run-queue.rows';
import { RunQueueService } from './run-queue.service';
import { RunsRepository } from './runs.repository';

export const RUN_TRIGGER_SOURCE = 'tfe-run-trigger';
export const RUN_TRIGGER_REASON = 'run-trigger';

/**
 * What an applied run sets off: one run in each destination of its workspace's outbound run
 * triggers, in the transaction that records the apply. Each (trigger, source run) gets one
 * outcome row under a unique key, so however the report is repeated, a destination gets one run.
 */
@Injectable()
export class RunTriggerFiring {
  constructor(
    private readonly triggers: RunTriggersService,
    private readonly workspaceLocks: WorkspaceLocks,
    private readonly cvs: ConfigurationVersionsRepository,
    private readonly runs: RunsRepository,
    private readonly queue: RunQueueService,
    private readonly claims: JobClaims,
    private readonly clock: Clock,
  ) {}

  /**
   * `sourceWs`: the source workspace's row as the transaction locked it (null: deleted). `next`:
   * the report that applied the run takes the next job, and may take a run queued here at once
   * (JobClaims.enqueueTo).
   */
  async fire(
    manager: EntityManager,
    source: RunEntity,
    sourceWs: WorkspaceQueueState | null,
    next?: NextJob,
  ): Promise<void> {
    if (!sourceWs) return;
    const destinations = await this.triggers.destinationsOf(manager, source.workspaceId);
    if (!destinations.length) return;
    for (const { triggerId, workspaceId } of destinations) {
      const outcome: RunTriggerOutcomeEntity = Object.assign(new RunTriggerOutcomeEntity(), {
        id: newId('rtout'),
        runTriggerId: triggerId,
        sourceRunId: source.id,
        workspaceId,
        runId: null as string | null,
        reason: null as string | null,
        createdAt: this.clock.now(),
      });
      const cv = await this.cvs.newestUploaded(manager, workspaceId);
      if (!cv) {
        outcome.reason = 'The workspace has no uploaded configuration version: no run was queued';
      } else {
        const destination = await this.workspaceLocks.lockForQueue(manager, workspaceId);
        if (!destination) continue;
        const spec: NewRun = {
          workspaceId,
          configurationVersionId: cv.id,
          message: `Queued by a run trigger: run ${source.id} applied in workspace ${sourceWs.name}`,
          ...DEFAULT_RUN_OPTIONS,
          planOnly: cv.speculative,
          autoApply: destination.autoApplyRunTrigger,
          source: RUN_TRIGGER_SOURCE,
          triggerReason: RUN_TRIGGER_REASON,
          createdById: source.createdById,
          triggeringRunId: source.id,
        };
        const run = next
          ? await this.claims.enqueueTo(manager, next, spec, destination)
          : await this.queue.enqueue(manager, spec, destination);
        outcome.runId = run.id;
      }
      await this.runs.insertOutcome(manager, outcome);
    }
  }
}
