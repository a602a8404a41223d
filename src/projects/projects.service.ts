import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { PermissionService } from '../common/auth/permission.service';
import { Principal } from '../common/auth/principal';
import { Page } from '../common/sql/paginate';
import { inOneStatement, inTransaction } from '../common/sql/transaction';
import { whenDuplicate } from '../common/errors/db-errors';
import { invalid, notFound, taken } from '../common/errors/domain-error';
import { ParsedBody } from '../common/jsonapi/body';
import { ResourceObject } from '../common/jsonapi/document';
import { PageParams } from '../common/jsonapi/pagination';
import type { TagFilter } from '../common/jsonapi/query';
import { newId } from '../common/ids';
import type { OrganizationEntity } from '../organizations/entities/organization.entity';
import { OrganizationsService } from '../organizations/organizations.service';
import { TagBindingInput } from '../tag-bindings/tag-binding-rules';
import { EffectiveTagBinding, TagBindingsService } from '../tag-bindings/tag-bindings.service';
import { CreateProjectAttributes, UpdateProjectAttributes } from './dto/project-attributes.dto';
import { ProjectEntity } from './entities/project.entity';
import { ProjectWorkspaceCounts } from './project-workspace-counts';
import { ProjectsRepository } from './projects.repository';
import { serializeProject } from './projects.serializer';

export const DEFAULT_PROJECT_NAME = 'Default Project';

export interface ProjectView {
  project: ProjectEntity;
  organization: OrganizationEntity;
  workspaceCount: number;
}

/** The filters of a project list. */
export interface ProjectListQuery {
  search?: string;
  /** The real service's name search (`q`), a substring as `search[name]` is. */
  q?: string;
  /** `filter[names]`: projects with any of these exact names. */
  names?: string[];
  tagged?: TagFilter[];
}

@Injectable()
export class ProjectsService {
  constructor(
    private readonly repo: ProjectsRepository,
    private readonly permissions: PermissionService,
    private readonly organizations: OrganizationsService,
    @InjectDataSource() private readonly ds: DataSource,
    private readonly tagBindings: TagBindingsService,
    private readonly workspaceCounts: ProjectWorkspaceCounts,
  ) {}

  /** After a workspace is created, moved or deleted in this process. */
  /**
   * Locks the project's row for a write of its tag bindings or of one of its workspaces' bindings:
   * a project change and a workspace override of the same key take turns.
   */
  async lockForTagChange(manager: EntityManager, projectId: string): Promise<void> {
    await this.repo.lock(manager, projectId);
  }

  async createDefaultProject(manager: EntityManager, organizationId: string): Promise<ProjectEntity> {
    const now = new Date();
    const project = Object.assign(new ProjectEntity(), {
      id: newId('prj'),
      organizationId,
      name: DEFAULT_PROJECT_NAME,
      description: null,
      isDefault: true,
      createdAt: now,
      updatedAt: now,
    });
    await this.repo.insert(manager, project);
    return project;
  }

  async findDefault(organizationId: string): Promise<ProjectEntity> {
    const project = await this.repo.findDefault(organizationId);
    if (!project) throw notFound();
    return project;
  }

  /** The project if it exists (no permission check): for services that check rights themselves. */
  async requireById(id: string): Promise<ProjectEntity> {
    const project = await this.repo.findById(id);
    if (!project) throw notFound();
    return project;
  }

  findByIds(ids: string[]): Promise<ProjectEntity[]> {
    return this.repo.findByIds([...new Set(ids)]);
  }

  /**
   * Serialized projects among `ids` that the principal may read, for `included` arrays: one query
   * for the projects, one for their organizations, one for the workspace counts.
   */
  async readableResources(p: Principal, ids: string[]): Promise<ResourceObject[]> {
    const projects = await this.findByIds(ids);
    const readable = await this.permissions.readableProjectIds(p, projects);
    const byId = new Map(projects.filter((x) => readable.has(x.id)).map((x) => [x.id, x]));
    // In the order the ids came, so `included` follows the primary data.
    const shown = [...new Set(ids)].flatMap((id) => byId.get(id) ?? []);
    if (!shown.length) return [];
    const [orgs, counts] = await Promise.all([
      this.organizations.findByIds(shown.map((project) => project.organizationId)),
      this.workspaceCounts.of(shown.map((project) => project.id)),
    ]);
    const names = new Map(orgs.map((o) => [o.id, o.name]));
    return shown.flatMap((project) => {
      const name = names.get(project.organizationId);
      return name ? [serializeProject(project, name, counts.get(project.id) ?? 0)] : [];
    });
  }

