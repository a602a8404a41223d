import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Clock, strictlyAfter } from '../common/clock';
import { afterCommit } from '../common/sql/transaction';
import { notFound } from '../common/errors/domain-error';
import { newId } from '../common/ids';
import { WorkspaceLocks, WorkspaceQueueState } from '../workspaces/workspace-locks.service';
import { RunJobEntity } from './entities/run-job.entity';
import { RunPhaseEntity } from './entities/run-phase.entity';
import { RunEntity } from './entities/run.entity';
import { PolicyGateRegistry } from './policy-gate.registry';
import { RunEventsRegistry } from './run-events.registry';
import { RunJobsRepository } from './protocol/run-jobs.repository';
import { JobSignals } from './protocol/job-signals.service';
import {
  AFTER_CANCEL_REQUEST,
  assertRunMove,
  holdsQueue,
  isFinal,
  isPhaseEnded,
  JobKind,
  nextToStart,
  startsAtOnce,
  PHASE_TIMESTAMP_KEYS,
  PhaseKind,
  phaseMovesInto,
  PhaseStatus,
  RunStatus,
  timestampKey,
} from './run-rules';
import {
  JobTaker,
  NewRun,
  newJob,
  newPhase,
  PENDING_PHASE_TIMESTAMPS,
  phasesAfterReport,
  PlanTaker,
  RunEndKnown,
  runLock,
  stamped,
  takenPhase,
} from './run-queue.rows';
import { RunsRepository } from './runs.repository';

/**
 * The per-workspace queue and the state machine's writes. Every method runs inside the caller's
 * transaction and moves rows with compare-and-set updates, so a transition that lost a race
 * changes nothing; the workspace's row lock (WorkspaceLocks.lockForQueue) serialises the
 * decisions about who goes next.
 */
@Injectable()
export class RunQueueService {
  constructor(
    private readonly runs: RunsRepository,
    private readonly jobs: RunJobsRepository,
    private readonly workspaceLocks: WorkspaceLocks,
    private readonly gates: PolicyGateRegistry,
    private readonly clock: Clock,
    private readonly events: RunEventsRegistry,
    private readonly signals: JobSignals,
  ) {}

  /**
   * Inserts a run with its plan and apply; plan-only runs and saved plans start at once, others
   * join the queue. `locked`: the workspace's row as this transaction already locked it. A run that
   * starts at once is inserted as `start` would leave it (`plan_queued`, its plan queued), so its
   * start costs no write of its own; its creation is still told as a pending run's, then its move.
   */
  async enqueue(manager: EntityManager, spec: NewRun, locked?: WorkspaceQueueState): Promise<RunEntity> {
    return (await this.enqueueFor(manager, spec, locked)).run;
  }

