import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Principal } from '../../common/auth/principal';
import { Page } from '../../common/sql/paginate';
import { inTransaction } from '../../common/sql/transaction';
import { whenDuplicate } from '../../common/errors/db-errors';
import { invalid, notFound } from '../../common/errors/domain-error';
import { ParsedBody } from '../../common/jsonapi/body';
import { ResourceObject } from '../../common/jsonapi/document';
import { PageParams } from '../../common/jsonapi/pagination';
import { newId } from '../../common/ids';
import { BlobStore } from '../../storage/blob-store';
import { RegistryProviderPlatformEntity } from '../entities/registry-provider-platform.entity';
import { blobKeys, RegistryLinks } from '../registry-links';
import { RegistryReadinessService } from '../uploads/registry-readiness.service';
import { ProviderPlatformsRepository } from './provider-platforms.repository';
import { CreateProviderPlatformAttributes } from './provider-version-attributes.dto';
import { platformsPath, serializePlatform } from './provider-versions.serializer';
import { providerPath } from '../providers/registry-providers.serializer';
import { ProviderVersionsService, VersionContext, VersionPath } from './provider-versions.service';

export interface PlatformPath extends VersionPath {
  os: string;
  arch: string;
}

export interface PlatformView {
  ctx: VersionContext;
  platform: RegistryProviderPlatformEntity;
}

@Injectable()
export class ProviderPlatformsService {
  constructor(
    private readonly repo: ProviderPlatformsRepository,
    private readonly versions: ProviderVersionsService,
    private readonly readiness: RegistryReadinessService,
    private readonly links: RegistryLinks,
    private readonly blobs: BlobStore,
    @InjectDataSource() private readonly ds: DataSource,
  ) {}

  resource(origin: string, ctx: VersionContext, platform: RegistryProviderPlatformEntity): ResourceObject {
    const provider = providerPath(ctx.organization.name, 'private', ctx.namespace, ctx.provider.name);
    const self = `${platformsPath(provider, ctx.version.version)}/${platform.os}/${platform.arch}`;
    return serializePlatform(platform, ctx.canManage, {
      self,
      ...this.links.platform(origin, platform, ctx.canManage),
    });
  }

  /** The platform at a path: 403 on a public provider, 404 when missing or not allowed. */
  async show(p: Principal, path: PlatformPath, need: 'read' | 'manage' = 'read'): Promise<PlatformView> {
    const ctx = await this.versions.resolve(p, path, need);
    const platform = await this.repo.find(ctx.version.id, path.os, path.arch);
    if (!platform) throw notFound();
    return { ctx, platform };
  }

  async list(
    p: Principal,
    path: VersionPath,
    page: PageParams,
  ): Promise<{ ctx: VersionContext; page: Page<RegistryProviderPlatformEntity> }> {
    const ctx = await this.versions.resolve(p, path, 'read');
    return { ctx, page: await this.repo.list(ctx.version.id, page) };
  }

  /** A new platform has no binary yet, so it cannot change whether its version is usable. */
  async create(
    p: Principal,
    path: VersionPath,
    body: ParsedBody<CreateProviderPlatformAttributes>,
  ): Promise<PlatformView> {
    const ctx = await this.versions.resolve(p, path, 'manage');
    const attrs = body.attributes;
    const now = new Date();
    const platform = Object.assign(new RegistryProviderPlatformEntity(), {
      id: newId('provpltfrm'),
      versionId: ctx.version.id,
      os: attrs.os,
      arch: attrs.arch,
      shasum: attrs.shasum,
      filename: attrs.filename,
      providerBinaryUploaded: false,
      binaryBlob: null,
      ready: false,
      createdAt: now,
      updatedAt: now,
    });
    await whenDuplicate(
      () => inTransaction(this.ds, (manager) => this.repo.insert(manager, platform)),
      () =>
        invalid(
          `A platform for ${attrs.os}/${attrs.arch} already exists for this version`,
          '/data/attributes/os',
          'PLATFORM_TAKEN',
        ),
      () => notFound(),
    );
    return { ctx, platform };
  }

  /** Removes the row and recomputes the version's usability in one transaction, then the blob. */
  async delete(p: Principal, path: PlatformPath): Promise<void> {
    const { ctx, platform } = await this.show(p, path, 'manage');
    await inTransaction(this.ds, async (manager) => {
      const version = await this.readiness.lockVersion(manager, ctx.version.id);
      await this.repo.delete(manager, platform.id);
      await this.readiness.refresh(manager, version);
    });
    await this.blobs.deletePrefix(blobKeys.platform(ctx.provider.id, ctx.version.id, platform.id));
  }
}
