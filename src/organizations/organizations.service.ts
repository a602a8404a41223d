import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { AuthCache } from '../common/auth/auth-cache';
import { PermissionService } from '../common/auth/permission.service';
import { Principal } from '../common/auth/principal';
import { Page } from '../common/sql/paginate';
import { notFound } from '../common/errors/domain-error';
import { ResourceObject } from '../common/jsonapi/document';
import { PageParams } from '../common/jsonapi/pagination';
import { DefaultProjectsRegistry } from './default-projects.registry';
import { OrganizationEntity } from './entities/organization.entity';
import { OrganizationScope, OrganizationsRepository } from './organizations.repository';
import { serializeOrganization } from './organizations.serializer';

/**
 * The organization lookups every module uses, and the organizations table's writes and locks.
 * Creating and deleting an organization (with its owners team, Default Project, workspaces and
 * files) is OrganizationLifecycleService's job, in a module nothing imports.
 */
@Injectable()
export class OrganizationsService {
  constructor(
    private readonly repo: OrganizationsRepository,
    private readonly permissions: PermissionService,
    private readonly cache: AuthCache,
    private readonly defaultProjects: DefaultProjectsRegistry,
  ) {}

  /** Organizations as resources, each with its `default-project` (one query for all of them). */
  async resourcesOf(organizations: { org: OrganizationEntity; owner: boolean }[]): Promise<ResourceObject[]> {
    const defaults = await this.defaultProjects.of(organizations.map(({ org }) => org.id));
    return organizations.map(({ org, owner }) =>
      serializeOrganization(org, owner, defaults.get(org.id) ?? null),
    );
  }

  /**
   * Organizations are read on nearly every request (names in paths, names in linkage), so lookups
   * go through the AuthCache like the rights checked against them: changes made here apply at
   * once in this process and within CACHE_TTL_MS on other nodes. Callers get their own copy.
   */
  private async cached(key: string, load: () => Promise<OrganizationEntity | null>) {
    const org = await this.cache.getPresent(key, load);
    if (!org) return null;
    return Object.assign(new OrganizationEntity(), org);
  }

  /** The organization by name, or 404. No permission check: callers decide what the caller may do. */
  async requireByName(name: string): Promise<OrganizationEntity> {
    const org = await this.cached(`org-name:${name}`, () => this.repo.findByName(name));
    if (!org) throw notFound();
    return org;
  }

  async requireById(id: string): Promise<OrganizationEntity> {
    const org = await this.cached(`org-id:${id}`, () => this.repo.findById(id));
    if (!org) throw notFound();
    return org;
  }

  async findByIds(ids: string[]): Promise<OrganizationEntity[]> {
    const found = await Promise.all(
      [...new Set(ids)].map((id) => this.cached(`org-id:${id}`, () => this.repo.findById(id))),
    );
    return found.filter((org): org is OrganizationEntity => org !== null);
  }

  /** The organization if the principal is a member of it; otherwise the same 404 as a missing one. */
  async requireVisible(p: Principal, name: string): Promise<OrganizationEntity> {
    const org = await this.requireByName(name);
    await this.permissions.requireMember(p, org.id);
    return org;
  }

  isOwner(p: Principal, organizationId: string): Promise<boolean> {
    return this.permissions.isOwner(p, organizationId);
  }

  /** Which of these organizations the principal owns, in one query (for `permissions` on list rows). */
  ownedAmong(p: Principal, organizations: OrganizationEntity[]): Promise<Set<string>> {
    return this.permissions.ownedOrganizationIds(
      p,
      organizations.map((o) => o.id),
    );
  }

  /** Serialized organizations among `ids` the principal belongs to, for `included` arrays. */
  async readableResources(p: Principal, ids: string[]): Promise<ResourceObject[]> {
    const orgs = await this.findByIds(ids);
    const shown: { org: OrganizationEntity; owner: boolean }[] = [];
    for (const org of orgs) {
      const access = await this.permissions.organizationAccess(p, org.id);
      if (access) shown.push({ org, owner: access.owner });
    }
    return this.resourcesOf(shown);
  }

  /**
   * Locks the organization's row for the rest of the transaction, so writers of its children whose
   * rules count or compare siblings (limits, unique keys, trigger cycles, signing keys, the one
   * organization token) take turns. False when the organization is gone.
   */
  lockForChildWrites(manager: EntityManager, organizationId: string): Promise<boolean> {
    return this.repo.lock(manager, organizationId);
  }

  listVisible(scope: OrganizationScope, page: PageParams): Promise<Page<OrganizationEntity>> {
    return this.repo.listVisible(scope, page);
  }

  insertRow(manager: EntityManager, org: OrganizationEntity): Promise<OrganizationEntity> {
    return this.repo.insert(manager, org);
  }

  saveRow(manager: EntityManager, org: OrganizationEntity): Promise<OrganizationEntity> {
    return this.repo.save(manager, org);
  }

  deleteRow(manager: EntityManager, id: string): Promise<void> {
    return this.repo.delete(manager, id);
  }
}
