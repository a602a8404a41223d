import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Principal } from '../../common/auth/principal';
import { Page } from '../../common/sql/paginate';
import { inTransaction } from '../../common/sql/transaction';
import { whenDuplicate } from '../../common/errors/db-errors';
import { notFound, taken } from '../../common/errors/domain-error';
import { ParsedBody } from '../../common/jsonapi/body';
import { ResourceObject } from '../../common/jsonapi/document';
import { PageParams } from '../../common/jsonapi/pagination';
import { newId } from '../../common/ids';
import { BlobStore } from '../../storage/blob-store';
import { RegistryProviderVersionEntity } from '../entities/registry-provider-version.entity';
import {
  ProviderContext,
  ProviderPath,
  RegistryProvidersService,
} from '../providers/registry-providers.service';
import { providerPath } from '../providers/registry-providers.serializer';
import { blobKeys, RegistryLinks } from '../registry-links';
import { ProviderPlatformsRepository } from './provider-platforms.repository';
import { CreateProviderVersionAttributes, PROTOCOLS } from './provider-version-attributes.dto';
import { ProviderVersionsRepository } from './provider-versions.repository';
import { serializeVersion } from './provider-versions.serializer';

export interface VersionPath extends ProviderPath {
  version: string;
}

export interface VersionContext extends ProviderContext {
  version: RegistryProviderVersionEntity;
}

@Injectable()
export class ProviderVersionsService {
  constructor(
    private readonly repo: ProviderVersionsRepository,
    private readonly platforms: ProviderPlatformsRepository,
    private readonly providers: RegistryProvidersService,
    private readonly links: RegistryLinks,
    private readonly blobs: BlobStore,
    @InjectDataSource() private readonly ds: DataSource,
  ) {}

  /** The version at a path: 403 on a public provider, 404 when anything is missing or not allowed. */
  async resolve(p: Principal, path: VersionPath, need: 'read' | 'manage'): Promise<VersionContext> {
    const ctx = await this.providers.requirePrivate(p, path, need);
    const version = await this.repo.find(ctx.provider.id, path.version);
    if (!version) throw notFound();
    return { ...ctx, version };
  }

  /** Serialized versions of one or more providers, with platform ids (one query) and links. */
  async resources(
    origin: string,
    groups: { ctx: ProviderContext; versions: RegistryProviderVersionEntity[] }[],
  ): Promise<ResourceObject[]> {
    const platformIds = await this.platforms.idsByVersion(groups.flatMap((g) => g.versions.map((v) => v.id)));
    return groups.flatMap(({ ctx, versions }) => {
      const path = providerPath(ctx.organization.name, 'private', ctx.namespace, ctx.provider.name);
      return versions.map((v) =>
        serializeVersion(v, {
          providerId: ctx.provider.id,
          providerPath: path,
          canManage: ctx.canManage,
          platformIds: platformIds.get(v.id) ?? [],
          links: this.links.version(origin, v, ctx.canManage),
        }),
      );
    });
  }

  async list(
    p: Principal,
    path: ProviderPath,
    page: PageParams,
  ): Promise<{ ctx: ProviderContext; page: Page<RegistryProviderVersionEntity> }> {
    const ctx = await this.providers.requirePrivate(p, path, 'read');
    return { ctx, page: await this.repo.list(ctx.provider.id, page) };
  }

  async create(
    p: Principal,
    path: ProviderPath,
    body: ParsedBody<CreateProviderVersionAttributes>,
  ): Promise<VersionContext> {
    const ctx = await this.providers.requirePrivate(p, path, 'manage');
    const attrs = body.attributes;
    const now = new Date();
    const version = Object.assign(new RegistryProviderVersionEntity(), {
      id: newId('provver'),
      providerId: ctx.provider.id,
      version: attrs.version,
      keyId: attrs['key-id'],
      protocols: PROTOCOLS.filter((x) => attrs.protocols.includes(x)),
      shasumsUploaded: false,
      shasumsSigUploaded: false,
      shasumsBlob: null,
      shasumsSigBlob: null,
      signatureState: 'unverified',
      usable: false,
      createdAt: now,
      updatedAt: now,
    });
    await whenDuplicate(
      () => inTransaction(this.ds, (manager) => this.repo.insert(manager, version)),
      () => taken('version'),
    );
    return { ...ctx, version };
  }

  /**
   * Deletes the version with its platforms and checksum lines (one transaction; foreign keys
   * cascade), then every blob under its prefix. Rows go first, so no row ever points at a missing
   * blob; a crash in between leaves only unreferenced files, which no link can reach.
   */
  async delete(p: Principal, path: VersionPath): Promise<void> {
    const ctx = await this.resolve(p, path, 'manage');
    await inTransaction(this.ds, (manager) => this.repo.delete(manager, ctx.version.id));
    await this.blobs.deletePrefix(blobKeys.version(ctx.provider.id, ctx.version.id));
  }
}
