import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, In, Repository } from 'typeorm';
import { paginate, Page } from '../../common/sql/paginate';
import { PageParams } from '../../common/jsonapi/pagination';
import { AgentEntity } from './entities/agent.entity';

/** The agents as users see and remove them; what executor requests touch is AgentActivityRepository's. */
@Injectable()
export class AgentsRepository {
  constructor(@InjectRepository(AgentEntity) private readonly repo: Repository<AgentEntity>) {}

  findById(id: string): Promise<AgentEntity | null> {
    return this.repo.findOneBy({ id });
  }

  listForPool(poolId: string, seenSince: Date | undefined, page: PageParams): Promise<Page<AgentEntity>> {
    const qb = this.repo
      .createQueryBuilder('a')
      .where('a.pool_id = :poolId', { poolId })
      .orderBy('a.created_at', 'ASC')
      .addOrderBy('a.id', 'ASC');
    if (seenSince) qb.andWhere('a.last_ping_at >= :seenSince', { seenSince });
    return paginate(qb, page);
  }

  /** Agents that may take work (idle or busy, however long ago they were seen) per pool: one aggregate. */
  async activeCounts(poolIds: readonly string[]): Promise<Map<string, number>> {
    if (!poolIds.length) return new Map();
    const rows = await this.repo
      .createQueryBuilder('a')
      .select('a.pool_id', 'poolId')
      .addSelect('COUNT(*)', 'n')
      .where({ poolId: In([...poolIds]), status: In(['idle', 'busy']) })
      .groupBy('a.pool_id')
      .getRawMany<{ poolId: string; n: number | string }>();
    return new Map(rows.map((r) => [r.poolId, Number(r.n)]));
  }

  async insert(manager: EntityManager, agent: AgentEntity): Promise<void> {
    await manager.getRepository(AgentEntity).insert(agent);
  }

  async delete(manager: EntityManager, id: string): Promise<void> {
    await manager.getRepository(AgentEntity).delete({ id });
  }
}
