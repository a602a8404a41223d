import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, In, Repository } from 'typeorm';
import { paginate, Page } from '../../common/sql/paginate';
import { PageParams } from '../../common/jsonapi/pagination';
import { RegistryProviderPlatformEntity } from '../entities/registry-provider-platform.entity';

@Injectable()
export class ProviderPlatformsRepository {
  constructor(
    @InjectRepository(RegistryProviderPlatformEntity)
    private readonly repo: Repository<RegistryProviderPlatformEntity>,
  ) {}

  findById(id: string, manager?: EntityManager): Promise<RegistryProviderPlatformEntity | null> {
    const repo = manager ? manager.getRepository(RegistryProviderPlatformEntity) : this.repo;
    return repo.findOne({ where: { id } });
  }

  find(versionId: string, os: string, arch: string): Promise<RegistryProviderPlatformEntity | null> {
    return this.repo.findOne({ where: { versionId, os, arch } });
  }

  findByVersion(manager: EntityManager, versionId: string): Promise<RegistryProviderPlatformEntity[]> {
    return manager.getRepository(RegistryProviderPlatformEntity).find({ where: { versionId } });
  }

  list(versionId: string, page: PageParams): Promise<Page<RegistryProviderPlatformEntity>> {
    const qb = this.repo
      .createQueryBuilder('pl')
      .where('pl.version_id = :versionId', { versionId })
      .orderBy('pl.created_at', 'ASC')
      .addOrderBy('pl.id', 'ASC');
    return paginate(qb, page);
  }

  /** Platform ids per version, one query for any number of versions. */
  async idsByVersion(versionIds: string[]): Promise<Map<string, string[]>> {
    const out = new Map<string, string[]>(versionIds.map((id) => [id, []]));
    if (!versionIds.length) return out;
    const rows = await this.repo.find({
      select: { id: true, versionId: true },
      where: { versionId: In(versionIds) },
      order: { createdAt: 'ASC', id: 'ASC' },
    });
    for (const r of rows) out.get(r.versionId)?.push(r.id);
    return out;
  }

  async insert(manager: EntityManager, platform: RegistryProviderPlatformEntity): Promise<void> {
    // A copy: on MariaDB, INSERT … RETURNING writes raw column values (0/1 for booleans) back into it.
    await manager.getRepository(RegistryProviderPlatformEntity).insert({ ...platform });
  }

  async save(manager: EntityManager, platform: RegistryProviderPlatformEntity): Promise<void> {
    await manager.getRepository(RegistryProviderPlatformEntity).save(platform);
  }

  async delete(manager: EntityManager, id: string): Promise<void> {
    await manager.getRepository(RegistryProviderPlatformEntity).delete({ id });
  }
}
