import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, In, Repository } from 'typeorm';
import { PageParams } from '../../common/jsonapi/pagination';
import { Page, paginate } from '../../common/sql/paginate';
import { readRows } from '../../persistence/pool-reads';
import { PolicyCheckEntity } from './entities/policy-check.entity';
import { PolicyEvaluationEntity } from './entities/policy-evaluation.entity';
import { PolicyOutcomeEntity } from './entities/policy-outcome.entity';
import { EvaluationStatus, PolicyCheckStatus } from './policy-check-rules';

@Injectable()
export class PolicyChecksRepository {
  constructor(@InjectRepository(PolicyCheckEntity) private readonly repo: Repository<PolicyCheckEntity>) {}

  private m(manager?: EntityManager): EntityManager {
    return manager ?? this.repo.manager;
  }

  /** The checks of these workspaces' runs (for the files to delete with them), 500 workspaces a query. */
  async idsInWorkspaces(manager: EntityManager, workspaceIds: string[]): Promise<string[]> {
    const ids: string[] = [];
    for (let i = 0; i < workspaceIds.length; i += 500) {
      const rows = await manager
        .getRepository(PolicyCheckEntity)
        .find({ select: { id: true }, where: { workspaceId: In(workspaceIds.slice(i, i + 500)) } });
      ids.push(...rows.map((r) => r.id));
    }
    return ids;
  }

  findCheck(id: string, manager?: EntityManager): Promise<PolicyCheckEntity | null> {
    return this.m(manager).getRepository(PolicyCheckEntity).findOne({ where: { id } });
  }

  findCheckOfRun(runId: string, manager?: EntityManager): Promise<PolicyCheckEntity | null> {
    return this.m(manager).getRepository(PolicyCheckEntity).findOne({ where: { runId } });
  }

  /** The ids of these runs' checks, per run id (oldest first), 500 runs a query. */
  async checkIdsOfRuns(runIds: string[]): Promise<Map<string, string[]>> {
    const byRun = new Map<string, string[]>();
    const unique = [...new Set(runIds)];
    for (let i = 0; i < unique.length; i += 500) {
      const chunk = unique.slice(i, i + 500);
      // Plain SQL: every run shown asks this, and TypeORM's find would build its statement again.
      const rows = await readRows<{ id: string; run_id: string }>(
        this.repo.manager.connection,
        `SELECT id, run_id FROM policy_checks WHERE run_id IN (${chunk.map(() => '?').join(', ')}) ORDER BY created_at, id`,
        chunk,
      );
      for (const row of rows) byRun.set(row.run_id, [...(byRun.get(row.run_id) ?? []), row.id]);
    }
    return byRun;
  }

  /** A run has at most one check; the list shape is the real service's. */
  listChecks(runId: string, page: PageParams): Promise<Page<PolicyCheckEntity>> {
    const qb = this.repo
      .createQueryBuilder('c')
      .where('c.run_id = :runId', { runId })
      .orderBy('c.created_at', 'ASC')
      .addOrderBy('c.id', 'ASC');
    return paginate(qb, page);
  }

  findEvaluation(id: string, manager?: EntityManager): Promise<PolicyEvaluationEntity | null> {
    return this.m(manager).getRepository(PolicyEvaluationEntity).findOne({ where: { id } });
  }

  findOutcome(id: string): Promise<PolicyOutcomeEntity | null> {
    return this.repo.manager.getRepository(PolicyOutcomeEntity).findOne({ where: { id } });
  }

  findEvaluationByOutcome(outcomeId: string): Promise<PolicyEvaluationEntity | null> {
    return this.repo.manager.getRepository(PolicyEvaluationEntity).findOne({ where: { outcomeId } });
  }

  evaluationsOf(checkIds: string[], manager?: EntityManager): Promise<PolicyEvaluationEntity[]> {
    if (!checkIds.length) return Promise.resolve([]);
    return this.m(manager)
      .getRepository(PolicyEvaluationEntity)
      .find({ where: { policyCheckId: In(checkIds) }, order: { position: 'ASC', id: 'ASC' } });
  }

  listEvaluations(checkId: string, page: PageParams): Promise<Page<PolicyEvaluationEntity>> {
    const qb = this.repo.manager
      .getRepository(PolicyEvaluationEntity)
      .createQueryBuilder('e')
      .where('e.policy_check_id = :checkId', { checkId })
      .orderBy('e.position', 'ASC')
      .addOrderBy('e.id', 'ASC');
    return paginate(qb, page);
  }

  outcomesOf(evaluationIds: string[], manager?: EntityManager): Promise<PolicyOutcomeEntity[]> {
    if (!evaluationIds.length) return Promise.resolve([]);
    return this.m(manager)
      .getRepository(PolicyOutcomeEntity)
      .find({ where: { evaluationId: In(evaluationIds) }, order: { position: 'ASC', id: 'ASC' } });
  }

  async insert(
    manager: EntityManager,
    check: PolicyCheckEntity,
    evaluations: PolicyEvaluationEntity[],
    outcomes: PolicyOutcomeEntity[],
  ): Promise<void> {
    // Copies: after a multi-row insert TypeORM writes what it reads back (defaults, keys) into the
    // objects it was given, and on SQLite it can pair them with the wrong rows.
    await manager.getRepository(PolicyCheckEntity).insert({ ...check });
    if (evaluations.length) {
      await manager.getRepository(PolicyEvaluationEntity).insert(evaluations.map((e) => ({ ...e })));
    }
    if (outcomes.length)
      await manager.getRepository(PolicyOutcomeEntity).insert(outcomes.map((o) => ({ ...o })));
  }

  /** Compare-and-set on the check's status. */
  async updateCheck(
    manager: EntityManager,
    id: string,
    from: readonly PolicyCheckStatus[],
    changes: Partial<PolicyCheckEntity>,
  ): Promise<boolean> {
    const result = await manager
      .getRepository(PolicyCheckEntity)
      .update({ id, status: In([...from]) }, changes);
    return (result.affected ?? 0) > 0;
  }

  /** Compare-and-set on the evaluation's status. */
  async updateEvaluation(
    manager: EntityManager,
    id: string,
    from: readonly EvaluationStatus[],
    changes: Partial<PolicyEvaluationEntity>,
  ): Promise<boolean> {
    const result = await manager
      .getRepository(PolicyEvaluationEntity)
      .update({ id, status: In([...from]) }, changes);
    return (result.affected ?? 0) > 0;
  }

  /** Replaces an evaluation's per-policy rows with the reported ones. */
  async replaceOutcomes(
    manager: EntityManager,
    evaluationId: string,
    outcomes: PolicyOutcomeEntity[],
  ): Promise<void> {
    await manager.getRepository(PolicyOutcomeEntity).delete({ evaluationId });
    if (outcomes.length)
      await manager.getRepository(PolicyOutcomeEntity).insert(outcomes.map((o) => ({ ...o })));
  }
}
