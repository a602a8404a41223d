import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { Page } from '../common/sql/paginate';
import { RowReader } from '../common/sql/row-reader';
import { RowMatch, RowWriter } from '../common/sql/row-writer';
import { expand, paginateRows, SqlConditions } from '../common/sql/sql-page';
import { replaceSealed } from '../common/sql/transaction';
import { readRows, readRowsWith } from '../persistence/pool-reads';
import { PageParams } from '../common/jsonapi/pagination';
import { RunPhaseEntity } from './entities/run-phase.entity';
import { RunTriggerOutcomeEntity } from './entities/run-trigger-outcome.entity';
import { RunEntity } from './entities/run.entity';
import { FINAL_STATUSES, isFinal, PhaseStatus, RunStatus } from './run-rules';

/**
 * When a run became its workspace's current run: as it left the queue (its creation orders that), or
 * for a saved plan when someone applied it (null before: not current).
 */
const CURRENT_SINCE = (alias: string) =>
  `(CASE WHEN ${alias}.save_plan = 0 THEN ${alias}.created_at ELSE ${alias}.confirmed_at END)`;

/** The run's statuses that still hold its workspace's queue, as SQL literals (they are constants). */
const OPEN = `NOT IN (${FINAL_STATUSES.map((s) => `'${s}'`).join(', ')})`;

/**
 * Runs and their phases, in plain SQL (RowReader, RowWriter). The reads every executor request
 * makes (a run, a phase, the workspace's queue) are the reason: TypeORM's find builds and parses
 * its SQL again on every call, which was most of the CPU of an executor's claim and report.
 */
@Injectable()
export class RunsRepository {
  private readonly runs: RowReader<RunEntity>;
  /** Runs with their sealed variable snapshot, which other reads leave out. */
  private readonly runsWithSnapshot: RowReader<RunEntity>;
  private readonly phases: RowReader<RunPhaseEntity>;
  private readonly runWrites: RowWriter<RunEntity>;
  private readonly phaseWrites: RowWriter<RunPhaseEntity>;
  private readonly outcomes: RowReader<RunTriggerOutcomeEntity>;
  private readonly outcomeWrites: RowWriter<RunTriggerOutcomeEntity>;

  constructor(@InjectDataSource() private readonly ds: DataSource) {
    this.runs = new RowReader(ds, RunEntity);
    this.runsWithSnapshot = new RowReader(ds, RunEntity, ['variableSnapshot']);
    this.phases = new RowReader(ds, RunPhaseEntity);
    this.runWrites = new RowWriter(ds, RunEntity);
    this.phaseWrites = new RowWriter(ds, RunPhaseEntity);
    this.outcomes = new RowReader(ds, RunTriggerOutcomeEntity);
    this.outcomeWrites = new RowWriter(ds, RunTriggerOutcomeEntity);
  }

  /** With a transaction's manager: read on its connection. */
  findById(id: string, manager?: EntityManager): Promise<RunEntity | null> {
    return this.runs.byId(id, manager);
  }

  findByIds(ids: string[]): Promise<RunEntity[]> {
    return this.runs.byIds(ids);
  }

  /**
   * A run and one of its phases in one statement (an executor's claim and report read both in
   * their transaction); the phase is null when `phaseId` is, or is not the run's. `forUpdate`:
   * both rows locked until the commit and read as last committed, where the database has row
   * locks (SQLite's writers take turns anyway): what the caller decides on cannot change under it.
   * `withSnapshot`: with the run's sealed variables, which reads leave out otherwise (a plan's
   * report that may hand the run's apply to its agent at once needs them for the apply's job).
   */
  async findWithPhase(
    manager: EntityManager,
    runId: string,
    phaseId: string | null,
    forUpdate = false,
    withSnapshot = false,
  ): Promise<{ run: RunEntity; phase: RunPhaseEntity | null } | null> {
    const { phases } = this;
    const runs = withSnapshot ? this.runsWithSnapshot : this.runs;
    const lock = forUpdate && manager.connection.options.type !== 'better-sqlite3' ? ' FOR UPDATE' : '';
    const [row] = await readRowsWith(
      manager,
      `SELECT ${runs.select('r')}, ${phases.select('p')} FROM ${runs.table} r` +
        ` LEFT JOIN ${phases.table} p ON p.id = ? AND p.run_id = r.id WHERE r.id = ?${lock}`,
      [phaseId, runId],
    );
    if (!row) return null;
    return {
      run: runs.hydrate(row, 'r'),
      phase: row.p_id === null || row.p_id === undefined ? null : phases.hydrate(row, 'p'),
    };
  }

