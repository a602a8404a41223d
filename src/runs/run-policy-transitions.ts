import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { notFound } from '../common/errors/domain-error';
import { RunEntity } from './entities/run.entity';
import { PolicyGateRegistry } from './policy-gate.registry';
import { RunQueueService } from './run-queue.service';
import { afterPlan, afterPolicyCheck, isFinal, PolicyVerdict } from './run-rules';
import { RunsRepository } from './runs.repository';
import type { WorkspaceQueueState } from '../workspaces/workspace-locks.service';

/** The run's error message when a policy nobody may override failed. */
export const HARD_FAILED_MESSAGE = 'A policy that cannot be overridden failed its check';

/**
 * The run side of policy checks: a successful plan starts the check, the verdict moves the run
 * on, an override releases it. Each method runs in the caller's transaction and moves the run by
 * compare-and-set, so a run that moved meanwhile is left alone (the method answers false).
 */
@Injectable()
export class RunPolicyTransitions {
  constructor(
    private readonly gates: PolicyGateRegistry,
    private readonly queue: RunQueueService,
    private readonly runs: RunsRepository,
  ) {}

  /**
   * After a successful plan: when the workspace has effective policy sets, the run goes to
   * `policy_checking` (not on to `planned` or beyond) and each evaluation gets its job. False when
   * no set applies. `ws`: the run's workspace, as this transaction locked it.
   */
  async startCheck(
    manager: EntityManager,
    run: RunEntity,
    extra: Partial<RunEntity>,
    ws: WorkspaceQueueState,
  ): Promise<boolean> {
    const gate = this.gates.get();
    const started = gate ? await gate.start(manager, run, ws) : null;
    if (!started) return false;
    if (!(await this.queue.move(manager, run, 'policy_checking', extra))) return true;
    for (const evaluationId of started.evaluationIds) {
      await this.queue.queueEvaluation(manager, run, evaluationId);
    }
    if (started.verdict) await this.decide(manager, run, started.verdict.verdict, started.verdict.reason);
    return true;
  }

  /** The check's verdict: on as after a plan, wait for an override, or stop (`reason` says why). */
  async decide(
    manager: EntityManager,
    run: RunEntity,
    verdict: PolicyVerdict,
    reason: string | null = null,
  ): Promise<boolean> {
    const to = afterPolicyCheck(verdict, run);
    if (to === 'errored') {
      const errorMessage =
        verdict === 'blocked'
          ? HARD_FAILED_MESSAGE
          : `The policy check errored: ${reason ?? 'no reason given'}`;
      return this.queue.end(manager, run, 'errored', { errorMessage });
    }
    if (isFinal(to)) return this.queue.end(manager, run, to);
    if (to === 'apply_queued') {
      // Stamped on the way, as the real service shows a checked run that applied on its own.
      if (!(await this.queue.move(manager, run, 'policy_checked'))) return false;
      return this.queueApply(manager, run);
    }
    return this.queue.move(manager, run, to);
  }

  /**
   * `policy_override` → `policy_checked` (→ `apply_queued` with auto-apply); false when the run was
   * elsewhere. `by`: the user who overrode.
   */
  async override(manager: EntityManager, runId: string, by: string | null = null): Promise<boolean> {
    const run = await this.runs.findById(runId, manager);
    if (!run) throw notFound();
    if (run.status !== 'policy_override' || !(await this.queue.move(manager, run, 'policy_checked', {}, by)))
      return false;
    if (afterPlan(run, run.hasChanges, 'policy_checked') === 'apply_queued') {
      await this.queueApply(manager, run, by);
    }
    return true;
  }

  private async queueApply(
    manager: EntityManager,
    run: RunEntity,
    by: string | null = null,
  ): Promise<boolean> {
    if (!(await this.queue.move(manager, run, 'apply_queued', {}, by))) return false;
    await this.queue.queuePhase(manager, run, 'apply');
    return true;
  }
}
