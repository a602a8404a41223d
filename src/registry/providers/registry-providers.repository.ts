import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Brackets, EntityManager, Repository } from 'typeorm';
import { likeCondition, likePattern } from '../../common/sql/like';
import { paginate, Page } from '../../common/sql/paginate';
import { PageParams } from '../../common/jsonapi/pagination';
import { RegistryName, RegistryProviderEntity } from '../entities/registry-provider.entity';

export interface ProviderListFilter {
  organizationId: string;
  registryName?: RegistryName;
  search?: string;
  /** The search also matches the organization's name, i.e. the namespace of its private providers. */
  searchMatchesOrganization?: boolean;
}

@Injectable()
export class RegistryProvidersRepository {
  constructor(
    @InjectRepository(RegistryProviderEntity) private readonly repo: Repository<RegistryProviderEntity>,
  ) {}

  findById(id: string): Promise<RegistryProviderEntity | null> {
    return this.repo.findOne({ where: { id } });
  }

  /** `namespace` is the stored one: empty for private providers. */
  find(
    organizationId: string,
    registryName: RegistryName,
    namespace: string,
    name: string,
  ): Promise<RegistryProviderEntity | null> {
    return this.repo.findOne({ where: { organizationId, registryName, namespace, name } });
  }

  list(filter: ProviderListFilter, page: PageParams): Promise<Page<RegistryProviderEntity>> {
    const qb = this.repo
      .createQueryBuilder('p')
      .where('p.organization_id = :org', { org: filter.organizationId })
      .orderBy('p.name', 'ASC')
      .addOrderBy('p.registry_name', 'ASC')
      .addOrderBy('p.namespace', 'ASC')
      .addOrderBy('p.id', 'ASC');
    if (filter.registryName) qb.andWhere('p.registry_name = :registry', { registry: filter.registryName });
    if (filter.search) {
      qb.andWhere(
        new Brackets((w) => {
          w.where(likeCondition('p.name', 'q')).orWhere(likeCondition('p.namespace', 'q'));
          if (filter.searchMatchesOrganization) w.orWhere("p.registry_name = 'private'");
        }),
        { q: likePattern(filter.search) },
      );
    }
    return paginate(qb, page);
  }

  async insert(manager: EntityManager, provider: RegistryProviderEntity): Promise<void> {
    // A copy: on MariaDB, INSERT … RETURNING writes raw column values (0/1 for booleans) back into it.
    await manager.getRepository(RegistryProviderEntity).insert({ ...provider });
  }

  async delete(manager: EntityManager, id: string): Promise<void> {
    await manager.getRepository(RegistryProviderEntity).delete({ id });
  }
}
