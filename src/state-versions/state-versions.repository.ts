import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata';
import { PageParams } from '../common/jsonapi/pagination';
import { Page } from '../common/sql/paginate';
import { RowReader } from '../common/sql/row-reader';
import { RowWriter } from '../common/sql/row-writer';
import { expand, paginateRows, SqlConditions } from '../common/sql/sql-page';
import { writeWith } from '../common/sql/transaction';
import { readRows } from '../persistence/pool-reads';
import { StateVersionOutputEntity } from './entities/state-version-output.entity';
import {
  STATE_VERSION_STATUSES,
  StateVersionEntity,
  StateVersionStatus,
} from './entities/state-version.entity';

/** The columns of state_versions that hold a wrapped data key. */
export type DataKeyColumn = 'stateDataKey' | 'jsonStateDataKey';

/** Every status but discarded: what a version may have while its JSON state can still arrive. */
const NOT_DISCARDED = STATE_VERSION_STATUSES.filter((s) => s !== 'discarded');

/**
 * Plain SQL (see RowReader, RowWriter): every state read and download, and each run that hands
 * its state over, read versions here, so the whole file keeps to the hot family.
 */
@Injectable()
export class StateVersionsRepository {
  private readonly versions: RowReader<StateVersionEntity>;
  private readonly outputs: RowReader<StateVersionOutputEntity>;
  private readonly versionWriter: RowWriter<StateVersionEntity>;
  private readonly outputWriter: RowWriter<StateVersionOutputEntity>;
  private readonly createdAt: ColumnMetadata;
  private readonly updatedAt: ColumnMetadata;

  constructor(@InjectDataSource() private readonly ds: DataSource) {
    this.versions = new RowReader(ds, StateVersionEntity);
    this.outputs = new RowReader(ds, StateVersionOutputEntity);
    this.versionWriter = new RowWriter(ds, StateVersionEntity);
    this.outputWriter = new RowWriter(ds, StateVersionOutputEntity);
    const metadata = ds.getMetadata(StateVersionEntity);
    this.createdAt = metadata.findColumnWithPropertyName('createdAt')!;
    this.updatedAt = metadata.findColumnWithPropertyName('updatedAt')!;
  }

  /** Read by every state read and download. */
  findById(id: string, manager?: EntityManager): Promise<StateVersionEntity | null> {
    return this.versions.byId(id, manager);
  }

  findByIds(ids: string[]): Promise<StateVersionEntity[]> {
    return this.versions.byIds(ids);
  }

  /** The first version `where` (with `params`) finds, newest first. */
  private async newestWhere(
    where: string,
    params: unknown[],
    manager?: EntityManager,
  ): Promise<StateVersionEntity | null> {
    const { versions } = this;
    const [version] = await versions.many(
      `SELECT ${versions.select('sv')} FROM state_versions sv WHERE ${where}
        ORDER BY sv.created_at DESC, sv.id DESC LIMIT 1`,
      params,
      'sv',
      manager,
    );
    return version ?? null;
  }

  /** The workspace's most recently created version, whatever its status. */
  newest(manager: EntityManager, workspaceId: string): Promise<StateVersionEntity | null> {
    return this.newestWhere('sv.workspace_id = ?', [workspaceId], manager);
  }

  /** A finalized version the run wrote with exactly this state (by its MD5): a repeated upload. */
  writtenByRun(
    manager: EntityManager,
    workspaceId: string,
    runId: string,
    md5: string,
  ): Promise<StateVersionEntity | null> {
    return this.newestWhere(
      "sv.workspace_id = ? AND sv.run_id = ? AND sv.md5 = ? AND sv.status = 'finalized'",
      [workspaceId, runId, md5],
      manager,
    );
  }

  /** A workspace's versions, newest first (or in the order `sort` asks). */
  list(
    workspaceId: string,
    status: StateVersionStatus | undefined,
    page: PageParams,
  ): Promise<Page<StateVersionEntity>> {
    const where = new SqlConditions().and('sv.workspace_id = :workspaceId', { workspaceId });
    if (status) where.and('sv.status = :status', { status });
    return paginateRows(
      this.versions,
      { from: 'state_versions sv', alias: 'sv', where, orderBy: 'sv.created_at DESC, sv.id DESC' },
      page,
    );
  }

  /** Inserts the version as the service filled it in; nothing is written back into it. */
  async insert(manager: EntityManager, version: StateVersionEntity): Promise<void> {
    await this.versionWriter.insert(version, manager);
  }

  async insertOutputs(manager: EntityManager, outputs: StateVersionOutputEntity[]): Promise<void> {
    // In slices: every driver bounds the parameters of one statement.
    for (let i = 0; i < outputs.length; i += 100) {
      await this.outputWriter.insertMany(outputs.slice(i, i + 100), manager);
    }
  }

