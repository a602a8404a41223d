import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import type { EvaluationSpec, PolicyResult } from './protocol/agent-protocol.types';
import type { RunEntity } from './entities/run.entity';
import type { PolicyVerdict } from './run-rules';
import type { WorkspaceQueueState } from '../workspaces/workspace-locks.service';

/** A finished check's verdict, and why when it errored. */
export interface CheckVerdict {
  verdict: PolicyVerdict;
  reason: string | null;
}

/** What starting a run's policy check leaves to do: jobs to queue, or the verdict already. */
export interface CheckStart {
  /** Evaluations an executor must run (one job each). */
  evaluationIds: string[];
  /** Known at once when no evaluation needs an executor (every set skipped). */
  verdict: CheckVerdict | null;
}

/** An executor's report on one policy evaluation. */
export interface EvaluationReport {
  status: 'finished' | 'errored';
  errorMessage: string | null;
  results: PolicyResult[];
}

/**
 * The policy checks of runs, as the runs module sees them. The policy-checks module sits above
 * runs (it reads policy sets and moves runs through RunPolicyTransitions), so it registers its
 * gate here at start-up instead of being imported. Every method runs in the caller's transaction.
 */
export interface PolicyGate {
  /**
   * In the transaction that records a successful plan: records a check with a snapshot of the
   * workspace's effective policy sets. Null when none apply (the run goes on as before). `ws`:
   * the run's workspace, as the transaction locked it.
   */
  start(manager: EntityManager, run: RunEntity, ws: WorkspaceQueueState): Promise<CheckStart | null>;
  /** An executor claimed the evaluation's job. */
  claimed(manager: EntityManager, evaluationId: string, at: Date): Promise<void>;
  /** What the claimed job carries about its evaluation; links are signed against `origin`. */
  spec(evaluationId: string, origin: string): Promise<EvaluationSpec>;
  /**
   * Records an executor's report (422 when it does not fit the snapshot). The check's verdict once
   * every evaluation has reported; null while others still run.
   */
  report(
    manager: EntityManager,
    evaluationId: string,
    report: EvaluationReport,
    at: Date,
  ): Promise<CheckVerdict | null>;
  /** The ids of these runs' policy checks, per run id (runs without a check are left out). */
  checkIdsOf(runIds: string[]): Promise<Map<string, string[]>>;
  /** The run ended during its check (canceled, discarded, errored): the check ends with it. */
  abandon(
    manager: EntityManager,
    runId: string,
    how: 'canceled' | 'errored',
    reason: string | null,
    at: Date,
  ): Promise<void>;
}

/** Holds the gate the policy-checks module registers; without one, no run is checked. */
@Injectable()
export class PolicyGateRegistry {
  private gate: PolicyGate | null = null;

  register(gate: PolicyGate): void {
    this.gate = gate;
  }

  get(): PolicyGate | null {
    return this.gate;
  }
}