  /**
   * `enqueue`; a run that starts at once goes straight to `taker` when there is one (a report that
   * takes the next job, with nothing queued ahead in its scope): it is inserted `planning`, its
   * plan running and its plan's job claimed by the taker, where a claim right after `enqueue` would
   * leave them, and every move is told as if made one after the other. The job, when it was taken.
   */
  async enqueueFor(
    manager: EntityManager,
    spec: NewRun,
    locked?: WorkspaceQueueState,
    taker?: PlanTaker,
  ): Promise<{ run: RunEntity; job: RunJobEntity | null }> {
    const ws = locked ?? (await this.workspaceLocks.lockForQueue(manager, spec.workspaceId));
    if (!ws) throw notFound();
    const now = this.clock.now();
    // Read once, before the insert: this transaction's later reads would see the same rows (its
    // snapshot, under the workspace's row lock) and the run it inserts.
    const { queue, newest } = await this.runs.queueAndNewest(manager, spec.workspaceId);
    const createdAt = strictlyAfter(newest, now);
    const plan = newPhase('plan', createdAt);
    const apply = newPhase('apply', createdAt);
    const run = Object.assign(new RunEntity(), {
      ...spec,
      id: newId('run'),
      status: 'pending',
      statusTimestamps: stamped('{}', 'plan-queueable-at', createdAt),
      planId: plan.id,
      applyId: apply.id,
      hasChanges: false,
      errorMessage: null,
      variableSnapshot: null as string | null,
      canceledAt: null,
      forceCancelAvailableAt: null,
      createdAt,
      updatedAt: createdAt,
    });
    plan.runId = run.id;
    apply.runId = run.id;
    const next = startsAtOnce(run) ? run.id : nextToStart([...queue, run], ws.locked);
    if (next !== run.id) {
      await this.runs.insert(manager, run, [plan, apply]);
      await this.events.emit(manager, run, null, run.createdById);
      // An older pending run the queue had not started yet goes first, as `advance` would start it.
      const older = next ? queue.find((r) => r.id === next) : undefined;
      if (older) await this.start(manager, older, ws);
      return { run, job: null };
    }
    // Each status the run passes through on its way in, as the listeners are told of it.
    const told = [Object.assign(new RunEntity(), run)];
    for (const to of taker ? (['plan_queued', 'planning'] as const) : (['plan_queued'] as const)) {
      assertRunMove(run.status, to);
      run.status = to;
      run.statusTimestamps = stamped(run.statusTimestamps, timestampKey(to), createdAt);
      told.push(Object.assign(new RunEntity(), run));
    }
    Object.assign(
      plan,
      taker
        ? takenPhase(taker, createdAt)
        : {
            status: 'queued',
            statusTimestamps: stamped(PENDING_PHASE_TIMESTAMPS, PHASE_TIMESTAMP_KEYS.queued, createdAt),
            agentPoolId: ws.agentPoolId,
          },
    );
    if (taker) run.variableSnapshot = await taker.sealedVariables(run.id);
    await this.runs.insert(manager, run, [plan, apply]);
    told[told.length - 1] = run;
    for (const [i, state] of told.entries()) {
      await this.events.emit(
        manager,
        state,
        i === 0 ? null : told[i - 1].status,
        i === 0 ? run.createdById : null,
      );
    }
    if (!startsAtOnce(run)) await this.workspaceLocks.lockFor(manager, run.workspaceId, runLock(run));
    const subject = { phaseId: plan.id, evaluationId: null };
    if (!taker) {
      await this.insertJob(manager, run, 'plan', subject, ws);
      return { run, job: null };
    }
    const job = newJob(run, 'plan', subject, ws, this.clock.now(), { taker, at: createdAt });
    await this.jobs.insert(manager, job);
    return { run, job };
  }

  /**
   * Starts the workspace's next pending run if the queue is free. Called after anything that may
   * free it: a run ending, a run created, the workspace unlocked. `locked`: the workspace's row as
   * this transaction already locked it (the lock holds until the commit), else it is locked here.
   * The run it started, as it wrote it, if any.
   */
  async advance(
    manager: EntityManager,
    workspaceId: string,
    locked?: WorkspaceQueueState,
  ): Promise<RunEntity | undefined> {
    const ws = locked ?? (await this.workspaceLocks.lockForQueue(manager, workspaceId));
    if (!ws) return undefined;
    const queue = await this.runs.queue(manager, workspaceId);
    const next = nextToStart(queue, ws.locked);
    const run = next ? queue.find((r) => r.id === next) : undefined;
    if (run) await this.start(manager, run, ws);
    return run;
  }

  /**
   * pending → plan_queued, with its plan job. A run that may apply takes the workspace's lock in
   * the same transaction (the queue let it start because the workspace was unlocked): it holds it
   * until it ends (see `end`), so nobody writes state or unlocks under it. A saved plan takes it
   * only when applied (`applySaved`).
   */
  private async start(manager: EntityManager, run: RunEntity, ws: WorkspaceQueueState): Promise<void> {
    if (!(await this.move(manager, run, 'plan_queued'))) return;
    if (!startsAtOnce(run)) await this.workspaceLocks.lockFor(manager, run.workspaceId, runLock(run));
    await this.queuePhase(manager, run, 'plan', ws);
  }

  /**
   * Applies a saved plan (or a saved plan's checked run): only while the workspace is unlocked
   * and no other run holds its queue, when it takes the lock and queues its apply, as a run at the
   * head of the queue would. False when the workspace is busy or the run moved meanwhile.
   */
  async applySaved(manager: EntityManager, run: RunEntity, by: string | null = null): Promise<boolean> {
    const ws = await this.workspaceLocks.lockForQueue(manager, run.workspaceId);
    if (!ws || ws.locked) return false;
    const queue = await this.runs.queue(manager, run.workspaceId);
    if (queue.some((r) => r.id !== run.id && holdsQueue(r))) return false;
    if (!(await this.move(manager, run, 'apply_queued', { confirmedAt: this.clock.now() }, by))) return false;
    if (!(await this.workspaceLocks.lockFor(manager, run.workspaceId, runLock(run)))) {
      throw new Error(`the workspace ${run.workspaceId} was locked under its row lock`);
    }
    await this.queuePhase(manager, run, 'apply', ws);
    return true;
  }

