import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, In, Repository } from 'typeorm';
import { paginate, Page } from '../../common/sql/paginate';
import { RowReader } from '../../common/sql/row-reader';
import { RowWriter } from '../../common/sql/row-writer';
import { PageParams } from '../../common/jsonapi/pagination';
import { AgentEntity, StoredAgentStatus } from './entities/agent.entity';

@Injectable()
export class AgentsRepository {
  /** Every executor request reads and touches its agent: without TypeORM's builders. */
  private readonly rows: RowReader<AgentEntity>;
  private readonly writes: RowWriter<AgentEntity>;

  constructor(@InjectRepository(AgentEntity) private readonly repo: Repository<AgentEntity>) {
    this.rows = new RowReader(repo.manager.connection, AgentEntity);
    this.writes = new RowWriter(repo.manager.connection, AgentEntity);
  }

  findById(id: string): Promise<AgentEntity | null> {
    return this.rows.byId(id);
  }

  /** The pool of an agent, which the agent guard checks, and its name, which the audit trail shows. */
  async identityOf(id: string): Promise<{ poolId: string; name: string } | null> {
    const agent = await this.rows.byId(id);
    return agent ? { poolId: agent.poolId, name: agent.name } : null;
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
    await this.writes.update({ lastPingAt: at }, { id });
  }

  /** Sets the status and counts the call as a ping; false when the agent is gone. */
  async setStatus(id: string, status: StoredAgentStatus, at: Date): Promise<boolean> {
    return (await this.writes.update({ status, lastPingAt: at }, { id })) > 0;
  }
}
