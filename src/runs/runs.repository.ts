import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, In, Not, Repository } from 'typeorm';
import { paginate, Page } from '../common/sql/paginate';
import { PageParams } from '../common/jsonapi/pagination';
import { RunPhaseEntity } from './entities/run-phase.entity';
import { RunTriggerOutcomeEntity } from './entities/run-trigger-outcome.entity';
import { RunEntity } from './entities/run.entity';
import { FINAL_STATUSES, PhaseStatus, RunStatus } from './run-rules';

@Injectable()
export class RunsRepository {
  constructor(@InjectRepository(RunEntity) private readonly repo: Repository<RunEntity>) {}

  findById(id: string, manager?: EntityManager): Promise<RunEntity | null> {
    return (manager ?? this.repo.manager).getRepository(RunEntity).findOne({ where: { id } });
  }

  findByIds(ids: string[]): Promise<RunEntity[]> {
    return ids.length ? this.repo.find({ where: { id: In([...new Set(ids)]) } }) : Promise.resolve([]);
  }

  /** The ids of every run of these workspaces, for the removal of their files. */
  async idsInWorkspaces(manager: EntityManager, workspaceIds: string[]): Promise<string[]> {
    const ids: string[] = [];
    for (let i = 0; i < workspaceIds.length; i += 500) {
      const rows = await manager
        .getRepository(RunEntity)
        .find({ select: { id: true }, where: { workspaceId: In(workspaceIds.slice(i, i + 500)) } });
      ids.push(...rows.map((r) => r.id));
    }
    return ids;
  }

  /** Newest first, optionally only some statuses. */
  list(workspaceId: string, statuses: RunStatus[] | undefined, page: PageParams): Promise<Page<RunEntity>> {
    const qb = this.repo
      .createQueryBuilder('r')
      .where('r.workspace_id = :workspaceId', { workspaceId })
      .orderBy('r.created_at', 'DESC')
      .addOrderBy('r.id', 'DESC');
    if (statuses) qb.andWhere('r.status IN (:...statuses)', { statuses });
    return paginate(qb, page);
  }

  /** The workspace's runs that are not final, oldest first: its queue. */
  queue(manager: EntityManager, workspaceId: string): Promise<RunEntity[]> {
    return manager.getRepository(RunEntity).find({
      where: { workspaceId, status: Not(In([...FINAL_STATUSES])) },
      order: { createdAt: 'ASC', id: 'ASC' },
    });
  }

  async latestCreatedAt(manager: EntityManager, workspaceId: string): Promise<Date | null> {
    const newest = await manager
      .getRepository(RunEntity)
      .findOne({ where: { workspaceId }, order: { createdAt: 'DESC' } });
    return newest?.createdAt ?? null;
  }

  async insert(manager: EntityManager, run: RunEntity, phases: RunPhaseEntity[]): Promise<void> {
    await manager.getRepository(RunEntity).insert(run);
    await manager.getRepository(RunPhaseEntity).insert(phases);
  }

  /** Compare-and-set on the run's status: false when it is no longer in one of `from`. */
  async transition(
    manager: EntityManager,
    id: string,
    from: readonly RunStatus[],
    changes: Partial<RunEntity>,
  ): Promise<boolean> {
    const result = await manager.getRepository(RunEntity).update({ id, status: In([...from]) }, changes);
    return (result.affected ?? 0) > 0;
  }

  /** Marks a cancel request on a running run; false when it was asked already or the run moved on. */
  async requestCancel(
    manager: EntityManager,
    id: string,
    status: RunStatus,
    at: Date,
    forceAt: Date,
  ): Promise<boolean> {
    const result = await manager
      .createQueryBuilder()
      .update(RunEntity)
      .set({ canceledAt: at, forceCancelAvailableAt: forceAt, updatedAt: at })
      .where('id = :id AND status = :status AND canceled_at IS NULL', { id, status })
      .execute();
    return (result.affected ?? 0) > 0;
  }

  findPhase(id: string, manager?: EntityManager): Promise<RunPhaseEntity | null> {
    return (manager ?? this.repo.manager).getRepository(RunPhaseEntity).findOne({ where: { id } });
  }

  findPhases(ids: string[]): Promise<RunPhaseEntity[]> {
    return ids.length
      ? this.repo.manager.getRepository(RunPhaseEntity).find({ where: { id: In([...new Set(ids)]) } })
      : Promise.resolve([]);
  }

  async updatePhase(
    manager: EntityManager,
    id: string,
    from: readonly PhaseStatus[],
    changes: Partial<RunPhaseEntity>,
  ): Promise<boolean> {
    const result = await manager.getRepository(RunPhaseEntity).update({ id, status: In([...from]) }, changes);
    return (result.affected ?? 0) > 0;
  }

  insertOutcome(manager: EntityManager, outcome: RunTriggerOutcomeEntity): Promise<unknown> {
    return manager.getRepository(RunTriggerOutcomeEntity).insert(outcome);
  }

  /** What the run triggers did for these source runs, oldest first. */
  outcomesOf(sourceRunIds: string[]): Promise<RunTriggerOutcomeEntity[]> {
    return sourceRunIds.length
      ? this.repo.manager.getRepository(RunTriggerOutcomeEntity).find({
          where: { sourceRunId: In([...new Set(sourceRunIds)]) },
          order: { createdAt: 'ASC', id: 'ASC' },
        })
      : Promise.resolve([]);
  }
}