  /** The ids of every run of these workspaces, for the removal of their files. */
  async idsInWorkspaces(manager: EntityManager, workspaceIds: string[]): Promise<string[]> {
    const ids: string[] = [];
    for (let i = 0; i < workspaceIds.length; i += 500) {
      const chunk = workspaceIds.slice(i, i + 500);
      const rows = await readRowsWith<{ id: string }>(
        manager,
        `SELECT r.id FROM ${this.runs.table} r WHERE r.workspace_id IN (${chunk.map(() => '?').join(', ')})`,
        chunk,
      );
      ids.push(...rows.map((r) => r.id));
    }
    return ids;
  }

  /** Newest first, optionally only some statuses. */
  list(workspaceId: string, statuses: RunStatus[] | undefined, page: PageParams): Promise<Page<RunEntity>> {
    const where = new SqlConditions().and('r.workspace_id = :workspaceId', { workspaceId });
    if (statuses) where.in('r.status', 'statuses', statuses);
    return paginateRows(
      this.runs,
      { from: `${this.runs.table} r`, alias: 'r', where, orderBy: 'r.created_at DESC, r.id DESC' },
      page,
    );
  }

  /** The workspace's runs that are not final, oldest first: its queue. */
  queue(manager: EntityManager, workspaceId: string): Promise<RunEntity[]> {
    const { runs } = this;
    return runs.many(
      `SELECT ${runs.select('r')} FROM ${runs.table} r WHERE r.workspace_id = ? AND r.status ${OPEN}` +
        ' ORDER BY r.created_at ASC, r.id ASC',
      [workspaceId],
      'r',
      manager,
    );
  }

  /**
   * The workspace's queue (as `queue`) and when its newest run, final or not, was created, in one
   * statement: what a new run's creation decides on. Each half reads its own index.
   */
  async queueAndNewest(
    manager: EntityManager,
    workspaceId: string,
  ): Promise<{ queue: RunEntity[]; newest: Date | null }> {
    const { runs } = this;
    const columns = runs.select('r');
    const q = (name: string) => this.ds.driver.escape(name);
    // Oldest first, as `queue`; the newest run, when it is open too, comes twice.
    const rows = await runs.many(
      `SELECT ${columns} FROM ${runs.table} r WHERE r.workspace_id = ? AND r.status ${OPEN}` +
        ` UNION ALL SELECT ${columns} FROM ${runs.table} r WHERE r.id =` +
        ` (SELECT n.id FROM ${runs.table} n WHERE n.workspace_id = ? ORDER BY n.created_at DESC LIMIT 1)` +
        ` ORDER BY ${q('r_created_at')}, ${q('r_id')}`,
      [workspaceId, workspaceId],
      'r',
      manager,
    );
    const queue = new Map(rows.filter((r) => !isFinal(r.status)).map((r) => [r.id, r]));
    return { queue: [...queue.values()], newest: rows.at(-1)?.createdAt ?? null };
  }

  async insert(manager: EntityManager, run: RunEntity, phases: RunPhaseEntity[]): Promise<void> {
    await this.runWrites.insert(run, manager);
    await this.phaseWrites.insertMany(phases, manager);
  }

  /**
   * Compare-and-set on the run's status: false when it is no longer `from`, or (`noCancelPending`)
   * when a cancel was asked for meanwhile.
   */
  async transition(
    manager: EntityManager,
    id: string,
    from: RunStatus,
    noCancelPending: boolean,
    changes: Partial<RunEntity>,
  ): Promise<boolean> {
    const where: RowMatch<RunEntity> = noCancelPending
      ? { id, status: from, canceledAt: null }
      : { id, status: from };
    return (await this.runWrites.update(changes, where, manager)) > 0;
  }

