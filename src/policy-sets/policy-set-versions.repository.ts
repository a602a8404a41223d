import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { Page } from '../common/sql/paginate';
import { RowReader } from '../common/sql/row-reader';
import { RowWriter } from '../common/sql/row-writer';
import { paginateRows, SqlConditions } from '../common/sql/sql-page';
import { PageParams } from '../common/jsonapi/pagination';
import { PolicySetVersionEntity, PolicySetVersionStatus } from './entities/policy-set-version.entity';

/**
 * Plain SQL (see RowReader, RowWriter): includes of policy-set reads and every upload read
 * versions, so the whole file keeps to the hot family.
 */
@Injectable()
export class PolicySetVersionsRepository {
  private readonly rows: RowReader<PolicySetVersionEntity>;
  private readonly writer: RowWriter<PolicySetVersionEntity>;

  constructor(@InjectDataSource() ds: DataSource) {
    this.rows = new RowReader(ds, PolicySetVersionEntity);
    this.writer = new RowWriter(ds, PolicySetVersionEntity);
  }

  findById(id: string, manager?: EntityManager): Promise<PolicySetVersionEntity | null> {
    return this.rows.byId(id, manager);
  }

  /** For `included` arrays of policy-set reads. */
  findByIds(ids: string[]): Promise<PolicySetVersionEntity[]> {
    return this.rows.byIds(ids);
  }

  /** Newest first: creation times are strictly increasing within a set. */
  list(policySetId: string, page: PageParams): Promise<Page<PolicySetVersionEntity>> {
    const where = new SqlConditions().and('v.policy_set_id = :policySetId', { policySetId });
    return paginateRows(
      this.rows,
      { from: 'policy_set_versions v', alias: 'v', where, orderBy: 'v.created_at DESC, v.id DESC' },
      page,
    );
  }

  /** Creation time of the set's newest version, read inside the transaction that adds one. */
  async latestCreatedAt(manager: EntityManager, policySetId: string): Promise<Date | null> {
    const { rows } = this;
    const [newest] = await rows.many(
      `SELECT ${rows.select('v')} FROM policy_set_versions v
        WHERE v.policy_set_id = ? ORDER BY v.created_at DESC LIMIT 1`,
      [policySetId],
      'v',
      manager,
    );
    return newest?.createdAt ?? null;
  }

  /** Inserts a version the service filled in completely, and answers it. */
  async insert(manager: EntityManager, version: PolicySetVersionEntity): Promise<PolicySetVersionEntity> {
    await this.writer.insert(version, manager);
    return version;
  }

  /**
   * Moves a version from one status to another only if it still has the expected one: the
   * compare-and-set that makes an upload link single-use. False when another request won.
   */
  async transition(
    manager: EntityManager,
    id: string,
    from: PolicySetVersionStatus,
    changes: Partial<PolicySetVersionEntity>,
  ): Promise<boolean> {
    return (await this.writer.update(changes, { id, status: from }, manager)) > 0;
  }
}
