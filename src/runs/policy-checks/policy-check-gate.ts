import { Injectable, OnModuleInit } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import type { EvaluationSpec } from '../protocol/agent-protocol.types';
import { Clock } from '../../common/clock';
import { notFound } from '../../common/errors/domain-error';
import { newId } from '../../common/ids';
import { AppConfig } from '../../config/app-config';
import { PolicySetParametersService } from '../../policy-sets/policy-set-parameters.service';
import { EffectiveSetNow, PolicySetSnapshots } from '../../policy-sets/policy-set-snapshots';
import type { RunEntity } from '../entities/run.entity';
import {
  CheckStart,
  CheckVerdict,
  EvaluationReport,
  PolicyGate,
  PolicyGateRegistry,
} from '../policy-gate.registry';
import { stamped } from '../run-queue.rows';
import { BlobStore } from '../../storage/blob-store';
import { WorkspacesService } from '../../workspaces/workspaces.service';
import type { WorkspaceQueueState } from '../../workspaces/workspace-locks.service';
import { PolicyCheckEntity } from './entities/policy-check.entity';
import { PolicyEvaluationEntity } from './entities/policy-evaluation.entity';
import { PolicyOutcomeEntity } from './entities/policy-outcome.entity';
import { PolicyEvaluationLinks } from './policy-evaluation-links';
import {
  checkStatusOf,
  checkVerdict,
  countResults,
  evaluationStatus,
  matchResults,
  NO_RESULTS,
  sumCounts,
} from './policy-check-rules';
import { PolicyChecksRepository } from './policy-checks.repository';

/** Where the copies of a check's policy code live; deleting the organization removes them. */
export const policyCheckBlobPrefix = (checkId: string) => `policy-checks/${checkId}`;

/** Why a set is recorded without being evaluated. */
export function skipReason(now: EffectiveSetNow): string | null {
  if (now.versioned) return now.version ? null : 'the policy set has no ready version yet';
  return now.policies.length ? null : 'the policy set has no policies';
}

const stamp = (key: string, at: Date) => stamped('{}', key, at);

/**
 * The policy checks of runs, as the runs module calls them (PolicyGate): the snapshot when a plan
 * finishes, the evaluations' claims and reports, and the end of a check with its run.
 */
