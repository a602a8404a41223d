import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, In, ObjectLiteral, Repository, SelectQueryBuilder } from 'typeorm';
import { workspacesGrantedTo } from '../common/auth/grant-subqueries';
import { IdSubquery } from '../common/sql/id-subquery';
import { likeCondition, likePattern } from '../common/sql/like';
import { sorted } from '../common/sql/paginate';
import { offsetOf, PageParams } from '../common/jsonapi/pagination';
import { RowReader } from '../common/sql/row-reader';
import { lockRow } from '../common/sql/transaction';
import { WorkspaceEntity, WorkspaceLockHolder } from './entities/workspace.entity';
import { PageAnchor } from './workspace-list.cache';

/** What the runs module decides a workspace's queue on, read under the workspace's row lock. */
export interface WorkspaceQueueState {
  name: string;
  organizationId: string;
  projectId: string;
  locked: boolean;
  agentPoolId: string | null;
  autoApply: boolean;
  autoApplyRunTrigger: boolean;
}

/** What the state-versions module checks a state write against, read under the workspace's row lock. */
export interface WorkspaceStateGuard {
  organizationId: string;
  holder: WorkspaceLockHolder | null;
  currentStateVersionId: string | null;
  resourceCount: number;
}

export interface WorkspaceListFilter {
  organizationId: string;
  search?: string;
  projectId?: string;
  /** Restrict to workspaces these teams were given access to. */
  teamIds?: string[];
  /** A condition on the row written with `{id}` and `{projectId}` for its columns (tag filters). */
  tagged?: IdSubquery;
}

@Injectable()
export class WorkspacesRepository {
  private readonly rows: RowReader<WorkspaceEntity>;

  constructor(@InjectRepository(WorkspaceEntity) private readonly repo: Repository<WorkspaceEntity>) {
    this.rows = new RowReader(repo.manager.connection, WorkspaceEntity);
  }

  /** Read on nearly every workspace-scoped request: plain SQL (see RowReader). */
  async findById(id: string): Promise<WorkspaceEntity | null> {
    return this.rows.byId(id);
  }

  /** The workspace with exactly this name (MySQL alone would also match other letter cases). */
  async findByName(organizationId: string, name: string): Promise<WorkspaceEntity | null> {
    const ws = await this.repo.findOne({ where: { organizationId, name } });
    return ws?.name === name ? ws : null;
  }

  /** The workspaces that send their jobs to each of these agent pools, one query. */
  async idsByAgentPool(
    poolIds: readonly string[],
    manager: EntityManager = this.repo.manager,
  ): Promise<{ id: string; agentPoolId: string }[]> {
    if (!poolIds.length) return [];
    const rows = await manager.getRepository(WorkspaceEntity).find({
      select: { id: true, agentPoolId: true },
      where: { agentPoolId: In([...poolIds]) },
      order: { id: 'ASC' },
    });
    return rows.map((r) => ({ id: r.id, agentPoolId: r.agentPoolId! }));
  }

  /** Plain SQL (see RowReader): includes of whole pages read these. */
  findByIds(ids: string[]): Promise<WorkspaceEntity[]> {
    return this.rows.byIds(ids);
  }

  /** The number of workspaces the filter matches. */
  count(filter: WorkspaceListFilter): Promise<number> {
    return this.filtered(this.repo.createQueryBuilder('w'), 'w', filter).getCount();
  }

  /**
   * One page in name order. The page's ids are read from the (organization, name) index first and
   * only those rows are fetched, so a deep page walks index entries, not table rows. With an
   * anchor (the first name of a page at a known offset) the walk starts there instead.
   */
  page(
    filter: WorkspaceListFilter,
    offset: number,
    size: number,
    anchor?: PageAnchor,
  ): Promise<WorkspaceEntity[]> {
    return this.repo
      .createQueryBuilder('w')
      .innerJoin(
        (sub) => {
          const ids = this.filtered(sub.select('x.id', 'id').from(WorkspaceEntity, 'x'), 'x', filter);
          if (anchor) ids.andWhere('x.name >= :anchor', { anchor: anchor.name });
          return ids
            .orderBy('x.name', 'ASC')
            .offset(offset - (anchor?.offset ?? 0))
            .limit(size);
        },
        'page',
        'page.id = w.id',
      )
      .orderBy('w.name', 'ASC')
      .getMany();
  }

