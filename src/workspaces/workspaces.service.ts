import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { ToolVersionsService } from '../admin-catalogs/tool-versions.service';
import { PermissionService } from '../common/auth/permission.service';
import { Principal } from '../common/auth/principal';
import { inTransaction } from '../common/sql/transaction';
import { whenDuplicate } from '../common/errors/db-errors';
import { conflict, invalid, notFound, taken } from '../common/errors/domain-error';
import { ParsedBody } from '../common/jsonapi/body';
import { ResourceObject } from '../common/jsonapi/document';
import { newId } from '../common/ids';
import type { OrganizationEntity } from '../organizations/entities/organization.entity';
import { OrganizationsService } from '../organizations/organizations.service';
import { ProjectsService } from '../projects/projects.service';
import { TagBindingsService, WorkspaceTagChange } from '../tag-bindings/tag-bindings.service';
import { WorkspaceAccessLevel } from '../common/auth/principal';
import { AgentPoolCheckRegistry } from './agent-pool-check.registry';
import { BlobStore } from '../storage/blob-store';
import { WorkspaceBlobsRegistry } from './workspace-blobs.registry';
import {
  CreateWorkspaceAttributes,
  VersionAttribute,
  requestedEngineVersion,
  UpdateWorkspaceAttributes,
} from './dto/workspace-attributes.dto';
import { ExecutionMode, WorkspaceEntity } from './entities/workspace.entity';
import { AGENT_POOL, applyExecution } from './execution-settings.rules';
import { WorkspaceByIdCache } from './workspace-by-id.cache';
import { WorkspaceLocks } from './workspace-locks.service';
import { WorkspacesRepository } from './workspaces.repository';

import { serializeWorkspace } from './workspaces.serializer';
import { IdSubquery } from '../common/sql/id-subquery';
import { workspacesGrantedTo } from '../common/auth/grant-subqueries';
import { WorkspaceRelationsRegistry } from './workspace-relations.registry';

export interface WorkspaceView {
  workspace: WorkspaceEntity;
  organization: OrganizationEntity;
  level: WorkspaceAccessLevel | null;
  /** The newest run that has left the workspace's queue, if any (`current-run`). */
  currentRunId: string | null;
  /** False for organization tokens: they never write state, whatever their level. */
  writesState: boolean;
}

/** Whether a principal may ever write state: organization tokens may not (docs/state.md). */
export const writesState = (p: Principal): boolean => p.kind !== 'organization';

/** Where a workspace's runs execute and whether they apply on their own (for the run control plane). */
export interface WorkspaceExecutionSettings {
  executionMode: ExecutionMode;
  /** The pool whose agents take the workspace's jobs; null: the organization's default executors. */
  agentPoolId: string | null;
  autoApply: boolean;
  /** Whether runs queued by a run trigger apply on their own. */
  autoApplyRunTrigger: boolean;
}

@Injectable()
export class WorkspacesService {
  constructor(
    private readonly repo: WorkspacesRepository,
    private readonly permissions: PermissionService,
    private readonly organizations: OrganizationsService,
    private readonly projects: ProjectsService,
    private readonly catalogs: ToolVersionsService,
    @InjectDataSource() private readonly ds: DataSource,
    private readonly tagBindings: TagBindingsService,
    private readonly byId: WorkspaceByIdCache,
    private readonly agentPools: AgentPoolCheckRegistry,
    private readonly workspaceBlobs: WorkspaceBlobsRegistry,
    private readonly blobs: BlobStore,
    private readonly locks: WorkspaceLocks,
    private readonly relations: WorkspaceRelationsRegistry,
  ) {}

  private readonly logger = new Logger(WorkspacesService.name);

