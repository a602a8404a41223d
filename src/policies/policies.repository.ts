import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { likeCondition, likePattern } from '../common/sql/like';
import { Page } from '../common/sql/paginate';
import { PageParams } from '../common/jsonapi/pagination';
import { PolicyEntity } from './entities/policy.entity';
import { PolicyKind } from './policy-kinds';
import { RowReader } from '../common/sql/row-reader';
import { RowWriter } from '../common/sql/row-writer';
import { paginateRows, SqlConditions } from '../common/sql/sql-page';

export interface PolicyListFilter {
  organizationId: string;
  search?: string;
  kind?: PolicyKind;
}

/**
 * Plain SQL (see RowReader, RowWriter): includes of whole pages and every policy check's snapshot
 * read policies, so the whole file keeps to the hot family.
 */
@Injectable()
export class PoliciesRepository {
  private readonly rows: RowReader<PolicyEntity>;
  private readonly writer: RowWriter<PolicyEntity>;

  constructor(@InjectDataSource() ds: DataSource) {
    this.rows = new RowReader(ds, PolicyEntity);
    this.writer = new RowWriter(ds, PolicyEntity);
  }

  findById(id: string): Promise<PolicyEntity | null> {
    return this.rows.byId(id);
  }

  /** Includes of whole pages read these; in a transaction, through its manager. */
  findByIds(ids: string[], manager?: EntityManager): Promise<PolicyEntity[]> {
    return this.rows.byIds(ids, manager);
  }

  list(filter: PolicyListFilter, page: PageParams): Promise<Page<PolicyEntity>> {
    const where = new SqlConditions().and('p.organization_id = :org', { org: filter.organizationId });
    if (filter.search) where.and(likeCondition('p.name', 'search'), { search: likePattern(filter.search) });
    if (filter.kind) where.and('p.kind = :kind', { kind: filter.kind });
    return paginateRows(
      this.rows,
      { from: 'policies p', alias: 'p', where, orderBy: 'p.name ASC, p.id ASC' },
      page,
    );
  }

  /** Inserts a policy the service filled in completely; a taken name throws a unique violation. */
  async insert(manager: EntityManager, policy: PolicyEntity): Promise<void> {
    await this.writer.insert(policy, manager);
  }

  /**
   * Writes what an update may change (name, description, enforcement level, query, update time),
   * leaving the recorded code as it is; a taken name throws a unique violation.
   */
  async update(manager: EntityManager, policy: PolicyEntity): Promise<void> {
    const { name, description, enforcementLevel, query, updatedAt } = policy;
    await this.writer.update(
      { name, description, enforcementLevel, query, updatedAt },
      { id: policy.id },
      manager,
    );
  }

  /** Records uploaded code; false when the policy no longer exists. */
  async recordCode(
    manager: EntityManager,
    id: string,
    size: number,
    sha256: string,
    at: Date,
  ): Promise<boolean> {
    const changed = await this.writer.update(
      { codeSize: size, codeSha256: sha256, updatedAt: at },
      { id },
      manager,
    );
    return changed > 0;
  }

  async delete(manager: EntityManager, id: string): Promise<void> {
    await this.writer.deleteById(id, manager);
  }
}
