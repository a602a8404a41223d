import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Principal } from '../../common/auth/principal';
import { Page } from '../../common/sql/paginate';
import { inTransaction } from '../../common/sql/transaction';
import { forbidden, notFound } from '../../common/errors/domain-error';
import { ParsedBody } from '../../common/jsonapi/body';
import { PageParams } from '../../common/jsonapi/pagination';
import { newId } from '../../common/ids';
import type { OrganizationEntity } from '../../organizations/entities/organization.entity';
import { BlobStore } from '../../storage/blob-store';
import { RegistryProviderEntity } from '../entities/registry-provider.entity';
import { RegistryProviderVersionEntity } from '../entities/registry-provider-version.entity';
import { blobKeys } from '../registry-links';
import { RegistryNamespaces, wireNamespace } from '../registry-namespaces';
import { ProviderVersionsRepository } from '../versions/provider-versions.repository';
import { CreateRegistryProviderAttributes } from './registry-provider-attributes.dto';
import { RegistryProvidersRepository } from './registry-providers.repository';

/** A provider together with what the caller may do with it. */
export interface ProviderContext {
  organization: OrganizationEntity;
  provider: RegistryProviderEntity;
  /** The namespace on the wire (the organization name for private providers). */
  namespace: string;
  /** Owners and teams with `manage-providers` create and delete; every member reads. */
  canManage: boolean;
}

export interface ProviderView extends ProviderContext {
  /** Versions of a private provider (always empty for public ones). */
  versions: RegistryProviderVersionEntity[];
}

export interface ProviderPath {
  org: string;
  registryName: string;
  namespace: string;
  name: string;
}

@Injectable()
export class RegistryProvidersService {
  constructor(
    private readonly repo: RegistryProvidersRepository,
    private readonly versions: ProviderVersionsRepository,
    private readonly namespaces: RegistryNamespaces,
    private readonly blobs: BlobStore,
    @InjectDataSource() private readonly ds: DataSource,
  ) {}

  private async context(
    p: Principal,
    organization: OrganizationEntity,
    provider: RegistryProviderEntity,
  ): Promise<ProviderContext> {
    return {
      organization,
      provider,
      namespace: wireNamespace(provider, organization.name),
      canManage: await this.namespaces.canManage(p, organization),
    };
  }

  /** The provider at a path, for any member of its organization; 404 for everything else. */
  async resolve(p: Principal, path: ProviderPath): Promise<ProviderContext> {
    const { organization, registryName, namespace } = await this.namespaces.locate(p, path);
    const provider = await this.repo.find(organization.id, registryName, namespace, path.name);
    if (!provider) throw notFound();
    return this.context(p, organization, provider);
  }

  /**
   * The private provider whose versions and platforms a route works on: 403 for a public one
   * (they have none here), 404 when missing, and 404 for `manage` to callers who may only read.
   */
  async requirePrivate(p: Principal, path: ProviderPath, need: 'read' | 'manage'): Promise<ProviderContext> {
    const ctx = await this.resolve(p, path);
    if (ctx.provider.registryName !== 'private') {
      throw forbidden('versions and platforms are not available for public providers');
    }
    if (need === 'manage' && !ctx.canManage) throw notFound();
    return ctx;
  }

  /** The provider by id, or null (no permission check: for the upload and protocol services). */
  findById(id: string): Promise<RegistryProviderEntity | null> {
    return this.repo.findById(id);
  }

  /** The private provider `name` of the organization, or null. */
  async show(p: Principal, path: ProviderPath): Promise<ProviderView> {
    const ctx = await this.resolve(p, path);
    return { ...ctx, versions: await this.versionsOf([ctx.provider]) };
  }

  async list(
    p: Principal,
    orgName: string,
    query: { search?: string; registryName?: string },
    page: PageParams,
  ): Promise<Page<ProviderView>> {
    const { organization, filter } = await this.namespaces.listScope(p, orgName, query);
    const result = await this.repo.list(filter, page);
    const versions = await this.versionsOf(result.items);
    const items = await Promise.all(
      result.items.map(async (provider) => ({
        ...(await this.context(p, organization, provider)),
        versions: versions.filter((v) => v.providerId === provider.id),
      })),
    );
    return { ...result, items };
  }

  async create(
    p: Principal,
    orgName: string,
    body: ParsedBody<CreateRegistryProviderAttributes>,
  ): Promise<ProviderView> {
    const attrs = body.attributes;
    const { organization, registryName, namespace } = await this.namespaces.placeForCreate(
      p,
      orgName,
      attrs,
      'providers',
    );
    const now = new Date();
    const provider = Object.assign(new RegistryProviderEntity(), {
      id: newId('prov'),
      organizationId: organization.id,
      registryName,
      namespace,
      name: attrs.name,
      createdAt: now,
      updatedAt: now,
    });
    await this.namespaces.insertNew((manager) => this.repo.insert(manager, provider));
    return { ...(await this.context(p, organization, provider)), versions: [] };
  }

  /**
   * Deletes the provider, its versions, platforms and checksum rows in one transaction (foreign
   * keys cascade), then its blobs. Rows go first so no row can point at a deleted blob; a crash
   * before the blob cleanup leaves only unreferenced files under the provider's prefix.
   */
  async delete(p: Principal, path: ProviderPath): Promise<void> {
    const ctx = await this.resolve(p, path);
    if (!ctx.canManage) throw notFound();
    await inTransaction(this.ds, (manager) => this.repo.delete(manager, ctx.provider.id));
    await this.blobs.deletePrefix(blobKeys.provider(ctx.provider.id));
  }

  private versionsOf(providers: RegistryProviderEntity[]): Promise<RegistryProviderVersionEntity[]> {
    const ids = providers.filter((x) => x.registryName === 'private').map((x) => x.id);
    return this.versions.findByProviders(ids);
  }
}