  /** Moves a pending version to finalized with its state; false when it is no longer pending. */
  async finalize(manager: EntityManager, id: string, changes: Partial<StateVersionEntity>): Promise<boolean> {
    const changed = await this.versionWriter.update(
      { ...changes, status: 'finalized' },
      { id, status: 'pending' },
      manager,
    );
    return changed > 0;
  }

  /** Records the JSON state of a version that has none and is not discarded; false otherwise. */
  async attachJsonState(
    manager: EntityManager,
    id: string,
    changes: Pick<
      StateVersionEntity,
      'jsonStateBlobKey' | 'jsonStateDataKey' | 'jsonStateSize' | 'updatedAt'
    >,
  ): Promise<boolean> {
    const changed = await this.versionWriter.update(
      changes,
      { id, jsonStateBlobKey: null, status: NOT_DISCARDED },
      manager,
    );
    return changed > 0;
  }

  /** Discards the workspace's pending versions created before `before` (all of them without it). */
  async discardPending(manager: EntityManager, workspaceId: string, at: Date, before?: Date): Promise<void> {
    const { driver } = this.ds;
    const params = [driver.preparePersistentValue(at, this.updatedAt), workspaceId];
    if (before) params.push(driver.preparePersistentValue(before, this.createdAt));
    await writeWith(
      manager,
      `UPDATE state_versions SET status = 'discarded', updated_at = ?
        WHERE workspace_id = ? AND status = 'pending'${before ? ' AND created_at < ?' : ''}`,
      params,
    );
  }

  /** The output ids of each version (every version given is a key), in name order. */
  async outputIdsOf(versionIds: string[]): Promise<Map<string, string[]>> {
    const out = new Map<string, string[]>(versionIds.map((id) => [id, []]));
    if (!versionIds.length) return out;
    const [sql, params] = expand(
      this.ds,
      `SELECT o.id, o.state_version_id FROM state_version_outputs o
        WHERE o.state_version_id IN (:...versionIds) ORDER BY o.name ASC`,
      { versionIds },
    );
    const rows = await readRows<{ id: string; state_version_id: string }>(this.ds, sql, params);
    for (const row of rows) out.get(row.state_version_id)?.push(row.id);
    return out;
  }

  outputsPage(stateVersionId: string, page: PageParams): Promise<Page<StateVersionOutputEntity>> {
    const where = new SqlConditions().and('o.state_version_id = :stateVersionId', { stateVersionId });
    return paginateRows(
      this.outputs,
      { from: 'state_version_outputs o', alias: 'o', where, orderBy: 'o.name ASC, o.id ASC' },
      page,
    );
  }

  outputsOf(versionIds: string[], manager?: EntityManager): Promise<StateVersionOutputEntity[]> {
    if (!versionIds.length) return Promise.resolve([]);
    const { outputs } = this;
    const [sql, params] = expand(
      this.ds,
      `SELECT ${outputs.select('o')} FROM state_version_outputs o
        WHERE o.state_version_id IN (:...versionIds) ORDER BY o.name ASC`,
      { versionIds },
    );
    return outputs.many(sql, params, 'o', manager);
  }

  findOutput(id: string): Promise<StateVersionOutputEntity | null> {
    return this.outputs.byId(id);
  }

  /** Rows holding a wrapped key in `column`, in id order after `afterId` (for a key rotation). */
  async dataKeys(
    column: DataKeyColumn,
    afterId: string,
    limit: number,
  ): Promise<{ id: string; wrapped: string }[]> {
    const key = this.versions.columnOf(column);
    return readRows<{ id: string; wrapped: string }>(
      this.ds,
      `SELECT sv.id AS id, sv.${key} AS wrapped FROM state_versions sv
        WHERE sv.id > ? AND sv.${key} IS NOT NULL ORDER BY sv.id ASC LIMIT ?`,
      [afterId, limit],
    );
  }

  /** Compare-and-set of one wrapped key. */
  async replaceDataKey(column: DataKeyColumn, id: string, from: string, to: string): Promise<boolean> {
    return (await this.versionWriter.update({ [column]: to }, { id, [column]: from })) > 0;
  }

  /** Outputs in id order after `afterId`, with their sealed values (for a key rotation). */
  async sealedValues(afterId: string, limit: number): Promise<{ id: string; wrapped: string }[]> {
    const { outputs } = this;
    const rows = await outputs.many(
      `SELECT ${outputs.select('o')} FROM state_version_outputs o WHERE o.id > ? ORDER BY o.id ASC LIMIT ?`,
      [afterId, limit],
      'o',
    );
    return rows.map((r) => ({ id: r.id, wrapped: r.sealedValue }));
  }

  /**
   * Compare-and-set of one sealed value, made under the row's lock (SQLite's writers take turns
   * anyway): a JSON column compares differently on each database, so the comparison is made here.
   */
  async replaceSealedValue(manager: EntityManager, id: string, from: string, to: string): Promise<boolean> {
    const row = await this.outputs.lockedById(id, manager);
    if (!row || row.sealedValue !== from) return false;
    await this.outputWriter.update({ sealedValue: to }, { id }, manager);
    return true;
  }
}
