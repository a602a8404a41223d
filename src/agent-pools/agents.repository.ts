import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, In, Repository } from 'typeorm';
import { paginate, Page } from '../common/sql/paginate';
import { PageParams } from '../common/jsonapi/pagination';
import { AgentEntity, StoredAgentStatus } from './entities/agent.entity';

@Injectable()
export class AgentsRepository {
  constructor(@InjectRepository(AgentEntity) private readonly repo: Repository<AgentEntity>) {}

  findById(id: string): Promise<AgentEntity | null> {
    return this.repo.findOne({ where: { id } });
  }

  /** The pool of an agent, the one thing the agent guard needs. */
  async poolOf(id: string): Promise<string | null> {
    const row = await this.repo.findOne({ select: { poolId: true }, where: { id } });
    return row?.poolId ?? null;
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

  async touch(id: string, at: Date): Promise<void> {
    await this.repo.update({ id }, { lastPingAt: at });
  }

  /** Sets the status and counts the call as a ping; false when the agent is gone. */
  async setStatus(id: string, status: StoredAgentStatus, at: Date): Promise<boolean> {
    const result = await this.repo.update({ id }, { status, lastPingAt: at });
    return (result.affected ?? 0) > 0;
  }
}
