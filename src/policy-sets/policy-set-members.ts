import { Injectable } from '@nestjs/common';
import { Violations } from '../common/errors/domain-error';
import { ResourceIdentifier } from '../common/jsonapi/document';
import { PoliciesService } from '../policies/policies.service';
import { PolicyKind } from '../policies/policy-kinds';
import { ProjectsService } from '../projects/projects.service';
import { WorkspacesService } from '../workspaces/workspaces.service';
import { MemberRelation } from './policy-sets.repository';

const NOUN: Record<MemberRelation, string> = {
  policies: 'Policy',
  projects: 'Project',
  workspaces: 'Workspace',
  'workspace-exclusions': 'Workspace',
};

/**
 * Checks that referenced members exist in the set's organization (and, for policies, are of the
 * set's kind). Members of other organizations read as unknown, exactly like missing ones.
 */
@Injectable()
export class PolicySetMembers {
  constructor(
    private readonly policies: PoliciesService,
    private readonly projects: ProjectsService,
    private readonly workspaces: WorkspacesService,
  ) {}

  /**
   * The ids of `refs` that may be attached; each one that may not adds a violation pointing at
   * `${pointer}/<index>/id`.
   */
  async resolve(
    relation: MemberRelation,
    organizationId: string,
    kind: PolicyKind,
    refs: ResourceIdentifier[],
    pointer: string,
    violations: Violations,
  ): Promise<string[]> {
    if (!refs.length) return [];
    const ids = refs.map((r) => r.id);
    const found = new Map<string, { organizationId: string; kind?: PolicyKind }>();
    const rows =
      relation === 'policies'
        ? await this.policies.findByIds(ids)
        : relation === 'projects'
          ? await this.projects.findByIds(ids)
          : await this.workspaces.findByIds(ids);
    for (const row of rows) found.set(row.id, row);
    const accepted: string[] = [];
    refs.forEach((ref, i) => {
      const member = found.get(ref.id);
      const at = `${pointer}/${i}/id`;
      if (!member || member.organizationId !== organizationId) {
        violations.add(`${NOUN[relation]} ${ref.id} not found`, at);
      } else if (member.kind !== undefined && member.kind !== kind) {
        violations.add(
          `Policy ${ref.id} is a ${member.kind} policy; this policy set takes ${kind} policies`,
          at,
        );
      } else {
        accepted.push(ref.id);
      }
    });
    return accepted;
  }
}
