import { Injectable } from '@nestjs/common';
import { Principal } from '../common/auth/principal';
import { Included, ResourceObject, toMany, toOne } from '../common/jsonapi/document';
import { OrganizationsService } from '../organizations/organizations.service';
import { ProjectsService } from '../projects/projects.service';
import { serializeEffectiveTagBinding } from '../tag-bindings/effective-tag-bindings.serializer';
import { TagBindingsService } from '../tag-bindings/tag-bindings.service';
import { serializeUser } from '../users/users.serializer';
import { UsersService } from '../users/users.service';
import { WorkspaceRelationsRegistry } from './workspace-relations.registry';
import { WorkspaceView } from './workspaces.service';

/** What `include` may name on workspace show and list (the snake_case spellings match too). */
export const WORKSPACE_INCLUDES = [
  'project',
  'organization',
  'effective-tag-bindings',
  'locked-by',
  'current-run',
  'current-run.plan',
  'current-run.configuration-version',
  'current-configuration-version',
  'current-state-version',
  'outputs',
  // The real service's README of the configuration: Plinth keeps none, so this adds nothing.
  'readme',
] as const;

/**
 * The `included` array of workspace documents: one query per included type, de-duplicated,
 * and only the resources the caller may read.
 */
@Injectable()
export class WorkspaceIncludesService {
  constructor(
    private readonly projects: ProjectsService,
    private readonly organizations: OrganizationsService,
    private readonly tagBindings: TagBindingsService,
    private readonly users: UsersService,
    private readonly relations: WorkspaceRelationsRegistry,
  ) {}

  /**
   * Undefined when nothing was asked for, so the document carries no `included` key. With
   * `effective-tag-bindings`, each of `resources` (the views serialized, in the same order) gets
   * that relationship's linkage as well as its link.
   */
  async resolve(
    p: Principal,
    views: readonly WorkspaceView[],
    include: readonly string[],
    resources: readonly ResourceObject[] = [],
    origin = '',
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
      const organizations = await this.organizations.readableResources(
        p,
        views.map((v) => v.organization.id),
      );
      included.add(
        ...(include.includes('project') ? organizations.map(withoutDefaultProject) : organizations),
      );
    }
    if (include.includes('effective-tag-bindings')) {
      const effective = await this.tagBindings.effectiveForWorkspaces(views.map((v) => v.workspace));
      views.forEach((v, i) => {
        const bindings = effective.get(v.workspace.id) ?? [];
        included.add(...bindings.map(serializeEffectiveTagBinding));
        const resource = resources[i];
        if (resource?.relationships?.['effective-tag-bindings']) {
          resource.relationships['effective-tag-bindings'] = {
            ...resource.relationships['effective-tag-bindings'],
            ...toMany(
              'effective-tag-bindings',
              bindings.map((b) => b.binding.id),
            ),
          };
        }
      });
    }
    await this.addRuns(p, views, include, resources, origin, included);
    if (include.includes('locked-by')) included.add(...(await this.lockHolders(p, views)));
    await this.addState(views, include, resources, included);
    return included.toArray();
  }

  /**
   * `current-run` (also when only its plan or configuration version is asked for: the path to
   * them), those of the run, and `current-configuration-version`, which also links it from each of
   * `resources`.
   */
  private async addRuns(
    p: Principal,
    views: readonly WorkspaceView[],
    include: readonly string[],
    resources: readonly ResourceObject[],
    origin: string,
    included: Included,
  ): Promise<void> {
    const nested = [
      ...(include.includes('current-run.plan') ? ['plan'] : []),
      ...(include.includes('current-run.configuration-version') ? ['configuration-version'] : []),
    ];
    if (include.includes('current-run') || nested.length) {
      const ids = views.map((v) => v.currentRunId).filter((id): id is string => id !== null);
      included.add(...(await this.relations.readableRunsWith(p, ids, nested, origin)));
    }
    if (!include.includes('current-configuration-version')) return;
    const current = await this.relations.currentConfigurationVersions(
      p,
      views.map((v) => v.workspace.id),
    );
    views.forEach((v, i) => {
      const cv = current.get(v.workspace.id);
      if (cv) included.add(cv);
      const resource = resources[i];
      if (resource?.relationships) {
        resource.relationships['current-configuration-version'] = toOne('configuration-versions', cv?.id);
      }
    });
  }

  /**
   * `current-state-version` and `outputs` (the current version's, as `workspace-outputs`, which
   * also links them from each of `resources` under `outputs`). Reading a workspace reads its state.
   */
  private async addState(
    views: readonly WorkspaceView[],
    include: readonly string[],
    resources: readonly ResourceObject[],
    included: Included,
  ): Promise<void> {
    const versionIds = views
      .map((v) => v.workspace.currentStateVersionId)
      .filter((id): id is string => id !== null);
    if (include.includes('current-state-version')) {
      included.add(...(await this.relations.stateVersions(versionIds)));
    }
    if (!include.includes('outputs')) return;
    const outputs = await this.relations.stateOutputs(versionIds);
    views.forEach((v, i) => {
      const own = v.workspace.currentStateVersionId
        ? (outputs.get(v.workspace.currentStateVersionId) ?? [])
        : [];
      included.add(...own);
      const resource = resources[i];
      if (resource?.relationships) {
        resource.relationships.outputs = toMany(
          'workspace-outputs',
          own.map((o) => o.id),
        );
      }
    });
  }

  private async lockHolders(p: Principal, views: readonly WorkspaceView[]): Promise<ResourceObject[]> {
    const byType = new Map<string, string[]>();
    for (const { workspace: ws } of views) {
      if (ws.lockedByType && ws.lockedById) {
        byType.set(ws.lockedByType, [...(byType.get(ws.lockedByType) ?? []), ws.lockedById]);
      }
    }
    const out: ResourceObject[] = [];
    for (const [type, ids] of byType) {
      if (type === 'users')
        out.push(...(await this.users.findByIds(ids)).map((u) => serializeUser(u, false)));
      else if (type === 'organizations') out.push(...(await this.organizations.readableResources(p, ids)));
      else out.push(...(await this.relations.readableHolders(p, type, ids)));
    }
    return out;
  }
}

/**
 * An included organization without its `default-project` linkage. The official Go client follows
 * every linkage into `included` as it decodes, so an organization linking its default project
 * while that project, also included, links back to it never ends: the client dies of a stack
 * overflow (hashicorp/go-tfe#1020; the real service answers alike). The organization's own read
 * still links it.
 */
function withoutDefaultProject(organization: ResourceObject): ResourceObject {
  if (!organization.relationships?.['default-project']) return organization;
  const relationships = { ...organization.relationships };
  delete relationships['default-project'];
  return { ...organization, relationships };
}
