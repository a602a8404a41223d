import { forwardRef, Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AuthCache } from '../common/auth/auth-cache';
import { PermissionService } from '../common/auth/permission.service';
import { Principal } from '../common/auth/principal';
import { inTransaction } from '../common/database/transaction';
import { Page } from '../common/database/paginate';
import { isUniqueViolation } from '../common/errors/db-errors';
import { invalidAttribute, notFound } from '../common/errors/domain-error';
import { ParsedBody } from '../common/jsonapi/body';
import { ResourceObject } from '../common/jsonapi/document';
import { PageParams } from '../common/jsonapi/pagination';
import { newId } from '../common/ids';
import { AppConfig } from '../config/app-config';
import { ProjectsService } from '../projects/projects.service';
import { BlobStore } from '../storage/blob-store';
import { TeamsService } from '../teams/teams.service';
import { WorkspacesService } from '../workspaces/workspaces.service';
import {
  CreateOrganizationAttributes,
  UpdateOrganizationAttributes,
} from '../organization-lifecycle/dto/organization-attributes.dto';
import { OrganizationEntity } from './entities/organization.entity';
import { OrganizationBlobsRegistry } from './organization-blobs.registry';
import { OrganizationsRepository } from './organizations.repository';
import { serializeOrganization } from './organizations.serializer';

@Injectable()
export class OrganizationsService {
  private readonly logger = new Logger('Organizations');

  constructor(
    private readonly repo: OrganizationsRepository,
    private readonly permissions: PermissionService,
    private readonly config: AppConfig,
    @InjectDataSource() private readonly ds: DataSource,
    @Inject(forwardRef(() => TeamsService)) private readonly teams: TeamsService,
    @Inject(forwardRef(() => ProjectsService)) private readonly projects: ProjectsService,
    @Inject(forwardRef(() => WorkspacesService)) private readonly workspaces: WorkspacesService,
    private readonly blobPrefixes: OrganizationBlobsRegistry,
    private readonly blobs: BlobStore,
    private readonly cache: AuthCache,
  ) {}

  /**
   * Organizations are read on nearly every request (names in paths, names in linkage), so lookups
   * go through the AuthCache like the rights checked against them: changes made here apply at
   * once in this process and within CACHE_TTL_MS on other nodes. Callers get their own copy.
   */
  private async cached(key: string, load: () => Promise<OrganizationEntity | null>) {
    const org = await this.cache.get(key, load);
    if (!org) {
      this.cache.forget(key);
      return null;
    }
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

  list(p: Principal, page: PageParams): Promise<Page<OrganizationEntity>> {
    if (this.permissions.isSiteAdmin(p)) return this.repo.listVisible({ all: true }, page);
    if (p.kind === 'user') return this.repo.listVisible({ userId: p.userId }, page);
    return this.repo.listVisible({ organizationId: p.organizationId }, page);
  }

  /** Creates the organization with its owners team (the creator in it) and its Default Project. */
  async create(p: Principal, body: ParsedBody<CreateOrganizationAttributes>): Promise<OrganizationEntity> {
    if (p.kind !== 'user') throw notFound();
    const attrs = body.attributes;
    if (attrs.edition !== undefined && !this.permissions.isSiteAdmin(p)) {
      throw invalidAttribute('edition', 'can only be set by a site administrator');
    }
    const now = new Date();
    const org = Object.assign(new OrganizationEntity(), {
      id: newId('org'),
      name: attrs.name,
      email: attrs.email,
      edition: attrs.edition ?? this.config.defaultEdition,
      createdAt: now,
      updatedAt: now,
    });
    try {
      return await inTransaction(this.ds, async (manager) => {
        await this.repo.insert(manager, org);
        await this.teams.createOwnersTeam(manager, org.id, p.userId);
        await this.projects.createDefaultProject(manager, org.id);
        return org;
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw invalidAttribute('name', 'has already been taken');
      throw err;
    }
  }

  async update(
    p: Principal,
    name: string,
    body: ParsedBody<UpdateOrganizationAttributes>,
  ): Promise<OrganizationEntity> {
    const org = await this.requireVisible(p, name);
    await this.permissions.requireOwner(p, org.id);
    const attrs = body.attributes;
    if (attrs.edition !== undefined && attrs.edition !== org.edition && !this.permissions.isSiteAdmin(p)) {
      throw invalidAttribute('edition', 'can only be changed by a site administrator');
    }
    if (attrs.name !== undefined) org.name = attrs.name;
    if (attrs.email !== undefined) org.email = attrs.email;
    if (attrs.edition !== undefined) org.edition = attrs.edition;
    org.updatedAt = new Date();
    try {
      const saved = await inTransaction(this.ds, (manager) => this.repo.save(manager, org));
      this.permissions.forgetCachedAccess();
      return saved;
    } catch (err) {
      if (isUniqueViolation(err)) throw invalidAttribute('name', 'has already been taken');
      throw err;
    }
  }

  /** Deletes the organization and everything in it. */
  async delete(p: Principal, name: string): Promise<void> {
    const org = await this.requireVisible(p, name);
    await this.permissions.requireOwner(p, org.id);
    const prefixes = await inTransaction(this.ds, async (manager) => {
      const owned = await this.blobPrefixes.collect(manager, org.id);
      // Workspaces go first: they restrict the deletion of the projects that hold them.
      await this.workspaces.deleteAllInOrganization(manager, org.id);
      await this.repo.delete(manager, org.id);
      return owned;
    });
    // Its teams and tokens went with it.
    this.permissions.forgetCachedAccess();
    // Files go after the rows: a crash in between leaves unreferenced files, never a row without its file.
    for (const prefix of prefixes) {
      try {
        await this.blobs.deletePrefix(prefix);
      } catch (err) {
        this.logger.warn({ err, prefix }, 'could not remove files of a deleted organization');
      }
    }
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
    const out: ResourceObject[] = [];
    for (const org of orgs) {
      const access = await this.permissions.organizationAccess(p, org.id);
      if (access) out.push(serializeOrganization(org, access.owner));
    }
    return out;
  }
}
