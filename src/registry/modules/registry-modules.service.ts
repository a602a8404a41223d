import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Principal } from '../../common/auth/principal';
import { forbidden, notFound } from '../../common/errors/domain-error';
import { newId } from '../../common/ids';
import { ParsedBody } from '../../common/jsonapi/body';
import { PageParams } from '../../common/jsonapi/pagination';
import { Page } from '../../common/sql/paginate';
import { inTransaction } from '../../common/sql/transaction';
import type { OrganizationEntity } from '../../organizations/entities/organization.entity';
import { BlobStore } from '../../storage/blob-store';
import { RegistryModuleVersionEntity } from '../entities/registry-module-version.entity';
import { RegistryModuleEntity } from '../entities/registry-module.entity';
import { blobKeys } from '../registry-links';
import { RegistryNamespaces } from '../registry-namespaces';
import { CreateRegistryModuleAttributes } from './module-attributes.dto';
import { ModuleKey, RegistryModulesRepository } from './registry-modules.repository';

/** A module together with what the caller may do with it. */
export interface ModuleContext {
  organization: OrganizationEntity;
  module: RegistryModuleEntity;
  /** Owners and teams with `manage-providers` publish and delete; every member reads. */
  canManage: boolean;
}

export interface ModuleView extends ModuleContext {
  versions: RegistryModuleVersionEntity[];
}

/** A module name of the path: every provider it is published for. */
export interface ModuleNamePath {
  org: string;
  registryName: string;
  namespace: string;
  name: string;
}

export interface ModulePath extends ModuleNamePath {
  provider: string;
}

export interface ModuleListQuery {
  registryName?: string;
  provider?: string;
  name?: string;
  search?: string;
}

@Injectable()
export class RegistryModulesService {
  constructor(
    private readonly repo: RegistryModulesRepository,
    private readonly namespaces: RegistryNamespaces,
    private readonly blobs: BlobStore,
    @InjectDataSource() private readonly ds: DataSource,
  ) {}

  /** The stored identity a path names, for a member of the organization; 404 for anything else. */
  private async key(
    p: Principal,
    path: ModuleNamePath,
  ): Promise<{ organization: OrganizationEntity; key: ModuleKey }> {
    const { organization, registryName, namespace } = await this.namespaces.locate(p, path);
    return {
      organization,
      key: { organizationId: organization.id, registryName, namespace, name: path.name },
    };
  }

  /** The module at a path, for any member of its organization; 404 for everything else. */
  async resolve(p: Principal, path: ModulePath): Promise<ModuleContext> {
    const { organization, key } = await this.key(p, path);
    const module = await this.repo.find(key, path.provider);
    if (!module) throw notFound();
    return { organization, module, canManage: await this.namespaces.canManage(p, organization) };
  }

  /**
   * The private module whose versions a route works on: 403 for a public one (it has none here),
   * 404 when missing, and 404 for `manage` to callers who may only read.
   */
  async requirePrivate(p: Principal, path: ModulePath, need: 'read' | 'manage'): Promise<ModuleContext> {
    const ctx = await this.resolve(p, path);
    if (ctx.module.registryName !== 'private') {
      throw forbidden('versions are not available for public modules');
    }
    if (need === 'manage' && !ctx.canManage) throw notFound();
    return ctx;
  }

  async show(p: Principal, path: ModulePath): Promise<ModuleView> {
    const ctx = await this.resolve(p, path);
    return { ...ctx, versions: await this.repo.versionsOf([ctx.module.id]) };
  }

  async list(
    p: Principal,
    orgName: string,
    query: ModuleListQuery,
    page: PageParams,
  ): Promise<Page<ModuleView>> {
    const { organization, filter } = await this.namespaces.listScope(p, orgName, query);
    const result = await this.repo.list(
      { ...filter, provider: query.provider, name: query.name?.trim() || undefined },
      page,
    );
    const versions = await this.repo.versionsOf(result.items.map((m) => m.id));
    const canManage = await this.namespaces.canManage(p, organization);
    const items = result.items.map((module) => ({
      organization,
      module,
      canManage,
      versions: versions.filter((v) => v.moduleId === module.id),
    }));
    return { ...result, items };
  }

  async create(
    p: Principal,
    orgName: string,
    body: ParsedBody<CreateRegistryModuleAttributes>,
  ): Promise<ModuleView> {
    const attrs = body.attributes;
    const { organization, registryName, namespace } = await this.namespaces.placeForCreate(
      p,
      orgName,
      attrs,
      'modules',
    );
    const now = new Date();
    const module = Object.assign(new RegistryModuleEntity(), {
      id: newId('mod'),
      organizationId: organization.id,
      registryName,
      namespace,
      name: attrs.name,
      provider: attrs.provider,
      createdAt: now,
      updatedAt: now,
    });
    await this.namespaces.insertNew((manager) => this.repo.insert(manager, module));
    return { organization, module, canManage: true, versions: [] };
  }

  /**
   * Deletes one provider of a module with its versions (one transaction; foreign keys cascade),
   * then every stored archive under its prefix. Rows go first, so no row ever points at a missing
   * blob; a crash in between leaves only unreferenced files no link can reach. A public module is
   * deleted only as a whole name, as the reference has it.
   */
  async deleteProvider(p: Principal, path: ModulePath): Promise<void> {
    const ctx = await this.resolve(p, path);
    if (!ctx.canManage || ctx.module.registryName !== 'private') throw notFound();
    await this.remove([ctx.module]);
  }

  /** Deletes every provider of a module name, their versions and archives. */
  async deleteName(p: Principal, path: ModuleNamePath): Promise<void> {
    const { organization, key } = await this.key(p, path);
    if (!(await this.namespaces.canManage(p, organization))) throw notFound();
    const modules = await this.repo.findAllProviders(key);
    if (!modules.length) throw notFound();
    await this.remove(modules);
  }

  private async remove(modules: RegistryModuleEntity[]): Promise<void> {
    await inTransaction(this.ds, (manager) =>
      this.repo.delete(
        manager,
        modules.map((m) => m.id),
      ),
    );
    for (const m of modules) await this.blobs.deletePrefix(blobKeys.module(m.id));
  }
}
