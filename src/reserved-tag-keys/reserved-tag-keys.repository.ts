import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Repository } from 'typeorm';
import { paginate, Page } from '../common/sql/paginate';
import { PageParams } from '../common/jsonapi/pagination';
import { ReservedTagKeyEntity } from './entities/reserved-tag-key.entity';

@Injectable()
export class ReservedTagKeysRepository {
  constructor(
    @InjectRepository(ReservedTagKeyEntity) private readonly repo: Repository<ReservedTagKeyEntity>,
  ) {}

  findById(id: string): Promise<ReservedTagKeyEntity | null> {
    return this.repo.findOne({ where: { id } });
  }

  list(organizationId: string, page: PageParams): Promise<Page<ReservedTagKeyEntity>> {
    const qb = this.repo
      .createQueryBuilder('k')
      .where('k.organization_id = :organizationId', { organizationId })
      .orderBy('k.key', 'ASC')
      .addOrderBy('k.id', 'ASC');
    return paginate(qb, page);
  }

  /** Another key of the organization equal to `key` ignoring case, the same way on both dialects. */
  findClash(
    manager: EntityManager,
    organizationId: string,
    key: string,
    exceptId: string,
  ): Promise<ReservedTagKeyEntity | null> {
    const qb = manager.getRepository(ReservedTagKeyEntity).createQueryBuilder('k');
    return qb
      .where('k.organization_id = :organizationId', { organizationId })
      .andWhere(`LOWER(k.${qb.escape('key')}) = :key`, { key: key.toLowerCase() })
      .andWhere('k.id <> :exceptId', { exceptId })
      .getOne();
  }

  /** The keys (lower-cased) among `lowerKeys` that the organization reserved with overrides disabled. */
  async overrideLocked(
    manager: EntityManager,
    organizationId: string,
    lowerKeys: string[],
  ): Promise<string[]> {
    if (!lowerKeys.length) return [];
    const qb = manager.getRepository(ReservedTagKeyEntity).createQueryBuilder('k');
    const rows = await qb
      .select('k.key', 'key')
      .where('k.organization_id = :organizationId', { organizationId })
      .andWhere('k.disable_overrides = :yes', { yes: true })
      .andWhere(`LOWER(k.${qb.escape('key')}) IN (:...keys)`, { keys: lowerKeys })
      .getRawMany<{ key: string }>();
    return rows.map((r) => r.key.toLowerCase());
  }

  save(manager: EntityManager, key: ReservedTagKeyEntity): Promise<ReservedTagKeyEntity> {
    return manager.getRepository(ReservedTagKeyEntity).save(key);
  }

  async delete(manager: EntityManager, id: string): Promise<void> {
    await manager.getRepository(ReservedTagKeyEntity).delete({ id });
  }
}
