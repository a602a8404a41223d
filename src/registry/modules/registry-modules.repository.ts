import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Brackets, EntityManager, In, Repository } from 'typeorm';
import { PageParams } from '../../common/jsonapi/pagination';
import { likeCondition, likePattern } from '../../common/sql/like';
import { paginate, Page } from '../../common/sql/paginate';
import { lockRow } from '../../common/sql/transaction';
import { RegistryModuleVersionEntity } from '../entities/registry-module-version.entity';
import { RegistryModuleEntity } from '../entities/registry-module.entity';
import { RegistryName } from '../entities/registry-provider.entity';

export interface ModuleListFilter {
  organizationId: string;
  registryName?: RegistryName;
  provider?: string;
  /** Substring of the name (`search[name]`). */
  name?: string;
  /** Substring of the name, namespace or provider (`q`). */
  search?: string;
  /** The search also matches the organization's name, i.e. the namespace of its private modules. */
  searchMatchesOrganization?: boolean;
}

/** Identity of a module row: `namespace` is the stored one, empty for private modules. */
export interface ModuleKey {
  organizationId: string;
  registryName: RegistryName;
  namespace: string;
  name: string;
}

@Injectable()
export class RegistryModulesRepository {
  constructor(
    @InjectRepository(RegistryModuleEntity) private readonly repo: Repository<RegistryModuleEntity>,
    @InjectRepository(RegistryModuleVersionEntity)
    private readonly versions: Repository<RegistryModuleVersionEntity>,
  ) {}

  findById(id: string): Promise<RegistryModuleEntity | null> {
    return this.repo.findOne({ where: { id } });
  }

  find(key: ModuleKey, provider: string): Promise<RegistryModuleEntity | null> {
    return this.repo.findOne({ where: { ...key, provider } });
  }

  /** Every provider of one module name. */
  findAllProviders(key: ModuleKey): Promise<RegistryModuleEntity[]> {
    return this.repo.find({ where: { ...key }, order: { provider: 'ASC' } });
  }

  list(filter: ModuleListFilter, page: PageParams): Promise<Page<RegistryModuleEntity>> {
    const qb = this.repo
      .createQueryBuilder('m')
      .where('m.organization_id = :org', { org: filter.organizationId })
      .orderBy('m.name', 'ASC')
      .addOrderBy('m.provider', 'ASC')
      .addOrderBy('m.registry_name', 'ASC')
      .addOrderBy('m.namespace', 'ASC')
      .addOrderBy('m.id', 'ASC');
    if (filter.registryName) qb.andWhere('m.registry_name = :registry', { registry: filter.registryName });
    if (filter.provider !== undefined) qb.andWhere('m.provider = :provider', { provider: filter.provider });
    if (filter.name) qb.andWhere(likeCondition('m.name', 'name'), { name: likePattern(filter.name) });
    if (filter.search) {
      qb.andWhere(
        new Brackets((w) => {
          w.where(likeCondition('m.name', 'q'))
            .orWhere(likeCondition('m.namespace', 'q'))
            .orWhere(likeCondition('m.provider', 'q'));
          if (filter.searchMatchesOrganization) w.orWhere("m.registry_name = 'private'");
        }),
        { q: likePattern(filter.search) },
      );
    }
    return paginate(qb, page);
  }

  /** Versions of the given modules, oldest first (one query). */
  versionsOf(moduleIds: string[]): Promise<RegistryModuleVersionEntity[]> {
    if (!moduleIds.length) return Promise.resolve([]);
    return this.versions.find({
      where: { moduleId: In(moduleIds) },
      order: { createdAt: 'ASC', id: 'ASC' },
    });
  }

  /** Serialises the writers of one module's versions; false when the module is gone. */
  lock(manager: EntityManager, id: string): Promise<boolean> {
    return lockRow(manager, RegistryModuleEntity, id);
  }

  async insert(manager: EntityManager, module: RegistryModuleEntity): Promise<void> {
    // A copy: on MariaDB, INSERT … RETURNING writes raw column values back into it.
    await manager.getRepository(RegistryModuleEntity).insert({ ...module });
  }

  async delete(manager: EntityManager, ids: string[]): Promise<void> {
    if (ids.length) await manager.getRepository(RegistryModuleEntity).delete({ id: In(ids) });
  }
}