  /** One page in the order `sort` asked for (see `@Sortable`), `id` last. */
  sortedPage(filter: WorkspaceListFilter, page: PageParams): Promise<WorkspaceEntity[]> {
    const qb = this.filtered(this.repo.createQueryBuilder('w'), 'w', filter);
    return sorted(qb, page).offset(offsetOf(page)).limit(page.size).getMany();
  }

  private filtered<T extends ObjectLiteral>(
    qb: SelectQueryBuilder<T>,
    alias: string,
    filter: WorkspaceListFilter,
  ): SelectQueryBuilder<T> {
    qb.where(`${alias}.organization_id = :org`, { org: filter.organizationId });
    if (filter.search) {
      qb.andWhere(likeCondition(`${alias}.name`, 'search'), { search: likePattern(filter.search) });
    }
    if (filter.projectId) qb.andWhere(`${alias}.project_id = :projectId`, { projectId: filter.projectId });
    if (filter.tagged) {
      const sql = filter.tagged.sql
        .replace(/\{id\}/g, `${alias}.id`)
        .replace(/\{projectId\}/g, `${alias}.project_id`);
      qb.andWhere(sql, filter.tagged.parameters);
    }
    if (filter.teamIds) {
      if (!filter.teamIds.length) qb.andWhere('1 = 0');
      else {
        const granted = workspacesGrantedTo(filter.teamIds);
        qb.andWhere(`${alias}.id IN ${granted.sql}`, granted.parameters);
      }
    }
    return qb;
  }

  /** Workspaces per project, one aggregate query. */
  async countByProject(projectIds: string[]): Promise<Map<string, number>> {
    const counts = new Map<string, number>(projectIds.map((id) => [id, 0]));
    if (!projectIds.length) return counts;
    const rows: { projectId: string; count: string | number }[] = await this.repo.manager
      .createQueryBuilder(WorkspaceEntity, 'w')
      .select('w.project_id', 'projectId')
      .addSelect('COUNT(*)', 'count')
      .where('w.project_id IN (:...projectIds)', { projectIds })
      .groupBy('w.project_id')
      .getRawMany();
    for (const r of rows) counts.set(r.projectId, Number(r.count));
    return counts;
  }

  /** Workspaces pinned to each of `versions` (keys lower-cased), one aggregate query. */
  async countByEngineVersion(versions: string[], manager = this.repo.manager): Promise<Map<string, number>> {
    const counts = new Map<string, number>();
    if (!versions.length) return counts;
    const rows: { version: string; count: string | number }[] = await manager
      .createQueryBuilder(WorkspaceEntity, 'w')
      .select('LOWER(w.engine_version)', 'version')
      .addSelect('COUNT(*)', 'count')
      .where('LOWER(w.engine_version) IN (:...versions)', { versions: versions.map((v) => v.toLowerCase()) })
      .groupBy('LOWER(w.engine_version)')
      .getRawMany();
    for (const r of rows) counts.set(r.version, Number(r.count));
    return counts;
  }

  lock(manager: EntityManager, id: string): Promise<boolean> {
    return lockRow(manager, WorkspaceEntity, id);
  }

  save(manager: EntityManager, ws: WorkspaceEntity): Promise<WorkspaceEntity> {
    return manager.getRepository(WorkspaceEntity).save(ws);
  }

  async delete(manager: EntityManager, id: string): Promise<void> {
    await manager.getRepository(WorkspaceEntity).delete({ id });
  }

  /**
   * The workspace's lock state, read with a row lock held to the end of the transaction: the runs
   * module serialises each workspace's queue on it (SQLite's single writer serialises anyway).
   */
  /** Where the workspace sits (organization and project), read in the caller's transaction without a lock. */
  async scopeIn(
    manager: EntityManager,
    id: string,
  ): Promise<{ id: string; projectId: string; organizationId: string } | null> {
    const ws = await manager.getRepository(WorkspaceEntity).findOne({
      select: { id: true, projectId: true, organizationId: true },
      where: { id },
    });
    return ws ? { id: ws.id, projectId: ws.projectId, organizationId: ws.organizationId } : null;
  }

