import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, In, Repository } from 'typeorm';
import { paginate, Page } from '../../common/sql/paginate';
import { PageParams } from '../../common/jsonapi/pagination';
import { RegistryGpgKeyEntity } from '../entities/registry-gpg-key.entity';

@Injectable()
export class GpgKeysRepository {
  constructor(
    @InjectRepository(RegistryGpgKeyEntity) private readonly repo: Repository<RegistryGpgKeyEntity>,
  ) {}

  /** The key `keyId` (any case) of an organization's namespace. */
  find(organizationId: string, keyId: string, manager?: EntityManager): Promise<RegistryGpgKeyEntity | null> {
    const repo = manager ? manager.getRepository(RegistryGpgKeyEntity) : this.repo;
    return repo.findOne({ where: { organizationId, keyId: keyId.toUpperCase() } });
  }

  list(organizationIds: string[], page: PageParams): Promise<Page<RegistryGpgKeyEntity>> {
    const qb = this.repo
      .createQueryBuilder('k')
      .where({ organizationId: In(organizationIds) })
      .orderBy('k.created_at', 'ASC')
      .addOrderBy('k.id', 'ASC');
    return paginate(qb, page);
  }

  async insert(manager: EntityManager, key: RegistryGpgKeyEntity): Promise<void> {
    // A copy: on MariaDB, INSERT … RETURNING writes raw column values (0/1 for booleans) back into it.
    await manager.getRepository(RegistryGpgKeyEntity).insert({ ...key });
  }

  async save(manager: EntityManager, key: RegistryGpgKeyEntity): Promise<void> {
    await manager.getRepository(RegistryGpgKeyEntity).save(key);
  }

  async delete(manager: EntityManager, id: string): Promise<void> {
    await manager.getRepository(RegistryGpgKeyEntity).delete({ id });
  }
}
