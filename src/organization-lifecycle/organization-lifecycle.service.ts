import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { PermissionService } from '../common/auth/permission.service';
import { Principal } from '../common/auth/principal';
import { Page } from '../common/sql/paginate';
import { inTransaction } from '../common/sql/transaction';
import { whenDuplicate } from '../common/errors/db-errors';
import { invalidAttribute, notFound, taken } from '../common/errors/domain-error';
import { ParsedBody } from '../common/jsonapi/body';
import { PageParams } from '../common/jsonapi/pagination';
import { newId } from '../common/ids';
import { AppConfig } from '../config/app-config';
import { OrganizationEntity } from '../organizations/entities/organization.entity';
import { OrganizationBlobsRegistry } from '../organizations/organization-blobs.registry';
import { OrganizationsService } from '../organizations/organizations.service';
import { ProjectsService } from '../projects/projects.service';
import { BlobStore } from '../storage/blob-store';
import { TeamsService } from '../teams/teams.service';
import { WorkspacesService } from '../workspaces/workspaces.service';
import {
  CreateOrganizationAttributes,
  UpdateOrganizationAttributes,
} from './dto/organization-attributes.dto';

/**
 * The organization routes' rules: listing, creating one with its owners team and Default Project,
 * renaming, and deleting one with everything in it. It orchestrates the teams, projects and
 * workspaces modules, so it lives in a module nothing imports.
 */
@Injectable()
export class OrganizationLifecycleService {
  private readonly logger = new Logger('Organizations');

  constructor(
    private readonly organizations: OrganizationsService,
    private readonly permissions: PermissionService,
    private readonly config: AppConfig,
    @InjectDataSource() private readonly ds: DataSource,
    private readonly teams: TeamsService,
    private readonly projects: ProjectsService,
    private readonly workspaces: WorkspacesService,
    private readonly blobPrefixes: OrganizationBlobsRegistry,
    private readonly blobs: BlobStore,
  ) {}

  /** All organizations (site administrators), those the user belongs to through a team, or the token's. */
  list(p: Principal, page: PageParams): Promise<Page<OrganizationEntity>> {
    if (this.permissions.isSiteAdmin(p)) return this.organizations.listVisible({ all: true }, page);
    if (p.kind === 'user') {
      return this.organizations.listVisible({ idsIn: this.teams.memberOrganizationIds(p.userId) }, page);
    }
    return this.organizations.listVisible({ organizationId: p.organizationId }, page);
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
    return whenDuplicate(
      () =>
        inTransaction(this.ds, async (manager) => {
          await this.organizations.insertRow(manager, org);
          await this.teams.createOwnersTeam(manager, org.id, p.userId);
          await this.projects.createDefaultProject(manager, org.id);
          return org;
        }),
      () => taken('name'),
    );
  }

  async update(
    p: Principal,
    name: string,
    body: ParsedBody<UpdateOrganizationAttributes>,
  ): Promise<OrganizationEntity> {
    const org = await this.organizations.requireVisible(p, name);
    await this.permissions.requireOwner(p, org.id);
    const attrs = body.attributes;
    if (attrs.edition !== undefined && attrs.edition !== org.edition && !this.permissions.isSiteAdmin(p)) {
      throw invalidAttribute('edition', 'can only be changed by a site administrator');
    }
    if (attrs.name !== undefined) org.name = attrs.name;
    if (attrs.email !== undefined) org.email = attrs.email;
    if (attrs.edition !== undefined) org.edition = attrs.edition;
    org.updatedAt = new Date();
    const saved = await whenDuplicate(
      () => inTransaction(this.ds, (manager) => this.organizations.saveRow(manager, org)),
      () => taken('name'),
    );
    return saved;
  }

  /** Deletes the organization and everything in it. */
  async delete(p: Principal, name: string): Promise<void> {
    const org = await this.organizations.requireVisible(p, name);
    await this.permissions.requireOwner(p, org.id);
    const prefixes = await inTransaction(this.ds, async (manager) => {
      const owned = await this.blobPrefixes.collect(manager, org.id);
      // Workspaces go first: they restrict the deletion of the projects that hold them.
      await this.workspaces.deleteAllInOrganization(manager, org.id);
      await this.organizations.deleteRow(manager, org.id);
      return owned;
    });
    // Files go after the rows: a crash in between leaves unreferenced files, never a row without its file.
    for (const prefix of prefixes) {
      try {
        await this.blobs.deletePrefix(prefix);
      } catch (err) {
        this.logger.warn({ err, prefix }, 'could not remove files of a deleted organization');
      }
    }
  }
}
