import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Repository } from 'typeorm';
import { paginate, Page } from '../common/database/paginate';
import { PageParams } from '../common/jsonapi/pagination';
import { TeamEntity } from '../teams/entities/team.entity';
import { TeamMembershipEntity } from '../teams/entities/team-membership.entity';
import { OrganizationEntity } from './entities/organization.entity';

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

  /** All organizations (site administrators), or those the user belongs to through a team. */
  listVisible(
    scope: { all: true } | { userId: string } | { organizationId: string },
    page: PageParams,
  ): Promise<Page<OrganizationEntity>> {
    const qb = this.repo.createQueryBuilder('o').orderBy('o.name', 'ASC');
    if ('userId' in scope) {
      qb.where((sub) => {
        const inner = sub
          .subQuery()
          .select('t.organization_id')
          .from(TeamEntity, 't')
          .innerJoin(TeamMembershipEntity, 'm', 'm.team_id = t.id')
          .where('m.user_id = :userId', { userId: scope.userId })
          .getQuery();
        return `o.id IN ${inner}`;
      });
    } else if ('organizationId' in scope) {
      qb.where('o.id = :id', { id: scope.organizationId });
    }
    return paginate(qb, page);
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
