import { WORKSPACE_ACCESS_LEVELS, WorkspaceAccessLevel } from '../common/auth/principal';
import type { ErrorCode } from '../common/errors/domain-error';

/** The real service's run statuses that Plinth's control plane uses. */
export const RUN_STATUSES = [
  'pending',
  'plan_queued',
  'planning',
  'planned',
  'policy_checking',
  'policy_checked',
  'policy_override',
  'policy_soft_failed',
  'planned_and_finished',
  'planned_and_saved',
  'apply_queued',
  'applying',
  'applied',
  'discarded',
  'errored',
  'canceled',
  'force_canceled',
] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

/**
 * The run's state machine, declared once: each status, the statuses that may follow it, and what
 * moves it there. Every compare-and-set of a run's status asserts its move against this table
 * (RunQueueService.move), so an illegal move is a programming error that the tests catch; the
 * diagram in docs/runs.md is drawn from it (run-rules.spec.ts fails when they differ). Which of
 * the legal moves a run makes is decided below: by the actions (`availableActions`), a report
 * (`afterReport`, `afterPlan`) and a policy verdict (`afterPolicyCheck`).
 */
export const RUN_TRANSITIONS: Readonly<Record<RunStatus, Readonly<Partial<Record<RunStatus, string>>>>> = {
  pending: { plan_queued: 'its turn in the queue', canceled: 'cancel' },
  plan_queued: { planning: 'an executor claims the plan', canceled: 'cancel' },
  planning: {
    planned: 'changes to confirm',
    planned_and_finished: 'plan-only, or no changes',
    planned_and_saved: 'a saved plan',
    apply_queued: 'changes, auto-apply',
    policy_checking: 'policy sets apply',
    errored: 'the plan errored, or its executor went quiet',
    canceled: 'the executor stopped after a cancel',
    force_canceled: 'force-cancel',
  },
  planned: { apply_queued: 'apply', discarded: 'discard' },
  policy_checking: {
    policy_checked: 'passed, changes',
    planned_and_finished: 'passed, plan-only or no changes',
    planned_and_saved: 'passed, a saved plan',
    policy_override: 'an overridable failure',
    policy_soft_failed: 'an overridable failure, plan-only',
    errored: 'a failure nobody may override, an engine error, or a quiet executor',
    discarded: 'discard',
    canceled: 'cancel',
  },
  policy_checked: { apply_queued: 'apply, or auto-apply', discarded: 'discard' },
  policy_override: { policy_checked: 'override', discarded: 'discard', canceled: 'cancel' },
  planned_and_saved: { apply_queued: 'apply, while the workspace is free', discarded: 'discard' },
  apply_queued: { applying: 'an executor claims the apply', canceled: 'cancel' },
  applying: {
    applied: 'the apply finished',
    errored: 'the apply errored, or its executor went quiet',
    canceled: 'the executor stopped after a cancel',
    force_canceled: 'force-cancel',
  },
  planned_and_finished: {},
  policy_soft_failed: {},
  applied: {},
  discarded: {},
  errored: {},
  canceled: {},
  force_canceled: {},
};

/**
 * What may follow once a cancel was accepted on a running run (`cancelRequested`): it only stops,
 * `canceled` when its executor reports, `force_canceled`, or `errored` when the executor went quiet.
 * Every other move asks, in the same compare-and-set as the status, that no cancel is pending: a
 * report decided without seeing the cancel cannot land, on any database.
 */
export const AFTER_CANCEL_REQUEST: readonly RunStatus[] = ['canceled', 'force_canceled', 'errored'];

/** Whether the table lets `to` follow `from`. */
export function canMove(from: RunStatus, to: RunStatus): boolean {
  return Object.hasOwn(RUN_TRANSITIONS[from], to);
}

/** The statuses that may follow `from`, in the table's order. */
export function nextStatuses(from: RunStatus): RunStatus[] {
  return Object.keys(RUN_TRANSITIONS[from]) as RunStatus[];
}