  /** Marks a cancel request on a running run; false when it was asked already or the run moved on. */
  async requestCancel(
    manager: EntityManager,
    id: string,
    status: RunStatus,
    at: Date,
    forceAt: Date,
  ): Promise<boolean> {
    const changes = { canceledAt: at, forceCancelAvailableAt: forceAt, updatedAt: at };
    return (await this.runWrites.update(changes, { id, status, canceledAt: null }, manager)) > 0;
  }

  findPhase(id: string, manager?: EntityManager): Promise<RunPhaseEntity | null> {
    return this.phases.byId(id, manager);
  }

  /** Any order; with a transaction's manager: read on its connection. */
  findPhases(ids: string[], manager?: EntityManager): Promise<RunPhaseEntity[]> {
    return this.phases.byIds(ids, manager);
  }

  /** Compare-and-set on the phase's status: false when it is in none of `from`. */
  async transitionPhase(
    manager: EntityManager,
    id: string,
    from: readonly PhaseStatus[],
    changes: Partial<RunPhaseEntity>,
  ): Promise<boolean> {
    return (await this.phaseWrites.update(changes, { id, status: from }, manager)) > 0;
  }

  insertOutcome(manager: EntityManager, outcome: RunTriggerOutcomeEntity): Promise<void> {
    return this.outcomeWrites.insert(outcome, manager);
  }

  /** What the run triggers did for these source runs, oldest first. */
  outcomesOf(sourceRunIds: string[]): Promise<RunTriggerOutcomeEntity[]> {
    if (!sourceRunIds.length) return Promise.resolve([]);
    const { outcomes } = this;
    const where = new SqlConditions().in('o.source_run_id', 'sourceRunIds', [...new Set(sourceRunIds)]);
    const [sql, params] = expand(
      this.ds,
      `SELECT ${outcomes.select('o')} FROM ${outcomes.table} o ${where.sql} ORDER BY o.created_at ASC, o.id ASC`,
      where.parameters,
    );
    return outcomes.many(sql, params, 'o');
  }

  /**
   * Each workspace's current run: the newest that has left the queue (`pending`), one query; ties
   * on the creation time go to the greater id. A saved plan becomes current only once applied (and
   * from then), as the real service's do.
   */
  async currentRunIds(workspaceIds: readonly string[]): Promise<Map<string, string>> {
    const current = (alias: string) => `${alias}.status <> 'pending' AND ${CURRENT_SINCE(alias)} IS NOT NULL`;
    const where = new SqlConditions()
      .in('r.workspace_id', 'workspaceIds', [...new Set(workspaceIds)])
      .and(current('r'))
      .and(
        `${CURRENT_SINCE('r')} = (SELECT MAX(${CURRENT_SINCE('n')}) FROM runs n ` +
          `WHERE n.workspace_id = r.workspace_id AND ${current('n')})`,
      );
    const [sql, params] = expand(
      this.ds,
      `SELECT r.id, r.workspace_id FROM runs r ${where.sql}`,
      where.parameters,
    );
    const rows = await readRows<{ id: string; workspace_id: string }>(this.ds, sql, params);
    const out = new Map<string, string>();
    for (const row of rows) {
      const seen = out.get(row.workspace_id);
      if (!seen || row.id > seen) out.set(row.workspace_id, row.id);
    }
    return out;
  }

  /**
   * A key rotation's batch: the sealed variable snapshots of the runs after `afterId` in id order
   * (only runs between their plan's claim and their end hold one).
   */
  async sealedSnapshotsAfter(afterId: string, limit: number): Promise<{ id: string; wrapped: string }[]> {
    const runs = this.runsWithSnapshot;
    const snapshot = runs.columnOf('variableSnapshot');
    const found = await runs.many(
      `SELECT ${runs.select('r')} FROM ${runs.table} r WHERE r.id > ? AND r.${snapshot} IS NOT NULL` +
        ` ORDER BY r.id LIMIT ${Number(limit)}`,
      [afterId],
      'r',
    );
    return found.flatMap((r) =>
      typeof r.variableSnapshot === 'string' ? [{ id: r.id, wrapped: r.variableSnapshot }] : [],
    );
  }

  /** Compare-and-set of a run's sealed snapshot, as a key rotation re-wraps it. */
  replaceSnapshot(manager: EntityManager, id: string, from: string, to: string): Promise<boolean> {
    return replaceSealed(manager, RunEntity, { id }, 'variableSnapshot', from, to);
  }
}
