import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Principal } from '../../common/auth/principal';
import { Clock } from '../../common/clock';
import { whenDuplicate } from '../../common/errors/db-errors';
import { notFound, taken } from '../../common/errors/domain-error';
import { newId } from '../../common/ids';
import { ParsedBody } from '../../common/jsonapi/body';
import { ResourceObject } from '../../common/jsonapi/document';
import { inTransaction } from '../../common/sql/transaction';
import { BlobStore } from '../../storage/blob-store';
import { RegistryModuleVersionEntity } from '../entities/registry-module-version.entity';
import { blobKeys, RegistryLinks } from '../registry-links';
import { CreateModuleVersionAttributes } from './module-attributes.dto';
import { ModuleVersionsRepository } from './module-versions.repository';
import { RegistryModulesRepository } from './registry-modules.repository';
import { ModuleContext, ModulePath, RegistryModulesService } from './registry-modules.service';
import { modulePath, serializeModuleVersion } from './registry-modules.serializer';

export interface ModuleVersionContext extends ModuleContext {
  version: RegistryModuleVersionEntity;
}

@Injectable()
export class ModuleVersionsService {
  constructor(
    private readonly repo: ModuleVersionsRepository,
    private readonly modulesRepo: RegistryModulesRepository,
    private readonly modules: RegistryModulesService,
    private readonly links: RegistryLinks,
    private readonly blobs: BlobStore,
    private readonly clock: Clock,
    @InjectDataSource() private readonly ds: DataSource,
  ) {}

  /** The version's resource; the upload link only for publishers, while the archive is awaited. */
  resource(origin: string, ctx: ModuleVersionContext): ResourceObject {
    const upload =
      ctx.canManage && ctx.version.status === 'pending'
        ? this.links.moduleUpload(origin, ctx.version.id)
        : null;
    return serializeModuleVersion(ctx.version, modulePath(ctx.organization.name, ctx.module), upload);
  }

  async read(p: Principal, path: ModulePath, version: string | undefined): Promise<ModuleVersionContext> {
    const ctx = await this.modules.requirePrivate(p, path, 'read');
    const found = version ? await this.repo.find(ctx.module.id, version) : null;
    if (!found) throw notFound();
    return { ...ctx, version: found };
  }

  /**
   * A new `pending` version. Writers of one module's versions hold its row lock, so a create
   * racing the delete of the module's last version either sees the module or answers 404;
   * identical concurrent creates end as one row (the unique index) and 422s.
   */
  async create(
    p: Principal,
    path: ModulePath,
    body: ParsedBody<CreateModuleVersionAttributes>,
  ): Promise<ModuleVersionContext> {
    const ctx = await this.modules.requirePrivate(p, path, 'manage');
    const now = this.clock.now();
    const version = Object.assign(new RegistryModuleVersionEntity(), {
      id: newId('modver'),
      moduleId: ctx.module.id,
      version: body.attributes.version,
      status: 'pending',
      error: null,
      archiveBlob: null,
      archiveSize: null,
      archiveSha256: null,
      createdAt: now,
      updatedAt: now,
    });
    await whenDuplicate(
      () =>
        inTransaction(this.ds, async (manager) => {
          if (!(await this.modulesRepo.lock(manager, ctx.module.id))) throw notFound();
          await this.repo.insert(manager, version);
        }),
      () => taken('version'),
    );
    return { ...ctx, version };
  }

  /**
   * Deletes the version (and, as the reference does, the module when it was its last version) in
   * one transaction, then every blob under the version's (or module's) prefix. Rows go first, so
   * no row ever points at a missing blob; a crash in between leaves only unreferenced files.
   */
  async delete(p: Principal, path: ModulePath, version: string): Promise<void> {
    const ctx = await this.modules.requirePrivate(p, path, 'manage');
    const target = await this.repo.find(ctx.module.id, version);
    if (!target) throw notFound();
    const moduleGone = await inTransaction(this.ds, async (manager) => {
      if (!(await this.modulesRepo.lock(manager, ctx.module.id))) throw notFound();
      if (!(await this.repo.delete(manager, target.id))) throw notFound();
      if ((await this.repo.count(manager, ctx.module.id)) > 0) return false;
      await this.modulesRepo.delete(manager, [ctx.module.id]);
      return true;
    });
    await this.blobs.deletePrefix(
      moduleGone ? blobKeys.module(ctx.module.id) : blobKeys.moduleVersion(ctx.module.id, target.id),
    );
  }
}
