import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { Page } from '../common/sql/paginate';
import { RowReader } from '../common/sql/row-reader';
import { RowWriter } from '../common/sql/row-writer';
import { expand, paginateRows, SqlConditions } from '../common/sql/sql-page';
import { afterCommit } from '../common/sql/transaction';
import { PageParams } from '../common/jsonapi/pagination';
import {
  ConfigurationVersionEntity,
  ConfigurationVersionStatus,
} from './entities/configuration-version.entity';
import { ConfirmedVersions } from './confirmed-versions';

/** A version that is its workspace's configuration once newest: uploaded and not provisional. */
const CURRENT = (alias: string) => `${alias}.status = 'uploaded' AND ${alias}.provisional = 0`;

/**
 * Configuration versions, in plain SQL (RowReader, RowWriter): every run shown or created reads
 * its version, and a run's creation reads the workspace's newest one in its transaction.
 */
@Injectable()
export class ConfigurationVersionsRepository {
  private readonly rows: RowReader<ConfigurationVersionEntity>;
  private readonly writes: RowWriter<ConfigurationVersionEntity>;
  /** Versions seen not provisional: their applied runs skip `confirm`'s UPDATE. */
  private readonly confirmed = new ConfirmedVersions();

  constructor(@InjectDataSource() private readonly ds: DataSource) {
    this.rows = new RowReader(ds, ConfigurationVersionEntity);
    this.writes = new RowWriter(ds, ConfigurationVersionEntity);
  }

  /** With a transaction's manager: read on its connection. */
  async findById(id: string, manager?: EntityManager): Promise<ConfigurationVersionEntity | null> {
    const cv = await this.rows.byId(id, manager);
    if (cv) this.seen([cv], manager);
    return cv;
  }

  findByIds(ids: string[]): Promise<ConfigurationVersionEntity[]> {
    return this.rows.byIds(ids);
  }

  /** Newest first: creation times are strictly increasing within a workspace. */
  list(workspaceId: string, page: PageParams): Promise<Page<ConfigurationVersionEntity>> {
    return paginateRows(
      this.rows,
      {
        from: `${this.rows.table} cv`,
        alias: 'cv',
        where: new SqlConditions().and('cv.workspace_id = :workspaceId', { workspaceId }),
        orderBy: 'cv.created_at DESC, cv.id DESC',
      },
      page,
    );
  }

  newest(manager: EntityManager, workspaceId: string): Promise<ConfigurationVersionEntity | null> {
    return this.newestWhere(manager, workspaceId, '');
  }

  /** The workspace's configuration: its newest uploaded version that is not provisional. */
  newestUploaded(manager: EntityManager, workspaceId: string): Promise<ConfigurationVersionEntity | null> {
    return this.newestWhere(manager, workspaceId, ` AND ${CURRENT('cv')}`);
  }

  private async newestWhere(
    manager: EntityManager,
    workspaceId: string,
    condition: string,
  ): Promise<ConfigurationVersionEntity | null> {
    const { rows } = this;
    const found = await rows.many(
      `SELECT ${rows.select('cv')} FROM ${rows.table} cv WHERE cv.workspace_id = ?${condition}` +
        ' ORDER BY cv.created_at DESC LIMIT 1',
      [workspaceId],
      'cv',
      manager,
    );
    this.seen(found, manager);
    return found[0] ?? null;
  }

  /** Each workspace's configuration (as `newestUploaded`), in one query for all of them. */
  currentOf(workspaceIds: readonly string[]): Promise<ConfigurationVersionEntity[]> {
    if (!workspaceIds.length) return Promise.resolve([]);
    const { rows } = this;
    const where = new SqlConditions()
      .in('cv.workspace_id', 'workspaceIds', [...new Set(workspaceIds)])
      .and(CURRENT('cv'))
      .and(
        `cv.created_at = (SELECT MAX(n.created_at) FROM ${rows.table} n ` +
          `WHERE n.workspace_id = cv.workspace_id AND ${CURRENT('n')})`,
      );
    const [sql, params] = expand(
      this.ds,
      `SELECT ${rows.select('cv')} FROM ${rows.table} cv ${where.sql}`,
      where.parameters,
    );
    return rows.many(sql, params, 'cv');
  }

  /**
   * A provisional version becomes the workspace's configuration (a run of it applied). Skipped for
   * a version this process saw not provisional, which it can never be again.
   */
  async confirm(manager: EntityManager, id: string): Promise<void> {
    if (this.confirmed.has(id)) return;
    await this.writes.update({ provisional: false }, { id, provisional: true }, manager);
    // Whether it changed the row or found it confirmed already, it is confirmed once this commits.
    afterCommit(manager, () => this.confirmed.note(id));
  }

  /**
   * Notes the versions read not provisional. Read in a transaction, only once it has committed:
   * until then the row read may be the transaction's own confirmation, which a rollback undoes.
   */
  private seen(versions: readonly ConfigurationVersionEntity[], manager?: EntityManager): void {
    for (const cv of versions) {
      if (cv.provisional) continue;
      if (manager) afterCommit(manager, () => this.confirmed.note(cv.id));
      else this.confirmed.note(cv.id);
    }
  }

  /** Inserts the version as the service filled it in, and answers it. */
  async insert(manager: EntityManager, cv: ConfigurationVersionEntity): Promise<ConfigurationVersionEntity> {
    await this.writes.insert(cv, manager);
    return cv;
  }

  /** Compare-and-set on the status: false when another request moved it first. */
  async transition(
    manager: EntityManager,
    id: string,
    from: ConfigurationVersionStatus,
    changes: Partial<ConfigurationVersionEntity>,
  ): Promise<boolean> {
    return (await this.writes.update(changes, { id, status: from }, manager)) > 0;
  }
}