  async lockForQueue(manager: EntityManager, id: string): Promise<WorkspaceQueueState | null> {
    const mysql = manager.connection.options.type !== 'better-sqlite3';
    const rows: Record<string, unknown>[] = await manager.query(
      'SELECT name, organization_id, project_id, locked, agent_pool_id, auto_apply, auto_apply_run_trigger ' +
        `FROM workspaces WHERE id = ?${mysql ? ' FOR UPDATE' : ''}`,
      [id],
    );
    if (!rows.length) return null;
    const [row] = rows;
    const flag = (v: unknown) => v === true || Number(v) === 1;
    return {
      name: row.name as string,
      organizationId: row.organization_id as string,
      projectId: row.project_id as string,
      locked: flag(row.locked),
      agentPoolId: typeof row.agent_pool_id === 'string' ? row.agent_pool_id : null,
      autoApply: flag(row.auto_apply),
      autoApplyRunTrigger: flag(row.auto_apply_run_trigger),
    };
  }

  /** The lock holder and current state, read with a row lock held to the end of the transaction. */
  async lockForStateWrite(manager: EntityManager, id: string): Promise<WorkspaceStateGuard | null> {
    const mysql = manager.connection.options.type !== 'better-sqlite3';
    const rows: Record<string, unknown>[] = await manager.query(
      'SELECT organization_id, locked, locked_by_type, locked_by_id, current_state_version_id, resource_count ' +
        `FROM workspaces WHERE id = ?${mysql ? ' FOR UPDATE' : ''}`,
      [id],
    );
    if (!rows.length) return null;
    const [row] = rows;
    const locked = row.locked === true || Number(row.locked) === 1;
    return {
      organizationId: row.organization_id as string,
      holder:
        locked && typeof row.locked_by_type === 'string'
          ? { type: row.locked_by_type as WorkspaceLockHolder['type'], id: row.locked_by_id as string }
          : null,
      currentStateVersionId:
        typeof row.current_state_version_id === 'string' ? row.current_state_version_id : null,
      resourceCount: Number(row.resource_count),
    };
  }

  async setCurrentState(
    manager: EntityManager,
    id: string,
    state: { stateVersionId: string; resourceCount: number },
  ): Promise<void> {
    await manager
      .getRepository(WorkspaceEntity)
      .update({ id }, { currentStateVersionId: state.stateVersionId, resourceCount: state.resourceCount });
  }

  /** Sets or clears the lock only if it is in the other state: false when it already was. */
  async setLock(
    manager: EntityManager,
    id: string,
    holder: WorkspaceLockHolder | null,
    at: Date,
  ): Promise<boolean> {
    const result = await manager.getRepository(WorkspaceEntity).update(
      { id, locked: holder === null },
      {
        locked: holder !== null,
        lockedByType: holder?.type ?? null,
        lockedById: holder?.id ?? null,
        updatedAt: at,
      },
    );
    return (result.affected ?? 0) > 0;
  }

  /** Clears the lock only if `holder` holds it: false when someone else (or nobody) does. */
  async releaseLock(
    manager: EntityManager,
    id: string,
    holder: WorkspaceLockHolder,
    at: Date,
  ): Promise<boolean> {
    const result = await manager
      .getRepository(WorkspaceEntity)
      .update(
        { id, locked: true, lockedByType: holder.type, lockedById: holder.id },
        { locked: false, lockedByType: null, lockedById: null, updatedAt: at },
      );
    return (result.affected ?? 0) > 0;
  }

  /** The organization's workspace ids as SQL, optionally only those `granted` reaches. */
  idsOf(organizationId: string, granted?: IdSubquery): IdSubquery {
    const where = granted ? ` AND ow.id IN ${granted.sql}` : '';
    return {
      sql: `(SELECT ow.id FROM workspaces ow WHERE ow.organization_id = :ownerOrganizationId${where})`,
      parameters: { ownerOrganizationId: organizationId, ...granted?.parameters },
    };
  }

  async idsInOrganization(manager: EntityManager, organizationId: string): Promise<string[]> {
    const rows = await manager
      .getRepository(WorkspaceEntity)
      .find({ select: { id: true }, where: { organizationId } });
    return rows.map((r) => r.id);
  }

  async deleteAllInOrganization(manager: EntityManager, organizationId: string): Promise<void> {
    await manager.getRepository(WorkspaceEntity).delete({ organizationId });
  }
}