  /**
   * Moves a run from the status the caller read (`run.status`) to `to`, stamping `to`; false when
   * it moved meanwhile, or when a cancel was accepted meanwhile and `to` is not a way to stop
   * (AFTER_CANCEL_REQUEST). The move itself must be one RUN_TRANSITIONS allows: anything else
   * throws, as a bug.
   */
  move(
    manager: EntityManager,
    run: RunEntity,
    to: RunStatus,
    extra: Partial<RunEntity> = {},
    by: string | null = null,
  ): Promise<boolean> {
    return this.moveAlong(manager, run, [to], extra, by);
  }

  /**
   * `move` through each status of `path` in one write: every step must be a move RUN_TRANSITIONS
   * allows from the one before, each is stamped, and each is told to the listeners in order (the
   * steps before the last with a copy of the run as it stood after them).
   */
  private async moveAlong(
    manager: EntityManager,
    run: RunEntity,
    path: readonly RunStatus[],
    extra: Partial<RunEntity>,
    by: string | null,
  ): Promise<boolean> {
    const at = this.clock.now();
    const steps: { from: RunStatus; statusTimestamps: string }[] = [];
    let from = run.status;
    let statusTimestamps = run.statusTimestamps;
    for (const to of path) {
      assertRunMove(from, to);
      steps.push({
        from,
        statusTimestamps: (statusTimestamps = stamped(statusTimestamps, timestampKey(to), at)),
      });
      from = to;
    }
    const to = from;
    const moved = await this.runs.transition(
      manager,
      run.id,
      run.status,
      !AFTER_CANCEL_REQUEST.includes(to),
      {
        ...extra,
        status: to,
        statusTimestamps,
        updatedAt: at,
      },
    );
    if (!moved) return false;
    Object.assign(run, extra, { updatedAt: at });
    for (const [i, step] of steps.entries()) {
      Object.assign(run, { status: path[i], statusTimestamps: step.statusTimestamps });
      const told = i === steps.length - 1 ? run : Object.assign(new RunEntity(), run);
      await this.events.emit(manager, told, step.from, by);
    }
    return true;
  }

  /**
   * Hands a run's apply straight to `agent` (a plan's report that takes the next job, when nothing
   * waits ahead in the agent's scope): the run moves to `apply_queued` and on to `applying` in one
   * write, its apply from pending to running, and its job is inserted claimed by the agent, which
   * is where `queuePhase` and a claim right after it would leave them, in three writes fewer. The
   * job, or null when the run moved meanwhile.
   */
  async applyTaken(
    manager: EntityManager,
    run: RunEntity,
    extra: Partial<RunEntity>,
    ws: WorkspaceQueueState,
    agent: JobTaker,
  ): Promise<RunJobEntity | null> {
    if (!(await this.moveAlong(manager, run, ['apply_queued', 'applying'], extra, null))) return null;
    const at = this.clock.now();
    const running = await this.runs.transitionPhase(manager, run.applyId, ['pending'], {
      ...takenPhase(agent, at),
      updatedAt: at,
    });
    if (!running) throw notFound();
    const job = newJob(run, 'apply', { phaseId: run.applyId, evaluationId: null }, ws, at, {
      taker: agent,
      at,
    });
    await this.jobs.insert(manager, job);
    return job;
  }

