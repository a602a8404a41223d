import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Page } from '../../common/sql/paginate';
import { RowReader } from '../../common/sql/row-reader';
import { RowWriter } from '../../common/sql/row-writer';
import { paginateRows, SqlConditions } from '../../common/sql/sql-page';
import { PageParams } from '../../common/jsonapi/pagination';
import { AgentTokenContext } from '../protocol/agent-context';
import { AgentTokenEntity } from './entities/agent-token.entity';
import { readRows } from '../../persistence/pool-reads';

/**
 * Agent tokens, in plain SQL (RowReader, RowWriter): every executor request is authenticated by
 * its token's digest and notes when the token was last used.
 */
@Injectable()
export class AgentTokensRepository {
  private readonly contextSql: string;
  private readonly rows: RowReader<AgentTokenEntity>;
  private readonly writes: RowWriter<AgentTokenEntity>;

  constructor(@InjectDataSource() private readonly ds: DataSource) {
    this.rows = new RowReader(ds, AgentTokenEntity);
    this.writes = new RowWriter(ds, AgentTokenEntity);
    this.contextSql = `SELECT k.id AS token_id, p.id AS pool_id, p.organization_id AS organization_id,
                              p.organization_scoped AS organization_scoped
                         FROM agent_tokens k JOIN agent_pools p ON p.id = k.pool_id
                        WHERE k.digest = ?`;
  }

  /** What the token with this digest lets an executor do: one indexed lookup. */
  async contextByDigest(digest: string): Promise<AgentTokenContext | null> {
    const [row] = await readRows(this.ds, this.contextSql, [digest]);
    if (!row) return null;
    return {
      tokenId: String(row.token_id),
      poolId: String(row.pool_id),
      organizationId: String(row.organization_id),
      // Booleans come back as 1/0 on both dialects.
      organizationScoped: Number(row.organization_scoped) === 1,
    };
  }

  findById(id: string): Promise<AgentTokenEntity | null> {
    return this.rows.byId(id);
  }

  /** Oldest first. */
  listForPool(poolId: string, page: PageParams): Promise<Page<AgentTokenEntity>> {
    return paginateRows(
      this.rows,
      {
        from: `${this.rows.table} k`,
        alias: 'k',
        where: new SqlConditions().and('k.pool_id = :poolId', { poolId }),
        orderBy: 'k.created_at ASC, k.id ASC',
      },
      page,
    );
  }

  /**
   * One statement, committed by itself and retried after a lost deadlock (RowWriter); a foreign key
   * violation (the pool is gone) throws as TypeORM's insert would.
   */
  async insert(token: AgentTokenEntity): Promise<void> {
    await this.writes.insert(token);
  }

  /** One statement, committed by itself (RowWriter). */
  async delete(id: string): Promise<void> {
    await this.writes.deleteById(id);
  }

  async touch(id: string, at: Date): Promise<void> {
    await this.writes.update({ lastUsedAt: at }, { id });
  }
}
