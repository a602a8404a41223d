import { Injectable } from '@nestjs/common';
import { PermissionService } from '../common/auth/permission.service';
import { Principal } from '../common/auth/principal';
import type { ProjectEntity } from '../projects/entities/project.entity';
import { ProjectsService } from '../projects/projects.service';
import type { WorkspaceEntity } from '../workspaces/entities/workspace.entity';
import { WorkspacesService } from '../workspaces/workspaces.service';
import { WorkspaceLocks } from '../workspaces/workspace-locks.service';
import { TargetLock } from '../tag-bindings/tag-bindings.service';

/**
 * Who may use the tag-binding routes: reading follows read access to the project or workspace;
 * writing needs `manage-projects` (projects) or admin access (workspaces). Others get 404.
 */
@Injectable()
export class TagBindingAccessService {
  constructor(
    private readonly projects: ProjectsService,
    private readonly workspaces: WorkspacesService,
    private readonly workspaceLocks: WorkspaceLocks,
    private readonly permissions: PermissionService,
  ) {}

  readableProject(p: Principal, id: string): Promise<ProjectEntity> {
    return this.projects.requireReadable(p, id);
  }

  async writableProject(p: Principal, id: string): Promise<ProjectEntity> {
    const project = await this.projects.requireReadable(p, id);
    await this.permissions.requireFlag(p, project.organizationId, 'manage-projects');
    return project;
  }

  readableWorkspace(p: Principal, id: string): Promise<WorkspaceEntity> {
    return this.workspaces.requireAccess(p, id, 'read');
  }

  writableWorkspace(p: Principal, id: string): Promise<WorkspaceEntity> {
    return this.workspaces.requireAccess(p, id, 'admin');
  }

  /** The row locks a write of the project's bindings takes (see TagBindingsService). */
  projectLock(projectId: string): TargetLock {
    return (manager) => this.projects.lockForTagChange(manager, projectId);
  }

  workspaceLock(ws: { id: string; projectId: string }): TargetLock {
    return (manager) => this.workspaceLocks.lockForTagChange(manager, ws);
  }
}