  /**
   * Ends a run (discard, cancel, error, a final report or verdict): `move`, then its open jobs and
   * phases end with it, and the next run of its workspace may start. False when the run moved
   * meanwhile. `known`: what the caller's transaction already knows (RunEndKnown), spared a read.
   */
  async end(
    manager: EntityManager,
    run: RunEntity,
    to: RunStatus,
    extra: Partial<RunEntity> = {},
    by: string | null = null,
    known: RunEndKnown = {},
  ): Promise<boolean> {
    if (!isFinal(to)) throw new Error(`${to} does not end a run`);
    const was = run.status;
    // No job of it will be claimed again: its variables go in the same write.
    if (!(await this.move(manager, run, to, { ...extra, variableSnapshot: null }, by))) return false;
    const at = this.clock.now();
    const { locked, reported } = known;
    if (!reported) await this.jobs.cancelOpen(manager, run.id, at);
    if (was === 'policy_checking') {
      await this.gates
        .get()
        ?.abandon(manager, run.id, to === 'errored' ? 'errored' : 'canceled', extra.errorMessage ?? null, at);
    }
    const phaseStatus = to === 'errored' ? 'errored' : 'canceled';
    const phases = reported
      ? phasesAfterReport(run, reported)
      : await this.runs.findPhases([run.planId, run.applyId], manager);
    // Always in the same order (plan, then apply), so two transactions ending it cannot deadlock.
    phases.sort((a, b) => (a.id === run.planId ? -1 : b.id === run.planId ? 1 : 0));
    for (const phase of phases) {
      // Read without a lock: a phase seen pending may have been queued since, one seen ended has not.
      if (isPhaseEnded(phase.status)) continue;
      await this.movePhase(manager, phase, phaseStatus, { errorMessage: extra.errorMessage ?? null });
    }
    if (!run.planOnly) {
      // Whatever ended it, the run lets go of the workspace (if it still holds it) before the next starts.
      const released = await this.workspaceLocks.release(manager, run.workspaceId, runLock(run));
      // Under the row lock only the release changed the workspace's row as the caller read it.
      await this.advance(
        manager,
        run.workspaceId,
        locked && { ...locked, locked: released ? false : locked.locked },
      );
    }
    return true;
  }

  /**
   * Moves a plan or apply to `to` from any status PHASE_TRANSITIONS lets it leave for `to`,
   * stamping `to` onto the `status-timestamps` it was read with; false when it was elsewhere.
   */
  async movePhase(
    manager: EntityManager,
    phase: Pick<RunPhaseEntity, 'id' | 'statusTimestamps'>,
    to: Exclude<PhaseStatus, 'pending'>,
    extra: Partial<RunPhaseEntity> = {},
  ): Promise<boolean> {
    const at = this.clock.now();
    return this.runs.transitionPhase(manager, phase.id, phaseMovesInto(to), {
      ...extra,
      status: to,
      statusTimestamps: stamped(phase.statusTimestamps, PHASE_TIMESTAMP_KEYS[to], at),
      updatedAt: at,
    });
  }

  /**
   * Queues the plan or apply job of a run, for the workspace's agent pool as it is now (`locked`:
   * the workspace's row as this transaction already locked it).
   */
  async queuePhase(
    manager: EntityManager,
    run: RunEntity,
    kind: PhaseKind,
    locked?: WorkspaceQueueState,
  ): Promise<void> {
    const phaseId = kind === 'plan' ? run.planId : run.applyId;
    const ws = locked ?? (await this.workspaceLocks.lockForQueue(manager, run.workspaceId));
    if (!ws) throw notFound();
    // A pending phase still has the timestamps it was inserted with: nothing stamps it before this.
    const pending = { id: phaseId, statusTimestamps: PENDING_PHASE_TIMESTAMPS };
    const queued = await this.movePhase(manager, pending, 'queued', { agentPoolId: ws.agentPoolId });
    if (!queued && !(await this.runs.findPhase(phaseId, manager))) throw notFound();
    await this.insertJob(manager, run, kind, { phaseId, evaluationId: null }, ws);
  }

  /** Queues the job of one policy evaluation of the run's check, for the workspace's agent pool. */
  async queueEvaluation(manager: EntityManager, run: RunEntity, evaluationId: string): Promise<void> {
    const ws = await this.workspaceLocks.lockForQueue(manager, run.workspaceId);
    if (!ws) throw notFound();
    await this.insertJob(manager, run, 'policy-evaluation', { phaseId: null, evaluationId }, ws);
  }

  private async insertJob(
    manager: EntityManager,
    run: RunEntity,
    kind: JobKind,
    subject: { phaseId: string | null; evaluationId: string | null },
    ws: { organizationId: string; agentPoolId: string | null },
  ): Promise<void> {
    await this.jobs.insert(manager, newJob(run, kind, subject, ws, this.clock.now()));
    // Claims waiting for this scope hear of the job once they can read it.
    const scope = { poolId: ws.agentPoolId, organizationId: ws.organizationId };
    afterCommit(manager, () => this.signals.queued(scope));
  }
}
