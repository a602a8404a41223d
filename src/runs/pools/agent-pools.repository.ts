import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Brackets, EntityManager, In, Repository } from 'typeorm';
import { paginate, Page } from '../../common/sql/paginate';
import { likeCondition, likePattern } from '../../common/sql/like';
import { PageParams } from '../../common/jsonapi/pagination';
import { AgentPoolEntity } from './entities/agent-pool.entity';
import { AgentPoolWorkspaceEntity } from './entities/agent-pool-workspace.entity';

export interface PoolListQuery {
  /** Substring of the name, any case. */
  q?: string;
  /**
   * Only pools this workspace may use (organization-scoped, or allowing it by name); `null` for a
   * workspace that does not exist, which may use none.
   */
  usableBy?: string | null;
}

@Injectable()
export class AgentPoolsRepository {
  constructor(@InjectRepository(AgentPoolEntity) private readonly repo: Repository<AgentPoolEntity>) {}

  findById(id: string): Promise<AgentPoolEntity | null> {
    return this.repo.findOne({ where: { id } });
  }

  async list(organizationId: string, query: PoolListQuery, page: PageParams): Promise<Page<AgentPoolEntity>> {
    const qb = this.repo
      .createQueryBuilder('p')
      .where('p.organization_id = :organizationId', { organizationId })
      .orderBy('p.created_at', 'ASC')
      .addOrderBy('p.id', 'ASC');
    if (query.q) qb.andWhere(likeCondition('p.name', 'q'), { q: likePattern(query.q) });
    if (query.usableBy === null) qb.andWhere('1 = 0');
    else if (query.usableBy !== undefined) {
      qb.andWhere(
        new Brackets((w) =>
          w
            .where('p.organization_scoped = 1')
            .orWhere(
              'EXISTS (SELECT 1 FROM agent_pool_allowed_workspaces aw WHERE aw.pool_id = p.id AND aw.workspace_id = :workspaceId)',
              { workspaceId: query.usableBy },
            ),
        ),
      );
    }
    return paginate(qb, page);
  }

  countInOrganization(organizationId: string): Promise<number> {
    return this.repo.count({ where: { organizationId } });
  }

  /** Allowed workspaces of each pool, one query. */
  async allowedWorkspaceIds(
    poolIds: readonly string[],
    manager = this.repo.manager,
  ): Promise<Map<string, string[]>> {
    const out = new Map<string, string[]>(poolIds.map((id) => [id, []]));
    if (!poolIds.length) return out;
    const rows = await manager.getRepository(AgentPoolWorkspaceEntity).find({
      where: { poolId: In([...poolIds]) },
      order: { workspaceId: 'ASC' },
    });
    for (const row of rows) out.get(row.poolId)?.push(row.workspaceId);
    return out;
  }

  /** Whether the pool lists the workspace among its allowed workspaces. */
  async allows(manager: EntityManager, poolId: string, workspaceId: string): Promise<boolean> {
    return manager.getRepository(AgentPoolWorkspaceEntity).exists({ where: { poolId, workspaceId } });
  }

  async save(manager: EntityManager, pool: AgentPoolEntity): Promise<void> {
    await manager.getRepository(AgentPoolEntity).save(pool);
  }

  /**
   * A new pool and the workspaces it allows: plain inserts. Nothing is read or deleted first, since
   * on MariaDB a locking read or a delete of rows that do not exist yet takes a gap lock, and two
   * creates holding the same gap then deadlock on each other's insert.
   */
  async insert(
    manager: EntityManager,
    pool: AgentPoolEntity,
    allowedWorkspaceIds: readonly string[],
  ): Promise<void> {
    // updateEntity(false): MariaDB's RETURNING of the defaulted flag would overwrite it with a raw 1.
    await manager
      .createQueryBuilder()
      .insert()
      .into(AgentPoolEntity)
      .values(pool)
      .updateEntity(false)
      .execute();
    if (allowedWorkspaceIds.length) {
      await manager
        .getRepository(AgentPoolWorkspaceEntity)
        .insert(allowedWorkspaceIds.map((workspaceId) => ({ poolId: pool.id, workspaceId })));
    }
  }

  async replaceAllowedWorkspaces(
    manager: EntityManager,
    poolId: string,
    workspaceIds: readonly string[],
  ): Promise<void> {
    const repo = manager.getRepository(AgentPoolWorkspaceEntity);
    await repo.delete({ poolId });
    if (workspaceIds.length) await repo.insert(workspaceIds.map((workspaceId) => ({ poolId, workspaceId })));
  }

  async delete(manager: EntityManager, id: string): Promise<void> {
    await manager.getRepository(AgentPoolEntity).delete({ id });
  }
}
