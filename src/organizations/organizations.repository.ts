import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Repository } from 'typeorm';
import { IdSubquery } from '../common/sql/id-subquery';
import { paginate, Page } from '../common/sql/paginate';
import { lockRow } from '../common/sql/transaction';
import { PageParams } from '../common/jsonapi/pagination';
import { OrganizationEntity } from './entities/organization.entity';

/** Every organization, those whose ids a subquery selects, or one organization. */
export type OrganizationScope = { all: true } | { idsIn: IdSubquery } | { organizationId: string };

@Injectable()
export class OrganizationsRepository {
  constructor(@InjectRepository(OrganizationEntity) private readonly repo: Repository<OrganizationEntity>) {}

  /**
   * The organization with exactly this name. MySQL compares names case-insensitively; the check
   * after the indexed lookup makes both dialects answer the same.
   */
  async findByName(name: string): Promise<OrganizationEntity | null> {
    const org = await this.repo.findOne({ where: { name } });
    return org?.name === name ? org : null;
  }

  findById(id: string): Promise<OrganizationEntity | null> {
    return this.repo.findOne({ where: { id } });
  }

  listVisible(scope: OrganizationScope, page: PageParams): Promise<Page<OrganizationEntity>> {
    const qb = this.repo.createQueryBuilder('o').orderBy('o.name', 'ASC');
    if ('idsIn' in scope) {
      qb.where(`o.id IN ${scope.idsIn.sql}`, scope.idsIn.parameters);
    } else if ('organizationId' in scope) {
      qb.where('o.id = :id', { id: scope.organizationId });
    }
    return paginate(qb, page);
  }

  lock(manager: EntityManager, id: string): Promise<boolean> {
    return lockRow(manager, OrganizationEntity, id);
  }

  insert(manager: EntityManager, org: OrganizationEntity): Promise<OrganizationEntity> {
    return manager.getRepository(OrganizationEntity).save(org);
  }

  save(manager: EntityManager, org: OrganizationEntity): Promise<OrganizationEntity> {
    return manager.getRepository(OrganizationEntity).save(org);
  }

  async delete(manager: EntityManager, id: string): Promise<void> {
    await manager.getRepository(OrganizationEntity).delete({ id });
  }
}