/** A move the table does not allow: a bug in the caller, never a race (those fail the compare-and-set). */
export class IllegalTransitionError extends Error {
  constructor(subject: 'run' | 'phase', from: string, to: string) {
    super(`a ${subject} cannot move from ${from} to ${to}`);
    this.name = 'IllegalTransitionError';
  }
}

export function assertRunMove(from: RunStatus, to: RunStatus): void {
  if (!canMove(from, to)) throw new IllegalTransitionError('run', from, to);
}

/** Where a run ends: nothing follows. */
export const FINAL_STATUSES: readonly RunStatus[] = RUN_STATUSES.filter((s) => !nextStatuses(s).length);

/**
 * Statuses in which a run that may apply holds its workspace's queue (a saved plan only from its
 * apply on: see `holdsQueue`).
 */
export const QUEUE_HOLDING_STATUSES: readonly RunStatus[] = [
  'plan_queued',
  'planning',
  'planned',
  'policy_checking',
  'policy_checked',
  'policy_override',
  'apply_queued',
  'applying',
];

/** Where a run waits for someone's decision: apply or discard, after its plan or its policy check. */
const CONFIRMABLE: readonly RunStatus[] = ['planned', 'policy_checked', 'planned_and_saved'];
const DISCARDABLE: readonly RunStatus[] = [
  'planned',
  'policy_checked',
  'policy_checking',
  'policy_override',
  'planned_and_saved',
];
/** Waiting states a cancel ends at once (a policy evaluation changes nothing, so no executor is awaited). */
const CANCEL_ENDS: readonly RunStatus[] = [
  'pending',
  'plan_queued',
  'apply_queued',
  'policy_checking',
  'policy_override',
];

export const PHASE_KINDS = ['plan', 'apply'] as const;
export type PhaseKind = (typeof PHASE_KINDS)[number];

export const PHASE_STATUSES = ['pending', 'queued', 'running', 'finished', 'errored', 'canceled'] as const;
export type PhaseStatus = (typeof PHASE_STATUSES)[number];

/**
 * A plan's or apply's state machine: queued with its job, running once claimed, ended by the
 * executor's report, a timeout, or its run ending. A phase that ended never moves again.
 */
export const PHASE_TRANSITIONS = {
  pending: ['queued'],
  queued: ['running', 'errored', 'canceled'],
  running: ['finished', 'errored', 'canceled'],
  finished: [],
  errored: [],
  canceled: [],
} as const satisfies Record<PhaseStatus, readonly PhaseStatus[]>;

/** The `status-timestamps` key a phase gets when it moves to a status (`running` is `started-at`). */
export const PHASE_TIMESTAMP_KEYS: Record<Exclude<PhaseStatus, 'pending'>, string> = {
  queued: 'queued-at',
  running: 'started-at',
  finished: 'finished-at',
  errored: 'errored-at',
  canceled: 'canceled-at',
};

/** A phase that ended never moves again: no transaction can see it open once one saw it ended. */
export function isPhaseEnded(status: PhaseStatus): boolean {
  return PHASE_TRANSITIONS[status].length === 0;
}

export function canMovePhase(from: PhaseStatus, to: PhaseStatus): boolean {
  return (PHASE_TRANSITIONS[from] as readonly PhaseStatus[]).includes(to);
}

/**
 * The statuses a phase may leave for `to`: the compare-and-set of a phase's move. A phase moves as
 * a consequence of its job's or run's compare-and-set, which already decided the race.
 */
export function phaseMovesInto(to: PhaseStatus): readonly PhaseStatus[] {
  const from = PHASE_STATUSES.filter((s) => canMovePhase(s, to));
  if (!from.length) throw new IllegalTransitionError('phase', 'any status', to);
  return from;
}

/** What an executor job does: a run's plan or apply phase, or one policy evaluation of its check. */
export const JOB_KINDS = ['plan', 'apply', 'policy-evaluation'] as const;
export type JobKind = (typeof JOB_KINDS)[number];