@Injectable()
export class PolicyCheckGate implements PolicyGate, OnModuleInit {
  constructor(
    private readonly registry: PolicyGateRegistry,
    private readonly repo: PolicyChecksRepository,
    private readonly snapshots: PolicySetSnapshots,
    private readonly parameters: PolicySetParametersService,
    private readonly workspaces: WorkspacesService,
    private readonly links: PolicyEvaluationLinks,
    private readonly blobs: BlobStore,
    private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  onModuleInit(): void {
    this.registry.register(this);
  }

  async start(manager: EntityManager, run: RunEntity, ws: WorkspaceQueueState): Promise<CheckStart | null> {
    const sets = await this.snapshots.effectiveNow(manager, ws, run.workspaceId);
    if (!sets.length) return null;
    const at = this.clock.now();
    const checkId = newId('polchk');
    const evaluations: PolicyEvaluationEntity[] = [];
    const outcomes: PolicyOutcomeEntity[] = [];
    for (const [position, now] of sets.entries()) {
      const evaluation = this.evaluation(checkId, position, now, at);
      evaluations.push(evaluation);
      if (evaluation.status === 'unreachable' || now.versioned) continue;
      for (const [i, { policy, codeKey }] of now.policies.entries()) {
        outcomes.push(
          Object.assign(new PolicyOutcomeEntity(), {
            id: newId('polout'),
            evaluationId: evaluation.id,
            position: i,
            policyName: policy.name,
            description: policy.description,
            enforcementLevel: policy.enforcementLevel,
            query: policy.query,
            codeKey:
              codeKey && (await this.copyCode(codeKey, `${policyCheckBlobPrefix(checkId)}/${policy.id}`)),
            status: 'pending',
            output: null,
          }),
        );
      }
    }
    const open = evaluations.filter((e) => e.status === 'queued');
    const verdict = open.length ? null : checkVerdict(evaluations.map((e) => ({ ...e, ...NO_RESULTS })));
    const check = Object.assign(new PolicyCheckEntity(), {
      id: checkId,
      runId: run.id,
      organizationId: ws.organizationId,
      workspaceId: run.workspaceId,
      status: verdict ? checkStatusOf(verdict.verdict) : 'queued',
      statusTimestamps: verdict
        ? stamped(stamp('queued-at', at), `${checkStatusOf(verdict.verdict).replace('_', '-')}-at`, at)
        : stamp('queued-at', at),
      ...NO_RESULTS,
      planOnly: run.planOnly,
      overriddenByType: null,
      overriddenById: null,
      overriddenAt: null,
      errorMessage: null,
      finishedAt: verdict ? at : null,
      createdAt: at,
      updatedAt: at,
    });
    await this.repo.insert(manager, check, evaluations, outcomes);
    return { evaluationIds: open.map((e) => e.id), verdict };
  }

  private evaluation(
    checkId: string,
    position: number,
    now: EffectiveSetNow,
    at: Date,
  ): PolicyEvaluationEntity {
    const skipped = skipReason(now);
    return Object.assign(new PolicyEvaluationEntity(), {
      id: newId('poleval'),
      policyCheckId: checkId,
      position,
      outcomeId: newId('psout'),
      policySetId: now.set.id,
      policySetName: now.set.name,
      policySetDescription: now.set.description,
      policyKind: now.set.kind,
      policyToolVersion: now.set.policyToolVersion,
      overridable: now.set.overridable,
      policySetVersionId: now.versioned ? (now.version?.id ?? null) : null,
      bundleKey: now.versioned ? (now.version?.archiveKey ?? null) : null,
      status: skipped ? 'unreachable' : 'queued',
      statusTimestamps: stamp(skipped ? 'unreachable-at' : 'queued-at', at),
      error: skipped,
      ...NO_RESULTS,
      createdAt: at,
      updatedAt: at,
    });
  }

  /** A copy of the policy's code as it is now, so later uploads do not change this check. */
  private async copyCode(from: string, to: string): Promise<string | null> {
    try {
      await this.blobs.put(to, await this.blobs.get(from), { maxBytes: this.config.maxPolicyBytes });
      return to;
    } catch {
      // The code was deleted with its policy a moment ago: evaluated as a policy without code.
      return null;
    }
  }

  async claimed(manager: EntityManager, evaluationId: string, at: Date): Promise<void> {
    const evaluation = await this.repo.findEvaluation(evaluationId, manager);
    if (!evaluation) return;
    await this.repo.updateEvaluation(manager, evaluationId, ['queued'], {
      status: 'running',
      statusTimestamps: stamped(evaluation.statusTimestamps, 'running-at', at),
      updatedAt: at,
    });
  }

  async spec(evaluationId: string, origin: string): Promise<EvaluationSpec> {
    const evaluation = await this.repo.findEvaluation(evaluationId);
    if (!evaluation) throw notFound();
    const [outcomes, parameters] = await Promise.all([
      this.repo.outcomesOf([evaluation.id]),
      this.parameters.forEvaluation(evaluation.policySetId),
    ]);
    return {
      id: evaluation.id,
      'policy-set-id': evaluation.policySetId,
      'policy-set-name': evaluation.policySetName,
      'policy-kind': evaluation.policyKind,
      'policy-tool-version': evaluation.policyToolVersion,
      bundle: evaluation.bundleKey ? this.links.bundle(origin, evaluation.id) : null,
      policies: outcomes.map((o) => ({
        name: o.policyName,
        'enforcement-level': o.enforcementLevel,
        query: o.query,
        code: o.codeKey ? this.links.code(origin, o.id) : null,
      })),
      parameters,
    };
  }

  async report(
    manager: EntityManager,
    evaluationId: string,
    report: EvaluationReport,
    at: Date,
  ): Promise<CheckVerdict | null> {
    const evaluation = await this.repo.findEvaluation(evaluationId, manager);
    if (!evaluation) throw notFound();
    if (report.status === 'errored') {
      await this.repo.updateEvaluation(manager, evaluation.id, ['queued', 'running'], {
        status: 'errored',
        statusTimestamps: stamped(evaluation.statusTimestamps, 'errored-at', at),
        error: report.errorMessage ?? 'the policy engine errored',
        updatedAt: at,
      });
    } else {
      const snapshot = evaluation.bundleKey ? null : await this.repo.outcomesOf([evaluation.id], manager);
      const matched = matchResults(evaluation.policyKind, snapshot, report.results);
      const byName = new Map((snapshot ?? []).map((o) => [o.policyName, o]));
      const rows = matched.map((m, position) =>
        Object.assign(new PolicyOutcomeEntity(), {
          id: byName.get(m.name)?.id ?? newId('polout'),
          evaluationId: evaluation.id,
          position: byName.get(m.name)?.position ?? position,
          policyName: m.name,
          description: byName.get(m.name)?.description ?? null,
          enforcementLevel: m.enforcementLevel,
          query: byName.get(m.name)?.query ?? null,
          codeKey: byName.get(m.name)?.codeKey ?? null,
          status: m.status,
          output: m.output,
        }),
      );
      await this.repo.replaceOutcomes(manager, evaluation.id, rows);
      const counts = countResults(rows, evaluation.overridable);
      const status = evaluationStatus(counts);
      await this.repo.updateEvaluation(manager, evaluation.id, ['queued', 'running'], {
        status,
        statusTimestamps: stamped(evaluation.statusTimestamps, `${status}-at`, at),
        ...counts,
        updatedAt: at,
      });
    }
    return this.conclude(manager, evaluation.policyCheckId, at);
  }

  /** Records the check's verdict once no evaluation is open. */
  private async conclude(manager: EntityManager, checkId: string, at: Date): Promise<CheckVerdict | null> {
    const check = await this.repo.findCheck(checkId, manager);
    const evaluations = await this.repo.evaluationsOf([checkId], manager);
    const verdict = check && checkVerdict(evaluations);
    if (!check || !verdict) return null;
    const status = checkStatusOf(verdict.verdict);
    const moved = await this.repo.updateCheck(manager, check.id, ['queued'], {
      status,
      statusTimestamps: stamped(check.statusTimestamps, `${status.replace('_', '-')}-at`, at),
      ...sumCounts(evaluations),
      errorMessage: verdict.reason,
      finishedAt: at,
      updatedAt: at,
    });
    return moved ? verdict : null;
  }

  checkIdsOf(runIds: string[]): Promise<Map<string, string[]>> {
    return this.repo.checkIdsOfRuns(runIds);
  }

  async abandon(
    manager: EntityManager,
    runId: string,
    how: 'canceled' | 'errored',
    reason: string | null,
    at: Date,
  ): Promise<void> {
    const check = await this.repo.findCheckOfRun(runId, manager);
    if (!check) return;
    for (const evaluation of await this.repo.evaluationsOf([check.id], manager)) {
      await this.repo.updateEvaluation(manager, evaluation.id, ['queued', 'running'], {
        status: how,
        statusTimestamps: stamped(evaluation.statusTimestamps, `${how}-at`, at),
        error: reason,
        updatedAt: at,
      });
    }
    await this.repo.updateCheck(manager, check.id, ['queued'], {
      status: how,
      statusTimestamps: stamped(check.statusTimestamps, `${how}-at`, at),
      errorMessage: reason,
      finishedAt: at,
      updatedAt: at,
    });
  }
}
