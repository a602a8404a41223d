import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { PermissionService } from '../../common/auth/permission.service';
import { Principal, principalResource } from '../../common/auth/principal';
import { Clock } from '../../common/clock';
import { conflict, notFound } from '../../common/errors/domain-error';
import { Included, ResourceObject } from '../../common/jsonapi/document';
import { PageParams } from '../../common/jsonapi/pagination';
import { Page } from '../../common/sql/paginate';
import { inTransaction } from '../../common/sql/transaction';
import type { RunEntity } from '../entities/run.entity';
import { stamped } from '../run-queue.rows';
import { RunPolicyTransitions } from '../run-policy-transitions';
import { RunsPresenter } from '../runs.presenter';
import { RunsService } from '../runs.service';
import { WorkspacesService } from '../../workspaces/workspaces.service';
import { PolicyCheckEntity } from './entities/policy-check.entity';
import { PolicyEvaluationEntity } from './entities/policy-evaluation.entity';
import { PolicyOutcomeEntity } from './entities/policy-outcome.entity';
import { PolicyChecksRepository } from './policy-checks.repository';

/** An evaluation with its per-policy rows. */
export interface EvaluationView {
  evaluation: PolicyEvaluationEntity;
  outcomes: PolicyOutcomeEntity[];
}

/** What the policy-check wire shape needs besides the row. */
export interface CheckView {
  check: PolicyCheckEntity;
  /** Overridable now: soft-failed, and its run waits in `policy_override`. */
  overridable: boolean;
  canOverride: boolean;
  evaluations: EvaluationView[];
}

/**
 * Reads of policy checks, evaluations and outcomes (read access to the run), and the override
 * (the organization permission `manage-policy-overrides` as well).
 */
@Injectable()
export class PolicyChecksService {
  constructor(
    private readonly repo: PolicyChecksRepository,
    private readonly runs: RunsService,
    private readonly presenter: RunsPresenter,
    private readonly workspaces: WorkspacesService,
    private readonly transitions: RunPolicyTransitions,
    private readonly permissions: PermissionService,
    private readonly clock: Clock,
    @InjectDataSource() private readonly ds: DataSource,
  ) {}

  async list(p: Principal, runId: string, page: PageParams): Promise<Page<CheckView>> {
    const run = await this.runs.requireReadable(p, runId);
    const result = await this.repo.listChecks(run.id, page);
    return { ...result, items: await this.views(p, result.items, run) };
  }

  async show(p: Principal, id: string): Promise<CheckView> {
    const { check, run } = await this.requireReadable(p, id);
    const [view] = await this.views(p, [check], run);
    return view;
  }

  /** The engine output of every policy, as plain text (the real service's `output` link). */
  async output(p: Principal, id: string): Promise<string> {
    const view = await this.show(p, id);
    const lines: string[] = [];
    for (const { evaluation, outcomes } of view.evaluations) {
      lines.push(`== ${evaluation.policySetName} (${evaluation.policyKind}): ${evaluation.status}`);
      if (evaluation.error) lines.push(evaluation.error);
      for (const o of outcomes) {
        lines.push(`-- ${o.policyName} (${o.enforcementLevel}): ${o.status}`);
        if (o.output) lines.push(o.output.replace(/\n$/, ''));
      }
    }
    return `${lines.join('\n')}\n`;
  }