export const JOB_STATUSES = ['queued', 'claimed', 'finished', 'errored', 'canceled'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

export type RunAction = 'apply' | 'discard' | 'cancel' | 'force-cancel';

/** How long after a cancel an operator may force-cancel a run whose executor did not stop. */
export const FORCE_CANCEL_COOL_OFF_MS = 10_000;

export interface RunState {
  status: RunStatus;
  planOnly: boolean;
  /** A cancel was asked for while a phase ran; the run waits for its executor to stop. */
  cancelRequested: boolean;
  forceCancelAvailableAt: Date | null;
}

export function isFinal(status: RunStatus): boolean {
  return FINAL_STATUSES.includes(status);
}

/** The key a status gets in `status-timestamps` (`planned_and_finished` → `planned-and-finished-at`). */
export function timestampKey(status: RunStatus): string {
  return `${status.replace(/_/g, '-')}-at`;
}

/** The `actions` block: what may be done to the run now, whoever asks. */
export function availableActions(run: RunState, now: Date): Record<RunAction, boolean> {
  const running = run.status === 'planning' || run.status === 'applying';
  return {
    apply: CONFIRMABLE.includes(run.status) && !run.planOnly,
    discard: DISCARDABLE.includes(run.status),
    cancel: CANCEL_ENDS.includes(run.status) || (running && !run.cancelRequested),
    'force-cancel':
      running &&
      run.cancelRequested &&
      run.forceCancelAvailableAt !== null &&
      run.forceCancelAvailableAt.getTime() <= now.getTime(),
  };
}

/** When `availableActions` changes by itself (force-cancel becomes available); null: it does not. */
export function actionsChangeAt(run: RunState, now: Date): Date | null {
  const running = run.status === 'planning' || run.status === 'applying';
  const at = run.forceCancelAvailableAt;
  return running && run.cancelRequested && at !== null && at.getTime() > now.getTime() ? at : null;
}

/** The workspace access level each action needs (plans are queued with `plan`). */
export const ACTION_LEVEL: Record<RunAction | 'queue' | 'read', WorkspaceAccessLevel> = {
  read: 'read',
  queue: 'plan',
  apply: 'write',
  discard: 'write',
  cancel: 'write',
  'force-cancel': 'admin',
};

export function levelAllows(level: WorkspaceAccessLevel | null, needed: WorkspaceAccessLevel): boolean {
  return level !== null && WORKSPACE_ACCESS_LEVELS.indexOf(level) >= WORKSPACE_ACCESS_LEVELS.indexOf(needed);
}

/** Why an action is refused in the run's current state (the 409's detail). */
/** The code of each action's refusal (`conflict(refusal(…), REFUSAL_CODES[action])`). */
export const REFUSAL_CODES: Record<RunAction, ErrorCode> = {
  apply: 'RUN_NOT_CONFIRMABLE',
  discard: 'RUN_NOT_DISCARDABLE',
  cancel: 'RUN_NOT_CANCELABLE',
  'force-cancel': 'RUN_NOT_FORCE_CANCELABLE',
};

export function refusal(action: RunAction, status: RunStatus): string {
  switch (action) {
    case 'apply':
      return status === 'planned_and_saved'
        ? 'The saved plan cannot be applied now: another run holds the workspace, or it is locked'
        : `The run cannot be applied: it is ${status}, not paused for confirmation`;
    case 'discard':
      return `The run cannot be discarded: it is ${status}, not paused for confirmation or a policy check`;
    case 'cancel':
      return `The run cannot be canceled: it is ${status}`;
    case 'force-cancel':
      return `The run cannot be force-canceled: it is ${status}, or it was not canceled first, or the cool-off has not passed`;
  }
}

/** What a cancel does: end the run now, or ask its executor to stop and wait for the report. */
export function cancelEffect(status: RunStatus): 'end' | 'request' {
  // Every other state a cancel is allowed in is a wait (CANCEL_ENDS).
  return status === 'planning' || status === 'applying' ? 'request' : 'end';
}

export interface QueuedRun {
  id: string;
  status: RunStatus;
  planOnly: boolean;
  savePlan: boolean;
}

/** Statuses in which a saved plan holds the queue (and the lock): once someone applied it. */
const SAVED_PLAN_HOLDING: readonly RunStatus[] = ['apply_queued', 'applying'];

/**
 * Whether a run holds its workspace's queue (and lock). Plan-only runs never do; saved plans plan
 * at once without either and take both only when applied, as the real service's saved-plan runs.
 */
export function holdsQueue(run: QueuedRun): boolean {
  if (run.planOnly || !QUEUE_HOLDING_STATUSES.includes(run.status)) return false;
  return !run.savePlan || SAVED_PLAN_HOLDING.includes(run.status);
}

/** Runs that start at once, without waiting for the queue or taking the lock: plan-only runs and saved plans. */
export function startsAtOnce(run: { planOnly: boolean; savePlan: boolean }): boolean {
  return run.planOnly || run.savePlan;
}

/**
 * The run to start next in a workspace's queue, if any: the oldest pending run, when the
 * workspace is unlocked and no run holds the queue. `runs` are the workspace's non-final runs in
 * creation order. Plan-only runs and saved plans never wait, so they are never pending.
 */
export function nextToStart(runs: readonly QueuedRun[], locked: boolean): string | null {
  if (locked) return null;
  if (runs.some(holdsQueue)) return null;
  return runs.find((r) => r.status === 'pending')?.id ?? null;
}

/** The executor's report on a finished job, as the protocol's finish body carries it. */
export interface JobReport {
  status: 'finished' | 'errored';
  errorMessage: string | null;
  hasChanges: boolean;
  resourceAdditions: number;
  resourceChanges: number;
  resourceDestructions: number;
  resourceImports: number;
}

/** Where a run goes when its plan or apply job reports. */
/** What decides where a run goes after its plan. */
export interface PlanOutcomeFlags {
  planOnly: boolean;
  autoApply: boolean;
  savePlan: boolean;
  allowEmptyApply: boolean;
}

export function afterReport(
  kind: PhaseKind,
  report: JobReport,
  run: PlanOutcomeFlags & { cancelRequested: boolean },
): RunStatus {
  if (run.cancelRequested) return 'canceled';
  if (report.status === 'errored') return 'errored';
  if (kind === 'apply') return 'applied';
  return afterPlan(run, report.hasChanges, 'planned');
}

/**
 * After a plan, or after a passed (or overridden) policy check: finish (plan-only, or no changes
 * unless an empty apply is allowed), stop as a saved plan (never auto-applied), queue the apply,
 * or wait.
 */
export function afterPlan(
  run: PlanOutcomeFlags,
  hasChanges: boolean,
  waiting: 'planned' | 'policy_checked',
): RunStatus {
  if (run.planOnly || (!hasChanges && !run.allowEmptyApply)) return 'planned_and_finished';
  if (run.savePlan) return 'planned_and_saved';
  return run.autoApply ? 'apply_queued' : waiting;
}

/**
 * How a policy check ended: every failure advisory (`passed`), a failure someone may override
 * (`overridable`), one nobody may (`blocked`), or an evaluation that could not be run (`errored`).
 */
export type PolicyVerdict = 'passed' | 'overridable' | 'blocked' | 'errored';

/**
 * Where a run goes from `policy_checking`. As the real service does: a blocking (hard-mandatory)
 * failure errors the run; an overridable one waits in `policy_override`, except on plan-only
 * runs, which end `policy_soft_failed`; a pass goes on as after a plan.
 */
export function afterPolicyCheck(
  verdict: PolicyVerdict,
  run: PlanOutcomeFlags & { hasChanges: boolean },
): RunStatus {
  switch (verdict) {
    case 'blocked':
    case 'errored':
      return 'errored';
    case 'overridable':
      return run.planOnly ? 'policy_soft_failed' : 'policy_override';
    case 'passed':
      return afterPlan(run, run.hasChanges, 'policy_checked');
  }
}
