import { Injectable } from '@nestjs/common';
import { Principal } from '../common/auth/principal';
import { Included, ResourceObject } from '../common/jsonapi/document';
import { OrganizationsService } from '../organizations/organizations.service';
import { PoliciesService } from '../policies/policies.service';
import { ProjectsService } from '../projects/projects.service';
import { SignedLinks } from '../storage/signed-links';
import { WorkspacesService } from '../workspaces/workspaces.service';
import { PolicySetVersionEntity } from './entities/policy-set-version.entity';
import { PolicySetEntity } from './entities/policy-set.entity';
import { serializePolicySetVersion } from './policy-set-versions.serializer';
import { PolicySetsRepository } from './policy-sets.repository';
import { PolicySetView } from './policy-sets.serializer';

/**
 * `include` values of policy-set routes: the relationships' own names; their snake_case
 * spellings (`newest_version`, `workspace_exclusions`, …) are accepted as well (parseInclude).
 */
export const POLICY_SET_INCLUDES = [
  'projects',
  'workspaces',
  'workspace-exclusions',
  'policies',
  'newest-version',
  'current-version',
] as const;

export const VERSION_UPLOAD_PURPOSE = 'policy-set-version-upload';

/** An upload link is valid for one hour from the version's creation. */
export const UPLOAD_LINK_SECONDS = 3600;

/**
 * Loads what the policy-set and version wire shapes need, in batches: one query for the
 * relationships of a whole page of sets, and one query per included type.
 */
@Injectable()
export class PolicySetPresenter {
  constructor(
    private readonly repo: PolicySetsRepository,
    private readonly organizations: OrganizationsService,
    private readonly projects: ProjectsService,
    private readonly workspaces: WorkspacesService,
    private readonly policies: PoliciesService,
    private readonly links: SignedLinks,
  ) {}

  async views(sets: PolicySetEntity[]): Promise<PolicySetView[]> {
    const [orgs, relations] = await Promise.all([
      this.organizations.findByIds(sets.map((s) => s.organizationId)),
      this.repo.relations(sets),
    ]);
    const names = new Map(orgs.map((o) => [o.id, o.name]));
    const { members } = relations;
    return sets.map((set) => ({
      set,
      organizationName: names.get(set.organizationId) ?? '',
      policyIds: members.policies.get(set.id) ?? [],
      projectIds: members.projects.get(set.id) ?? [],
      workspaceIds: members.workspaces.get(set.id) ?? [],
      exclusionIds: members['workspace-exclusions'].get(set.id) ?? [],
      currentVersion: relations.current.get(set.id) ?? null,
      newestVersion: relations.newest.get(set.id) ?? null,
    }));
  }

  async view(set: PolicySetEntity): Promise<PolicySetView> {
    const [view] = await this.views([set]);
    return view;
  }

  /** The `included` array for the requested includes, or undefined when none was asked for. */
  async included(
    p: Principal,
    views: PolicySetView[],
    includes: readonly string[],
    origin: string,
  ): Promise<ResourceObject[] | undefined> {
    if (!includes.length) return undefined;
    const wants = (name: string) => includes.includes(name);
    const collect = (pick: (v: PolicySetView) => (string | null)[]) => [
      ...new Set(views.flatMap(pick).filter((id): id is string => id !== null)),
    ];
    const workspaceIds = collect((v) => [
      ...(wants('workspaces') ? v.workspaceIds : []),
      ...(wants('workspace-exclusions') ? v.exclusionIds : []),
    ]);
    const projectIds = wants('projects') ? collect((v) => v.projectIds) : [];
    const policyIds = wants('policies') ? collect((v) => v.policyIds) : [];
    // The versions came with the views (see PolicySetsRepository.relations): no query for them.
    const versions = views.flatMap((v) => [
      wants('newest-version') ? v.newestVersion : null,
      wants('current-version') ? v.currentVersion : null,
    ]);
    const [projects, workspaces, policies] = await Promise.all([
      projectIds.length ? this.projects.readableResources(p, projectIds) : [],
      workspaceIds.length ? this.workspaces.readableResources(p, workspaceIds) : [],
      policyIds.length ? this.policies.resources(policyIds) : [],
    ]);
    const included = new Included().add(...projects, ...workspaces, ...policies);
    included.add(...versions.flatMap((v) => (v ? [this.versionResource(v, origin)] : [])));
    return included.toArray();
  }

  versionResource(version: PolicySetVersionEntity, origin: string): ResourceObject {
    return serializePolicySetVersion(version, this.uploadUrl(version, origin));
  }

  private uploadUrl(version: PolicySetVersionEntity, origin: string): string | undefined {
    if (version.status !== 'pending') return undefined;
    return this.links.url(origin, {
      purpose: VERSION_UPLOAD_PURPOSE,
      resourceId: version.id,
      expiresAt: Math.floor(version.createdAt.getTime() / 1000) + UPLOAD_LINK_SECONDS,
    });
  }
}
