import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { IdSubquery } from '../common/sql/id-subquery';
import { paginate, Page } from '../common/sql/paginate';
import { PageParams } from '../common/jsonapi/pagination';
import { RunEntity } from './entities/run.entity';
import { FINAL_STATUSES, RunStatus } from './run-rules';

/** Waiting for an executor to claim their plan or apply. */
export const WAITING_STATUSES: readonly RunStatus[] = ['plan_queued', 'apply_queued'];
/** An executor is working on them. */
export const RUNNING_STATUSES: readonly RunStatus[] = ['planning', 'policy_checking', 'applying'];

/** Reads of an organization's runs across its workspaces (the run queue and its capacity). */
@Injectable()
export class OrganizationRunsRepository {
  constructor(@InjectRepository(RunEntity) private readonly repo: Repository<RunEntity>) {}

  /** Runs that still hold their workspace's queue, oldest first, in the workspaces `workspaceIds` names. */
  queue(workspaceIds: IdSubquery, page: PageParams): Promise<Page<RunEntity>> {
    const qb = this.repo
      .createQueryBuilder('r')
      .where(`r.workspace_id IN ${workspaceIds.sql}`, workspaceIds.parameters)
      .andWhere('r.status NOT IN (:...finalStatuses)', { finalStatuses: [...FINAL_STATUSES] })
      .orderBy('r.created_at', 'ASC')
      .addOrderBy('r.id', 'ASC');
    return paginate(qb, page);
  }

  /**
   * Runs of the workspaces `workspaceIds` names, newest first; `statuses` and `named` (workspace
   * ids) narrow them when given.
   */
  list(
    workspaceIds: IdSubquery,
    filter: { statuses?: RunStatus[]; named?: string[] },
    page: PageParams,
  ): Promise<Page<RunEntity>> {
    const qb = this.repo
      .createQueryBuilder('r')
      .where(`r.workspace_id IN ${workspaceIds.sql}`, workspaceIds.parameters)
      .orderBy('r.created_at', 'DESC')
      .addOrderBy('r.id', 'DESC');
    if (filter.statuses) qb.andWhere('r.status IN (:...statuses)', { statuses: filter.statuses });
    if (filter.named) qb.andWhere('r.workspace_id IN (:...named)', { named: filter.named });
    return paginate(qb, page);
  }

  /** How many runs wait for an executor and how many are being worked on, one query. */
  async capacity(workspaceIds: IdSubquery): Promise<{ pending: number; running: number }> {
    const rows = await this.repo
      .createQueryBuilder('r')
      .select('r.status', 'status')
      .addSelect('COUNT(*)', 'n')
      .where(`r.workspace_id IN ${workspaceIds.sql}`, workspaceIds.parameters)
      .andWhere('r.status IN (:...busy)', { busy: [...WAITING_STATUSES, ...RUNNING_STATUSES] })
      .groupBy('r.status')
      .getRawMany<{ status: RunStatus; n: string | number }>();
    const sum = (statuses: readonly RunStatus[]) =>
      rows.filter((r) => statuses.includes(r.status)).reduce((total, r) => total + Number(r.n), 0);
    return { pending: sum(WAITING_STATUSES), running: sum(RUNNING_STATUSES) };
  }
}
