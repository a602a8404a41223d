import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { workspacesGrantedTo } from '../common/auth/grant-subqueries';
import { IdSubquery } from '../common/sql/id-subquery';
import { likeCondition, likePattern } from '../common/sql/like';
import { offsetOf, PageParams } from '../common/jsonapi/pagination';
import { RowReader } from '../common/sql/row-reader';
import { RowWriter } from '../common/sql/row-writer';
import { countRows, expand, orderOf, SqlConditions, SqlList } from '../common/sql/sql-page';
import { lockRow, writeWith } from '../common/sql/transaction';
import { readRows, readRowsWith } from '../persistence/pool-reads';
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
  /** The state version an executor taking a job of the workspace now starts from. */
  currentStateVersionId: string | null;
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

/**
 * Workspaces in plain SQL throughout (RowReader, RowWriter): the hottest entity, read by id on
 * nearly every workspace-scoped request, in whole pages of includes, and locked by every run's
 * queue and state write.
 */
@Injectable()
export class WorkspacesRepository {
  private readonly rows: RowReader<WorkspaceEntity>;
  private readonly writer: RowWriter<WorkspaceEntity>;

  constructor(@InjectDataSource() private readonly ds: DataSource) {
    this.rows = new RowReader(ds, WorkspaceEntity);
    this.writer = new RowWriter(ds, WorkspaceEntity);
  }

  /** Read on nearly every workspace-scoped request (see RowReader). */
  /** With a transaction's manager: read on its connection. */
  async findById(id: string, manager?: EntityManager): Promise<WorkspaceEntity | null> {
    return this.rows.byId(id, manager);
  }

  /** The workspace with exactly this name (MySQL alone would also match other letter cases). */
  async findByName(organizationId: string, name: string): Promise<WorkspaceEntity | null> {
    const [ws] = await this.rows.many(
      `SELECT ${this.rows.select('w')} FROM workspaces w WHERE w.organization_id = ? AND w.name = ? LIMIT 1`,
      [organizationId, name],
      'w',
    );
    return ws?.name === name ? ws : null;
  }

  /** The workspaces that send their jobs to each of these agent pools, one query. */
  async idsByAgentPool(
    poolIds: readonly string[],
    manager: EntityManager = this.ds.manager,
  ): Promise<{ id: string; agentPoolId: string }[]> {
    if (!poolIds.length) return [];
    const [sql, params] = expand(
      this.ds,
      'SELECT w.id, w.agent_pool_id FROM workspaces w WHERE w.agent_pool_id IN (:...poolIds) ORDER BY w.id ASC',
      { poolIds: [...poolIds] },
    );
    const rows = await readRowsWith<{ id: string; agent_pool_id: string }>(manager, sql, params);
    return rows.map((r) => ({ id: r.id, agentPoolId: r.agent_pool_id }));
  }

  /** Includes of whole pages read these (see RowReader). */
  findByIds(ids: string[]): Promise<WorkspaceEntity[]> {
    return this.rows.byIds(ids);
  }

  /** The number of workspaces the filter matches. */
  count(filter: WorkspaceListFilter): Promise<number> {
    return countRows(this.ds, this.list(filter, 'w'));
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
    const { where } = this.list(filter, 'x');
    if (anchor) where.and('x.name >= :anchor', { anchor: anchor.name });
    const [sql, params] = expand(
      this.ds,
      `SELECT ${this.rows.select('w')} FROM workspaces w
        INNER JOIN (SELECT x.id AS id FROM workspaces x ${where.sql}
                     ORDER BY x.name ASC LIMIT :pageLimit OFFSET :pageOffset) ids ON ids.id = w.id
        ORDER BY w.name ASC`,
      { ...where.parameters, pageLimit: size, pageOffset: offset - (anchor?.offset ?? 0) },
    );
    return this.rows.many(sql, params, 'w');
  }

  /** One page in the order `sort` asked for (see `@Sortable`), `id` last. */
  sortedPage(filter: WorkspaceListFilter, page: PageParams): Promise<WorkspaceEntity[]> {
    const list = this.list(filter, 'w');
    const [sql, params] = expand(
      this.ds,
      `SELECT ${this.rows.select('w')} FROM ${list.from} ${list.where.sql}
        ORDER BY ${orderOf(this.rows, list, page)} LIMIT :pageLimit OFFSET :pageOffset`,
      { ...list.where.parameters, pageLimit: page.size, pageOffset: offsetOf(page) },
    );
    return this.rows.many(sql, params, 'w');
  }

  /** The workspaces `filter` matches, as rows of `workspaces` under `alias`, in name order. */
  private list(filter: WorkspaceListFilter, alias: string): SqlList {
    const where = new SqlConditions().and(`${alias}.organization_id = :org`, { org: filter.organizationId });
    if (filter.search) {
      where.and(likeCondition(`${alias}.name`, 'search'), { search: likePattern(filter.search) });
    }
    if (filter.projectId) where.and(`${alias}.project_id = :projectId`, { projectId: filter.projectId });
    if (filter.tagged) {
      const sql = filter.tagged.sql
        .replace(/\{id\}/g, `${alias}.id`)
        .replace(/\{projectId\}/g, `${alias}.project_id`);
      where.and(sql, filter.tagged.parameters);
    }
    if (filter.teamIds) {
      if (!filter.teamIds.length) where.and('1 = 0');
      else {
        const granted = workspacesGrantedTo(filter.teamIds);
        where.and(`${alias}.id IN ${granted.sql}`, granted.parameters);
      }
    }
    return { from: `workspaces ${alias}`, alias, where, orderBy: `${alias}.name ASC, ${alias}.id ASC` };
  }