  /** The project if the principal may read it; otherwise 404. */
  async requireReadable(p: Principal, id: string): Promise<ProjectEntity> {
    const project = await this.requireById(id);
    await this.permissions.requireProjectRead(p, project);
    return project;
  }

  async view(project: ProjectEntity, organization?: OrganizationEntity): Promise<ProjectView> {
    const [org, counts] = await Promise.all([
      organization ?? this.organizations.requireById(project.organizationId),
      this.workspaceCounts.of([project.id]),
    ]);
    return { project, organization: org, workspaceCount: counts.get(project.id) ?? 0 };
  }

  async list(
    p: Principal,
    orgName: string,
    page: PageParams,
    query: ProjectListQuery,
  ): Promise<Page<ProjectView>> {
    const org = await this.organizations.requireVisible(p, orgName);
    const scope = await this.permissions.projectReadScope(p, org.id);
    const result = await this.repo.list(
      {
        organizationId: org.id,
        search: query.search,
        q: query.q,
        names: query.names,
        tagged: query.tagged?.length ? this.tagBindings.projectsTagged('{id}', query.tagged) : undefined,
        teamIds: 'all' in scope ? undefined : scope.teamIds,
      },
      page,
    );
    const counts = await this.workspaceCounts.of(result.items.map((x) => x.id));
    return {
      ...result,
      items: result.items.map((project) => ({
        project,
        organization: org,
        workspaceCount: counts.get(project.id) ?? 0,
      })),
    };
  }

  /** Each project's tag bindings, for `include=effective_tag_bindings` (a project inherits none). */
  effectiveTagBindings(projectIds: readonly string[]): Promise<Map<string, EffectiveTagBinding[]>> {
    return this.tagBindings.effectiveForProjects(projectIds);
  }

  async create(
    p: Principal,
    orgName: string,
    body: ParsedBody<CreateProjectAttributes>,
  ): Promise<ProjectView> {
    const org = await this.organizations.requireVisible(p, orgName);
    await this.permissions.requireFlag(p, org.id, 'manage-projects');
    const tags = this.tagBindings.fromRelationship(body, 'project');
    const now = new Date();
    const project = Object.assign(new ProjectEntity(), {
      id: newId('prj'),
      organizationId: org.id,
      name: body.attributes.name,
      description: body.attributes.description ?? null,
      isDefault: false,
      createdAt: now,
      updatedAt: now,
    });
    await this.saveUnique(project, tags, (manager) => this.repo.insert(manager, project));
    return { project, organization: org, workspaceCount: 0 };
  }

  async update(p: Principal, id: string, body: ParsedBody<UpdateProjectAttributes>): Promise<ProjectView> {
    const project = await this.requireReadable(p, id);
    await this.permissions.requireFlag(p, project.organizationId, 'manage-projects');
    const tags = this.tagBindings.fromRelationship(body, 'project');
    const attrs = body.attributes;
    if (attrs.name !== undefined) project.name = attrs.name;
    if (body.has('description')) project.description = attrs.description ?? null;
    project.updatedAt = new Date();
    await this.saveUnique(project, tags, (manager) => this.repo.update(manager, project));
    return this.view(project);
  }

  async delete(p: Principal, id: string): Promise<void> {
    const project = await this.requireReadable(p, id);
    await this.permissions.requireFlag(p, project.organizationId, 'manage-projects');
    if (project.isDefault) throw invalid('The default project cannot be deleted');
    const counts = await this.workspaceCounts.exact([project.id]);
    if ((counts.get(project.id) ?? 0) > 0) {
      throw invalid('Project still has workspaces; move or delete them first');
    }
    await inOneStatement(this.ds, (manager) => this.repo.delete(manager, project.id));
  }

  /**
   * Writes the project (`write`: its insert or update) and, when the body listed them, replaces its
   * tag bindings: one transaction.
   */
  private async saveUnique(
    project: ProjectEntity,
    tags: TagBindingInput[] | undefined,
    write: (manager: EntityManager) => Promise<void>,
  ): Promise<void> {
    await whenDuplicate(
      () =>
        inTransaction(this.ds, (manager) =>
          this.tagBindings.saveProject(
            manager,
            project.id,
            tags,
            () => write(manager),
            (m) => this.lockForTagChange(m, project.id),
          ),
        ),
      () => taken('name'),
    );
  }
}
