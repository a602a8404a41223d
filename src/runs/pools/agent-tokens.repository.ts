import { Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { DataSource, EntityManager, Repository } from 'typeorm';
import { paginate, Page } from '../../common/sql/paginate';
import { PageParams } from '../../common/jsonapi/pagination';
import { AgentTokenContext } from '../protocol/agent-context';
import { AgentTokenEntity } from './entities/agent-token.entity';
import { readRows } from '../../persistence/pool-reads';

@Injectable()
export class AgentTokensRepository {
  private readonly contextSql: string;

  constructor(
    @InjectRepository(AgentTokenEntity) private readonly repo: Repository<AgentTokenEntity>,
    @InjectDataSource() private readonly ds: DataSource,
  ) {
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
    return this.repo.findOne({ where: { id } });
  }

  listForPool(poolId: string, page: PageParams): Promise<Page<AgentTokenEntity>> {
    const qb = this.repo
      .createQueryBuilder('k')
      .where('k.pool_id = :poolId', { poolId })
      .orderBy('k.created_at', 'ASC')
      .addOrderBy('k.id', 'ASC');
    return paginate(qb, page);
  }

  async insert(manager: EntityManager, token: AgentTokenEntity): Promise<void> {
    await manager.getRepository(AgentTokenEntity).insert(token);
  }

  async delete(manager: EntityManager, id: string): Promise<void> {
    await manager.getRepository(AgentTokenEntity).delete({ id });
  }

  async touch(id: string, at: Date): Promise<void> {
    await this.repo.update({ id }, { lastUsedAt: at });
  }
}