  /** The run control plane's read of a workspace's execution settings; 404 if it is gone. */
  async executionSettings(workspaceId: string): Promise<WorkspaceExecutionSettings> {
    const ws = await this.requireById(workspaceId);
    return {
      executionMode: ws.executionMode,
      agentPoolId: ws.agentPoolId,
      autoApply: ws.autoApply,
      autoApplyRunTrigger: ws.autoApplyRunTrigger,
    };
  }

  /** The workspace if it exists (no permission check): for services that check rights themselves. */
  async requireById(id: string): Promise<WorkspaceEntity> {
    const ws = await this.byId.workspace(id, () => this.repo.findById(id));
    if (!ws) throw notFound();
    return ws;
  }

  /**
   * The workspace as `manager`'s transaction may see it: the cache's when it holds a live one whose
   * read has ended (this process wrote no workspace since it was read; a read still running may
   * wait for this very transaction on SQLite), else read on that connection and not remembered,
   * since it may show the transaction's own changes.
   */
  findWith(manager: EntityManager, id: string): Promise<WorkspaceEntity | null> {
    return this.byId.kept(id) ?? this.repo.findById(id, manager);
  }

  findByIds(ids: string[]): Promise<WorkspaceEntity[]> {
    return this.repo.findByIds([...new Set(ids)]);
  }

  /** The workspace of this exact name, if any (no permission check). */
  findByName(organizationId: string, name: string): Promise<WorkspaceEntity | null> {
    return this.repo.findByName(organizationId, name);
  }

  /** Ids of the workspaces using each agent pool (every pool given is a key). */
  async idsByAgentPool(poolIds: readonly string[], manager?: EntityManager): Promise<Map<string, string[]>> {
    const out = new Map<string, string[]>(poolIds.map((id) => [id, []]));
    for (const row of await this.repo.idsByAgentPool(poolIds, manager))
      out.get(row.agentPoolId)?.push(row.id);
    return out;
  }

  /** The workspace if the principal has at least `min` access to it; otherwise 404. */
  async requireAccess(
    p: Principal,
    id: string,
    min: WorkspaceAccessLevel = 'read',
  ): Promise<WorkspaceEntity> {
    const ws = await this.requireById(id);
    await this.permissions.requireWorkspaceLevel(p, ws, min);
    return ws;
  }

  async requireByName(p: Principal, orgName: string, name: string): Promise<WorkspaceEntity> {
    const org = await this.organizations.requireVisible(p, orgName);
    const ws = await this.repo.findByName(org.id, name);
    if (!ws) throw notFound();
    await this.permissions.requireWorkspaceLevel(p, ws, 'read');
    return ws;
  }

  async view(p: Principal, ws: WorkspaceEntity, organization?: OrganizationEntity): Promise<WorkspaceView> {
    const [org, level, currentRuns] = await Promise.all([
      organization ?? this.organizations.requireById(ws.organizationId),
      this.permissions.workspaceLevel(p, ws),
      this.relations.currentRunIds([ws.id]),
    ]);
    return {
      workspace: ws,
      organization: org,
      level,
      currentRunId: currentRuns.get(ws.id) ?? null,
      writesState: writesState(p),
    };
  }

  /** Serialized workspaces among `ids` that the principal may read, for `included` arrays. */
  async readableResources(p: Principal, ids: string[]): Promise<ResourceObject[]> {
    return this.readableResourcesOf(p, await this.findByIds(ids));
  }

  /** `readableResources` for workspaces another module already read (e.g. through a join). */
  async readableResourcesOf(p: Principal, workspaces: WorkspaceEntity[]): Promise<ResourceObject[]> {
    const orgs = new Map(
      (await this.organizations.findByIds(workspaces.map((w) => w.organizationId))).map((o) => [o.id, o]),
    );
    const [levels, currentRuns] = await Promise.all([
      this.permissions.workspaceLevels(p, workspaces),
      this.relations.currentRunIds(workspaces.map((w) => w.id)),
    ]);
    const out: ResourceObject[] = [];
    for (const ws of workspaces) {
      const level = levels.get(ws.id) ?? null;
      const org = orgs.get(ws.organizationId);
      if (level && org) {
        out.push(serializeWorkspace(ws, org.name, level, currentRuns.get(ws.id) ?? null, writesState(p)));
      }
    }
    return out;
  }

