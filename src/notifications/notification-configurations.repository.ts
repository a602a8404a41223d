import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, In, IsNull, MoreThan, Not, Repository } from 'typeorm';
import { paginate, Page } from '../common/sql/paginate';
import { lockRow, withRowLock } from '../common/sql/transaction';
import { PageParams } from '../common/jsonapi/pagination';
import { NotificationConfigurationEntity } from './entities/notification-configuration.entity';

@Injectable()
export class NotificationConfigurationsRepository {
  constructor(
    @InjectRepository(NotificationConfigurationEntity)
    private readonly repo: Repository<NotificationConfigurationEntity>,
  ) {}

  findById(id: string, manager?: EntityManager): Promise<NotificationConfigurationEntity | null> {
    return (manager ?? this.repo.manager)
      .getRepository(NotificationConfigurationEntity)
      .findOne({ where: { id } });
  }

  /** The configurations among `ids` that exist, in one query. */
  findByIds(ids: string[]): Promise<NotificationConfigurationEntity[]> {
    return ids.length ? this.repo.find({ where: { id: In([...new Set(ids)]) } }) : Promise.resolve([]);
  }

  /** A workspace's configurations, oldest first (or as `sort` asks). */
  list(workspaceId: string, page: PageParams): Promise<Page<NotificationConfigurationEntity>> {
    const qb = this.repo
      .createQueryBuilder('nc')
      .where('nc.workspace_id = :workspaceId', { workspaceId })
      .orderBy('nc.created_at', 'ASC')
      .addOrderBy('nc.id', 'ASC');
    return paginate(qb, page);
  }

  countInWorkspace(manager: EntityManager, workspaceId: string): Promise<number> {
    return manager.getRepository(NotificationConfigurationEntity).count({ where: { workspaceId } });
  }

  /**
   * The enabled configurations of a workspace, read in the caller's transaction as last committed
   * (a shared lock where the database has row locks, instead of the transaction's snapshot), so
   * that what it finds is no older than the read itself (EnabledConfigurationsCache relies on it).
   */
  enabledIn(manager: EntityManager, workspaceId: string): Promise<NotificationConfigurationEntity[]> {
    return withRowLock(
      manager
        .getRepository(NotificationConfigurationEntity)
        .createQueryBuilder('nc')
        .select(['nc.id', 'nc.triggers'])
        .where('nc.workspace_id = :workspaceId AND nc.enabled = :enabled', { workspaceId, enabled: true }),
      'share',
    ).getMany();
  }

  /** Inserts a copy: TypeORM writes database defaults back into what it inserts (MySQL's 0 for false). */
  async insert(manager: EntityManager, row: NotificationConfigurationEntity): Promise<void> {
    await manager.getRepository(NotificationConfigurationEntity).insert({ ...row });
  }

  async update(
    manager: EntityManager,
    id: string,
    changes: Partial<NotificationConfigurationEntity>,
  ): Promise<void> {
    await manager.getRepository(NotificationConfigurationEntity).update({ id }, changes);
  }

  async delete(manager: EntityManager, id: string): Promise<boolean> {
    const result = await manager.getRepository(NotificationConfigurationEntity).delete({ id });
    return (result.affected ?? 0) > 0;
  }

  /** Locks the configuration's row for the rest of the transaction; false when it is gone. */
  lock(manager: EntityManager, id: string): Promise<boolean> {
    return lockRow(manager, NotificationConfigurationEntity, id);
  }

  /** Configurations holding a sealed token, in id order after `afterId` (for a key rotation). */
  async sealedTokens(afterId: string, limit: number): Promise<{ id: string; wrapped: string }[]> {
    const rows = await this.repo.find({
      select: { id: true, sealedToken: true },
      where: { id: MoreThan(afterId), sealedToken: Not(IsNull()) },
      order: { id: 'ASC' },
      take: limit,
    });
    return rows.map((r) => ({ id: r.id, wrapped: r.sealedToken! }));
  }

  /** Compare-and-set of one sealed token, under the row's lock (text columns compare alike everywhere then). */
  async replaceSealedToken(manager: EntityManager, id: string, from: string, to: string): Promise<boolean> {
    if (!(await this.lock(manager, id))) return false;
    const row = await this.findById(id, manager);
    if (row?.sealedToken !== from) return false;
    await this.update(manager, id, { sealedToken: to });
    return true;
  }
}
