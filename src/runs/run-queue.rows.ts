import { newId } from '../common/ids';
import { isoSecondsOffset } from '../common/jsonapi/timestamps';
import { WorkspaceLockHolder, WorkspaceQueueState } from '../workspaces/workspace-locks.service';
import { RunJobEntity } from './entities/run-job.entity';
import { RunPhaseEntity } from './entities/run-phase.entity';
import { RunEntity } from './entities/run.entity';
import { JobKind, PHASE_TIMESTAMP_KEYS, PhaseKind } from './run-rules';
import { RunOptions } from './run-options';

/*
 * The rows the run queue writes, built without the database: a new run's phases, a job (queued or
 * taken at once), a phase taken at once, and the stamps on `status-timestamps`. RunQueueService
 * decides when each is written.
 */

/** What a new run is made of (with how it plans); the queue decides its first status. */
export interface NewRun extends RunOptions {
  workspaceId: string;
  configurationVersionId: string;
  message: string;
  planOnly: boolean;
  autoApply: boolean;
  source: string;
  triggerReason: string;
  createdById: string | null;
  triggeringRunId: string | null;
}

/** The workspace lock a run that may apply holds while it is in progress. */
export const runLock = (run: Pick<RunEntity, 'id'>): WorkspaceLockHolder => ({ type: 'runs', id: run.id });

/** A phase's status timestamps while it is pending: none, until it is queued. */
export const PENDING_PHASE_TIMESTAMPS = '{}';

/** A new run's plan or apply, pending; its run id is set once the run has one. */
export function newPhase(kind: PhaseKind, createdAt: Date): RunPhaseEntity {
  return Object.assign(new RunPhaseEntity(), {
    id: newId(kind),
    runId: '',
    kind,
    status: 'pending',
    statusTimestamps: PENDING_PHASE_TIMESTAMPS,
    hasChanges: null,
    resourceAdditions: 0,
    resourceChanges: 0,
    resourceDestructions: 0,
    resourceImports: 0,
    agentId: null,
    agentPoolId: null,
    errorMessage: null,
    createdAt,
    updatedAt: createdAt,
  });
}

/**
 * What a transaction that ends a run may already know. `locked`: the workspace's row as it locked
 * it. `reported`: the run ends on its executor's report of this phase, whose job was the run's only
 * open one (a run in `planning` or `applying` has no other) and whose phase the report has ended.
 */
export interface RunEndKnown {
  locked?: WorkspaceQueueState;
  reported?: PhaseKind;
}

/**
 * A run's phases that may still need ending once its executor reported `reported`: after a plan's
 * report its apply never left `pending` (with the timestamps it was inserted with); after an
 * apply's, its plan had finished.
 */
export function phasesAfterReport(
  run: RunEntity,
  reported: PhaseKind,
): Pick<RunPhaseEntity, 'id' | 'status' | 'statusTimestamps'>[] {
  return reported === 'plan'
    ? [{ id: run.applyId, status: 'pending', statusTimestamps: PENDING_PHASE_TIMESTAMPS }]
    : [];
}

/** The agent a job is handed to as it is queued (a report that takes the next job). */
export interface JobTaker {
  agentId: string;
  poolId: string;
}

/** The agent a new run's plan is handed to, and how the plan's variables are fixed for the run. */
export interface PlanTaker extends JobTaker {
  /** The run's variables fixed and sealed (RunSnapshotsService.fix), for its row. */
  sealedVariables(runId: string): Promise<string>;
}

/** A pending phase as a job taken at once leaves it: queued and started at `at`, by `taker`. */
export function takenPhase(taker: JobTaker, at: Date) {
  const queued = stamped(PENDING_PHASE_TIMESTAMPS, PHASE_TIMESTAMP_KEYS.queued, at);
  return {
    status: 'running' as const,
    statusTimestamps: stamped(queued, PHASE_TIMESTAMP_KEYS.running, at),
    agentId: taker.agentId,
    agentPoolId: taker.poolId,
  };
}

/** Adds a key to a JSON `status-timestamps` column. */
export function stamped(json: string, key: string, at: Date): string {
  return JSON.stringify({ ...(JSON.parse(json) as Record<string, string>), [key]: isoSecondsOffset(at) });
}

/**
 * A job of the run for the workspace's agent pool, made at `createdAt`: queued, or claimed by
 * `taken.taker` at `taken.at`.
 */
export function newJob(
  run: RunEntity,
  kind: JobKind,
  subject: { phaseId: string | null; evaluationId: string | null },
  ws: { organizationId: string; agentPoolId: string | null },
  createdAt: Date,
  taken?: { taker: JobTaker; at: Date },
): RunJobEntity {
  const claim = taken && {
    status: 'claimed',
    agentId: taken.taker.agentId,
    claimedAt: taken.at,
    heartbeatAt: taken.at,
  };
  return Object.assign(new RunJobEntity(), {
    id: newId('job'),
    ...subject,
    runId: run.id,
    kind,
    status: 'queued',
    organizationId: ws.organizationId,
    agentPoolId: ws.agentPoolId,
    agentId: null,
    claimedAt: null,
    heartbeatAt: null,
    report: null,
    finishedAt: null,
    createdAt,
    ...claim,
  });
}
