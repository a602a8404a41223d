import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, In, Repository } from 'typeorm';
import { paginate, Page } from '../../common/sql/paginate';
import { lockRow } from '../../common/sql/transaction';
import { PageParams } from '../../common/jsonapi/pagination';
import { RegistryProviderChecksumEntity } from '../entities/registry-provider-checksum.entity';
import { RegistryProviderEntity } from '../entities/registry-provider.entity';
import { RegistryProviderVersionEntity } from '../entities/registry-provider-version.entity';

/** Rows per INSERT when storing SHA256SUMS lines. */
const CHECKSUM_BATCH = 500;

@Injectable()
export class ProviderVersionsRepository {
  constructor(
    @InjectRepository(RegistryProviderVersionEntity)
    private readonly repo: Repository<RegistryProviderVersionEntity>,
  ) {}

  findById(id: string, manager?: EntityManager): Promise<RegistryProviderVersionEntity | null> {
    const repo = manager ? manager.getRepository(RegistryProviderVersionEntity) : this.repo;
    return repo.findOne({ where: { id } });
  }

  find(providerId: string, version: string): Promise<RegistryProviderVersionEntity | null> {
    return this.repo.findOne({ where: { providerId, version } });
  }

  findByProviders(providerIds: string[]): Promise<RegistryProviderVersionEntity[]> {
    if (!providerIds.length) return Promise.resolve([]);
    return this.repo.find({
      where: { providerId: In(providerIds) },
      order: { createdAt: 'ASC', id: 'ASC' },
    });
  }

  list(providerId: string, page: PageParams): Promise<Page<RegistryProviderVersionEntity>> {
    const qb = this.repo
      .createQueryBuilder('v')
      .where('v.provider_id = :providerId', { providerId })
      .orderBy('v.created_at', 'ASC')
      .addOrderBy('v.id', 'ASC');
    return paginate(qb, page);
  }

  /** Versions of the organization's private providers that name `keyId` and have both files. */
  findSignedWith(organizationId: string, keyId: string): Promise<RegistryProviderVersionEntity[]> {
    return this.repo
      .createQueryBuilder('v')
      .innerJoin(RegistryProviderEntity, 'p', 'p.id = v.provider_id')
      .where('p.organization_id = :organizationId', { organizationId })
      .andWhere("p.registry_name = 'private'")
      .andWhere('UPPER(v.key_id) = :keyId', { keyId: keyId.toUpperCase() })
      .andWhere('v.shasums_uploaded = :yes AND v.shasums_sig_uploaded = :yes', { yes: true })
      .getMany();
  }

  /** Serialises every writer of one version (uploads, platform changes, signature checks). */
  async lock(manager: EntityManager, id: string): Promise<boolean> {
    return lockRow(manager, RegistryProviderVersionEntity, id);
  }

  async insert(manager: EntityManager, version: RegistryProviderVersionEntity): Promise<void> {
    // A copy: on MariaDB, INSERT … RETURNING writes raw column values (0/1 for booleans) back into it.
    await manager.getRepository(RegistryProviderVersionEntity).insert({ ...version });
  }

  async save(manager: EntityManager, version: RegistryProviderVersionEntity): Promise<void> {
    await manager.getRepository(RegistryProviderVersionEntity).save(version);
  }

  async delete(manager: EntityManager, id: string): Promise<void> {
    await manager.getRepository(RegistryProviderVersionEntity).delete({ id });
  }

  async insertChecksums(
    manager: EntityManager,
    versionId: string,
    entries: Map<string, string>,
  ): Promise<void> {
    const rows = [...entries].map(([filename, sha256]) => ({ versionId, filename, sha256 }));
    for (let i = 0; i < rows.length; i += CHECKSUM_BATCH) {
      await manager.getRepository(RegistryProviderChecksumEntity).insert(rows.slice(i, i + CHECKSUM_BATCH));
    }
  }

  /** The SHA256SUMS lines of a version for the given filenames. */
  async checksums(
    manager: EntityManager,
    versionId: string,
    filenames: string[],
  ): Promise<Map<string, string>> {
    if (!filenames.length) return new Map();
    const rows = await manager.getRepository(RegistryProviderChecksumEntity).find({
      where: { versionId, filename: In([...new Set(filenames)]) },
    });
    return new Map(rows.map((r) => [r.filename, r.sha256]));
  }
}