  /**
   * The organization (404 unless the caller is a member) and, as SQL for another module's list,
   * the ids of its workspaces the caller may read.
   */
  async readableIdsIn(p: Principal, orgName: string): Promise<{ organizationId: string; ids: IdSubquery }> {
    const org = await this.organizations.requireVisible(p, orgName);
    const scope = await this.permissions.workspaceReadScope(p, org.id);
    if ('all' in scope) return { organizationId: org.id, ids: this.repo.idsOf(org.id) };
    // No team: `IN (NULL)` holds for no row.
    const granted = scope.teamIds.length
      ? workspacesGrantedTo(scope.teamIds)
      : { sql: '(NULL)', parameters: {} };
    return { organizationId: org.id, ids: this.repo.idsOf(org.id, granted) };
  }

  async create(
    p: Principal,
    orgName: string,
    body: ParsedBody<CreateWorkspaceAttributes>,
  ): Promise<WorkspaceView> {
    const org = await this.organizations.requireVisible(p, orgName);
    await this.permissions.requireFlag(p, org.id, 'manage-workspaces');
    const tags = { items: this.tagBindings.fromRelationship(body, 'workspace'), previousProjectId: null };
    const projectId = await this.resolveProject(p, org.id, body);
    const pinned = requestedEngineVersion(body.attributes);
    const now = new Date();
    const ws = Object.assign(new WorkspaceEntity(), {
      id: newId('ws'),
      organizationId: org.id,
      projectId,
      name: body.attributes.name,
      description: body.attributes.description ?? null,
      engineVersion: pinned?.version ?? 'latest',
      locked: false,
      lockedByType: null,
      lockedById: null,
      executionMode: 'remote',
      agentPoolId: null,
      autoApply: false,
      autoApplyRunTrigger: false,
      currentStateVersionId: null,
      resourceCount: 0,
      createdAt: now,
      updatedAt: now,
    });
    applyExecution(ws, body);
    await this.saveUnique(ws, tags, pinned?.attribute);
    return this.view(p, ws, org);
  }

  async update(
    p: Principal,
    ws: WorkspaceEntity,
    body: ParsedBody<UpdateWorkspaceAttributes>,
  ): Promise<WorkspaceView> {
    await this.permissions.requireWorkspaceLevel(p, ws, 'admin');
    const tags = {
      items: this.tagBindings.fromRelationship(body, 'workspace'),
      previousProjectId: ws.projectId,
    };
    const attrs = body.attributes;
    // Keeping the pinned version is fine even if it was disabled since; a new pin is checked.
    const pinned = requestedEngineVersion(attrs);
    const repinned = pinned !== undefined && pinned.version !== ws.engineVersion;
    if (attrs.name !== undefined) ws.name = attrs.name;
    if (body.has('description')) ws.description = attrs.description ?? null;
    if (pinned) ws.engineVersion = pinned.version;
    if (body.hasRelationship('project')) ws.projectId = await this.resolveProject(p, ws.organizationId, body);
    applyExecution(ws, body);
    ws.updatedAt = new Date();
    await this.saveUnique(ws, tags, repinned ? pinned.attribute : undefined);
    return this.view(p, ws);
  }