  /**
   * Overrides a soft-failed check: needs read access to the run (404 otherwise) and the
   * `manage-policy-overrides` permission (404 otherwise, as for any action a caller may not take);
   * 409 unless the check is soft-failed and its run waits in `policy_override`. The run moves on
   * in the same transaction.
   */
  async override(p: Principal, id: string): Promise<CheckView> {
    const { check } = await this.requireReadable(p, id);
    if (!(await this.permissions.hasFlag(p, check.organizationId, 'manage-policy-overrides')))
      throw notFound();
    const by = principalResource(p);
    const done = await inTransaction(this.ds, async (manager) => {
      const at = this.clock.now();
      const moved = await this.repo.updateCheck(manager, check.id, ['soft_failed'], {
        status: 'overridden',
        statusTimestamps: stamped(check.statusTimestamps, 'overridden-at', at),
        overriddenByType: by.type,
        overriddenById: by.id,
        overriddenAt: at,
        updatedAt: at,
      });
      if (!moved) return false;
      // The run decides: it must still wait for the override (not discarded, not plan-only).
      const user = p.kind === 'user' ? p.userId : null;
      if (!(await this.transitions.override(manager, check.runId, user)))
        throw conflict(refusal('soft_failed'));
      for (const evaluation of await this.repo.evaluationsOf([check.id], manager)) {
        await this.repo.updateEvaluation(manager, evaluation.id, ['failed'], {
          status: 'overridden',
          statusTimestamps: stamped(evaluation.statusTimestamps, 'overridden-at', at),
          updatedAt: at,
        });
      }
      return true;
    });
    if (!done) throw conflict(refusal(check.status));
    return this.show(p, id);
  }

  async evaluations(p: Principal, checkId: string, page: PageParams): Promise<Page<EvaluationView>> {
    const { check } = await this.requireReadable(p, checkId);
    const result = await this.repo.listEvaluations(check.id, page);
    return { ...result, items: await this.evaluationViews(result.items) };
  }

  async evaluation(p: Principal, id: string): Promise<EvaluationView> {
    const evaluation = await this.repo.findEvaluation(id);
    if (!evaluation) throw notFound();
    await this.requireReadable(p, evaluation.policyCheckId);
    const [view] = await this.evaluationViews([evaluation]);
    return view;
  }

  async outcome(p: Principal, outcomeId: string): Promise<EvaluationView> {
    const evaluation = await this.repo.findEvaluationByOutcome(outcomeId);
    if (!evaluation) throw notFound();
    return this.evaluation(p, evaluation.id);
  }

  /** `include=run,run.workspace`: the runs of these checks (the caller reads them already). */
  async included(
    p: Principal,
    views: CheckView[],
    includes: readonly string[],
  ): Promise<ResourceObject[] | undefined> {
    if (!includes.length) return undefined;
    const runs = await this.runs.readable(
      p,
      views.map((v) => v.check.runId),
    );
    const out = new Included().add(...(await this.presenter.resources(p, runs)));
    if (includes.includes('run.workspace')) {
      out.add(
        ...(await this.workspaces.readableResources(
          p,
          runs.map((r) => r.workspaceId),
        )),
      );
    }
    return out.toArray();
  }

  private async requireReadable(
    p: Principal,
    id: string,
  ): Promise<{ check: PolicyCheckEntity; run: RunEntity }> {
    const check = await this.repo.findCheck(id);
    if (!check) throw notFound();
    const run = await this.runs.requireReadable(p, check.runId);
    return { check, run };
  }

  private async views(p: Principal, checks: PolicyCheckEntity[], run: RunEntity): Promise<CheckView[]> {
    const [evaluations, canOverride] = await Promise.all([
      this.repo.evaluationsOf(checks.map((c) => c.id)),
      checks.length
        ? this.permissions.hasFlag(p, checks[0].organizationId, 'manage-policy-overrides')
        : Promise.resolve(false),
    ]);
    const views = await this.evaluationViews(evaluations);
    return checks.map((check) => ({
      check,
      overridable: check.status === 'soft_failed' && run.status === 'policy_override',
      canOverride,
      evaluations: views.filter((v) => v.evaluation.policyCheckId === check.id),
    }));
  }

  private async evaluationViews(evaluations: PolicyEvaluationEntity[]): Promise<EvaluationView[]> {
    const outcomes = await this.repo.outcomesOf(evaluations.map((e) => e.id));
    return evaluations.map((evaluation) => ({
      evaluation,
      outcomes: outcomes.filter((o) => o.evaluationId === evaluation.id),
    }));
  }
}

function refusal(status: string): string {
  return `The policy check cannot be overridden: it is ${status}, or its run no longer waits for an override`;
}