  /** Workspaces per project, one aggregate query. */
  async countByProject(projectIds: string[]): Promise<Map<string, number>> {
    const counts = new Map<string, number>(projectIds.map((id) => [id, 0]));
    if (!projectIds.length) return counts;
    const [sql, params] = expand(
      this.ds,
      `SELECT w.project_id AS project_id, COUNT(*) AS n FROM workspaces w
        WHERE w.project_id IN (:...projectIds) GROUP BY w.project_id`,
      { projectIds },
    );
    const rows = await readRows<{ project_id: string; n: unknown }>(this.ds, sql, params);
    for (const r of rows) counts.set(r.project_id, Number(r.n));
    return counts;
  }

  /** Workspaces pinned to each of `versions` (keys lower-cased), one aggregate query. */
  async countByEngineVersion(
    versions: string[],
    manager: EntityManager = this.ds.manager,
  ): Promise<Map<string, number>> {
    const counts = new Map<string, number>();
    if (!versions.length) return counts;
    const [sql, params] = expand(
      this.ds,
      `SELECT LOWER(w.engine_version) AS version, COUNT(*) AS n FROM workspaces w
        WHERE LOWER(w.engine_version) IN (:...versions) GROUP BY LOWER(w.engine_version)`,
      { versions: versions.map((v) => v.toLowerCase()) },
    );
    const rows = await readRowsWith<{ version: string; n: unknown }>(manager, sql, params);
    for (const r of rows) counts.set(r.version, Number(r.n));
    return counts;
  }

  lock(manager: EntityManager, id: string): Promise<boolean> {
    return lockRow(manager, WorkspaceEntity, id);
  }

  /** Inserts a new workspace, filled in completely by the service; a taken name throws the unique violation. */
  async insert(manager: EntityManager, ws: WorkspaceEntity): Promise<void> {
    await this.writer.insert(ws, manager);
  }

  /**
   * Writes what an update of a workspace sets (name, description, engine version, project,
   * execution settings, `updated-at`), without reading it first; its lock and current state are
   * written by their own statements. A taken name throws the unique violation.
   */
  async update(manager: EntityManager, ws: WorkspaceEntity): Promise<void> {
    await this.writer.update(
      {
        name: ws.name,
        description: ws.description,
        engineVersion: ws.engineVersion,
        projectId: ws.projectId,
        executionMode: ws.executionMode,
        agentPoolId: ws.agentPoolId,
        autoApply: ws.autoApply,
        autoApplyRunTrigger: ws.autoApplyRunTrigger,
        updatedAt: ws.updatedAt,
      },
      { id: ws.id },
      manager,
    );
  }

  async delete(manager: EntityManager, id: string): Promise<void> {
    await this.writer.deleteById(id, manager);
  }

  /**
   * The workspace's lock state, read with a row lock held to the end of the transaction: the runs
   * module serialises each workspace's queue on it (SQLite's single writer serialises anyway).
   */
  async lockForQueue(manager: EntityManager, id: string): Promise<WorkspaceQueueState | null> {
    const mysql = manager.connection.options.type !== 'better-sqlite3';
    const rows: Record<string, unknown>[] = await manager.query(
      'SELECT name, organization_id, project_id, locked, agent_pool_id, auto_apply, auto_apply_run_trigger, ' +
        'current_state_version_id ' +
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
      currentStateVersionId:
        typeof row.current_state_version_id === 'string' ? row.current_state_version_id : null,
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
    await this.writer.update(
      { currentStateVersionId: state.stateVersionId, resourceCount: state.resourceCount },
      { id },
      manager,
    );
  }

  /** Sets or clears the lock only if it is in the other state: false when it already was. */
  async setLock(
    manager: EntityManager,
    id: string,
    holder: WorkspaceLockHolder | null,
    at: Date,
  ): Promise<boolean> {
    const changed = await this.writer.update(
      {
        locked: holder !== null,
        lockedByType: holder?.type ?? null,
        lockedById: holder?.id ?? null,
        updatedAt: at,
      },
      { id, locked: holder === null },
      manager,
    );
    return changed > 0;
  }

  /** Clears the lock only if `holder` holds it: false when someone else (or nobody) does. */
  async releaseLock(
    manager: EntityManager,
    id: string,
    holder: WorkspaceLockHolder,
    at: Date,
  ): Promise<boolean> {
    const changed = await this.writer.update(
      { locked: false, lockedByType: null, lockedById: null, updatedAt: at },
      { id, locked: true, lockedByType: holder.type, lockedById: holder.id },
      manager,
    );
    return changed > 0;
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
    const rows = await readRowsWith<{ id: string }>(
      manager,
      'SELECT w.id FROM workspaces w WHERE w.organization_id = ?',
      [organizationId],
    );
    return rows.map((r) => r.id);
  }

  async deleteAllInOrganization(manager: EntityManager, organizationId: string): Promise<void> {
    await writeWith(manager, 'DELETE FROM workspaces WHERE organization_id = ?', [organizationId]);
  }
}