  /**
   * Needs admin. `force` (DELETE) deletes the workspace whatever its state holds; `safe` refuses
   * (409, in the real service's words, which its clients tell apart) while the workspace is locked
   * or its current state still manages resources, checked under the workspace's row lock.
   */
  async delete(p: Principal, ws: WorkspaceEntity, mode: 'force' | 'safe' = 'force'): Promise<void> {
    await this.permissions.requireWorkspaceLevel(p, ws, 'admin');
    const prefixes = await inTransaction(this.ds, async (manager) => {
      if (mode === 'safe') {
        const guard = await this.repo.lockForStateWrite(manager, ws.id);
        if (!guard) throw notFound();
        if (guard.holder) {
          throw conflict(
            'Workspace is currently locked. Workspace must be unlocked before it can be safely deleted',
          );
        }
        if (guard.resourceCount > 0) {
          throw conflict('workspace cannot be safely deleted because it is still managing resources');
        }
      }
      const owned = await this.workspaceBlobs.collect(manager, [ws.id]);
      await this.repo.delete(manager, ws.id);
      return owned;
    });
    await this.removeFiles(prefixes);
  }

  /** The files of deleted workspaces, removed after their rows (see WorkspaceBlobsRegistry). */
  async removeFiles(prefixes: string[]): Promise<void> {
    for (const prefix of prefixes) {
      try {
        await this.blobs.deletePrefix(prefix);
      } catch (err) {
        this.logger.warn({ err, prefix }, 'could not remove files of a deleted workspace');
      }
    }
  }

  /** The blob prefixes of every workspace of an organization, for the organization's deletion. */
  async blobPrefixesInOrganization(manager: EntityManager, organizationId: string): Promise<string[]> {
    return this.workspaceBlobs.collect(manager, await this.repo.idsInOrganization(manager, organizationId));
  }

  deleteAllInOrganization(manager: EntityManager, organizationId: string): Promise<void> {
    return this.repo.deleteAllInOrganization(manager, organizationId);
  }

  /** Inside the save: the pool exists in the workspace's organization and lets it in (row-locked). */
  private async checkPool(manager: EntityManager, ws: WorkspaceEntity): Promise<void> {
    if (!ws.agentPoolId) return;
    switch (await this.agentPools.usability(manager, ws.agentPoolId, ws)) {
      case 'usable':
        return;
      case 'missing':
        throw invalid('Agent pool not found', AGENT_POOL);
      case 'not-allowed':
        throw invalid(
          'Agent pool is not organization-scoped and does not list this workspace among its allowed workspaces',
          AGENT_POOL,
        );
    }
  }

  /** The project named by the `project` relationship (same organization), or the default project. */
  private async resolveProject(
    p: Principal,
    organizationId: string,
    body: ParsedBody<CreateWorkspaceAttributes | UpdateWorkspaceAttributes>,
  ): Promise<string> {
    const ref = body.toOne('project', 'projects');
    if (!ref) return (await this.projects.findDefault(organizationId)).id;
    const [project] = await this.projects.findByIds([ref.id]);
    if (
      !project ||
      project.organizationId !== organizationId ||
      !(await this.permissions.canReadProject(p, project))
    ) {
      throw invalid('Project not found', '/data/relationships/project/data/id');
    }
    return project.id;
  }

  /**
   * Saves the workspace with its tag-binding change (see TagBindingsService.saveWorkspace) in one
   * transaction: inserted when it is being created (no previous project), else updated. With `pin`
   * (the attribute asking), its engine version must be in the catalog.
   */
  private async saveUnique(
    ws: WorkspaceEntity,
    tags: WorkspaceTagChange,
    pin?: VersionAttribute,
  ): Promise<void> {
    await whenDuplicate(
      () =>
        inTransaction(this.ds, async (manager) => {
          await this.checkPool(manager, ws);
          if (pin) {
            ws.engineVersion = await this.catalogs.assertPinnable(
              'engine-versions',
              ws.engineVersion,
              pin,
              manager,
            );
          }
          return this.tagBindings.saveWorkspace(
            manager,
            ws,
            tags,
            () =>
              tags.previousProjectId === null ? this.repo.insert(manager, ws) : this.repo.update(manager, ws),
            (m) => this.locks.lockForTagChange(m, ws),
          );
        }),
      () => taken('name'),
    );
  }
}
