import { Injectable } from '@nestjs/common';
import { Principal } from '../common/auth/principal';
import { Included, ResourceObject } from '../common/jsonapi/document';
import { OrganizationsService } from '../organizations/organizations.service';
import { ProjectsService } from '../projects/projects.service';
import { WorkspaceView } from './workspaces.service';

/** What `include` may name on workspace show and list. */
export const WORKSPACE_INCLUDES = ['project', 'organization'] as const;

/**
 * The `included` array of workspace documents: one query per included type, de-duplicated,
 * and only the resources the caller may read.
 */
@Injectable()
export class WorkspaceIncludesService {
  constructor(
    private readonly projects: ProjectsService,
    private readonly organizations: OrganizationsService,
  ) {}

  /** Undefined when nothing was asked for, so the document carries no `included` key. */
  async resolve(
    p: Principal,
    views: readonly WorkspaceView[],
    include: readonly string[],
  ): Promise<ResourceObject[] | undefined> {
    if (!include.length) return undefined;
    const included = new Included();
    if (include.includes('project')) {
      included.add(
        ...(await this.projects.readableResources(
          p,
          views.map((v) => v.workspace.projectId),
        )),
      );
    }
    if (include.includes('organization')) {
      included.add(
        ...(await this.organizations.readableResources(
          p,
          views.map((v) => v.organization.id),
        )),
      );
    }
    return included.toArray();
  }
}
