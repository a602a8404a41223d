import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Brackets, EntityManager, In, Repository, SelectQueryBuilder } from 'typeorm';
import { PageParams } from '../common/jsonapi/pagination';
import { likeCondition, likePattern } from '../common/sql/like';
import { lockRow } from '../common/sql/transaction';
import { Page, paginate } from '../common/sql/paginate';
import { UserEntity } from './entities/user.entity';

/** What the site administrators' user list narrows by; every member is optional. */
export interface UserFilter {
  /** Part of the username or email, case-insensitive. */
  search?: string;
  /** The exact username, case-insensitive. */
  username?: string;
  admin?: boolean;
  suspended?: boolean;
}

export interface UserStatusCounts {
  total: number;
  suspended: number;
  admin: number;
}

@Injectable()
export class UsersRepository {
  constructor(@InjectRepository(UserEntity) private readonly repo: Repository<UserEntity>) {}

  findById(id: string): Promise<UserEntity | null> {
    return this.repo.findOne({ where: { id } });
  }

  /** Users whose id or username is among `refs`, one query. */
  findByIdsOrUsernames(refs: string[]): Promise<UserEntity[]> {
    if (!refs.length) return Promise.resolve([]);
    return this.repo.find({ where: [{ id: In(refs) }, { username: In(refs) }] });
  }

  findByIds(ids: string[]): Promise<UserEntity[]> {
    return ids.length ? this.repo.find({ where: { id: In(ids) } }) : Promise.resolve([]);
  }

  async anySiteAdmin(manager?: EntityManager): Promise<boolean> {
    const repo = manager ? manager.getRepository(UserEntity) : this.repo;
    return (await repo.count({ where: { isSiteAdmin: true } })) > 0;
  }

  list(filter: UserFilter, page: PageParams): Promise<Page<UserEntity>> {
    const qb = this.repo.createQueryBuilder('u');
    narrow(qb, filter);
    return paginate(qb.orderBy('u.username', 'ASC').addOrderBy('u.id', 'ASC'), page);
  }

  /** The installation's totals (not the filtered ones), as the real service's `status-counts`. */
  async statusCounts(): Promise<UserStatusCounts> {
    const row = await this.repo
      .createQueryBuilder('u')
      .select('COUNT(*)', 'total')
      .addSelect('COALESCE(SUM(CASE WHEN u.is_suspended = 1 THEN 1 ELSE 0 END), 0)', 'suspended')
      .addSelect('COALESCE(SUM(CASE WHEN u.is_site_admin = 1 THEN 1 ELSE 0 END), 0)', 'admin')
      .getRawOne<Record<keyof UserStatusCounts, unknown>>();
    return {
      total: Number(row?.total ?? 0),
      suspended: Number(row?.suspended ?? 0),
      admin: Number(row?.admin ?? 0),
    };
  }

  findByUsername(username: string): Promise<UserEntity | null> {
    return this.repo.findOne({ where: { username } });
  }

  /** Reads the user row under a write lock for the rest of the transaction. */
  async lock(manager: EntityManager, id: string): Promise<UserEntity | null> {
    if (!(await lockRow(manager, UserEntity, id))) return null;
    return manager.getRepository(UserEntity).findOne({ where: { id } });
  }

  async update(manager: EntityManager, id: string, changes: Partial<UserEntity>): Promise<void> {
    await manager.getRepository(UserEntity).update({ id }, changes);
  }

  async deleteById(manager: EntityManager, id: string): Promise<void> {
    await manager.getRepository(UserEntity).delete({ id });
  }

  insert(manager: EntityManager, user: UserEntity): Promise<UserEntity> {
    return manager.getRepository(UserEntity).save(user);
  }
}

function narrow(qb: SelectQueryBuilder<UserEntity>, filter: UserFilter): void {
  if (filter.search) {
    const pattern = likePattern(filter.search);
    qb.andWhere(
      new Brackets((w) =>
        w
          .where(likeCondition('u.username', 'search'), { search: pattern })
          .orWhere(likeCondition('u.email', 'search'), { search: pattern }),
      ),
    );
  }
  if (filter.username !== undefined)
    qb.andWhere('LOWER(u.username) = :username', { username: filter.username.toLowerCase() });
  // Booleans are stored as 1/0 on both dialects.
  if (filter.admin !== undefined) qb.andWhere('u.is_site_admin = :admin', { admin: filter.admin ? 1 : 0 });
  if (filter.suspended !== undefined)
    qb.andWhere('u.is_suspended = :suspended', { suspended: filter.suspended ? 1 : 0 });
}
