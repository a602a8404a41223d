import { RelationshipObject, ResourceObject, toMany, toOne } from '../common/jsonapi/document';
import { bool, enumOf, int, nullableStr, ResourceDoc, str, timestamp } from '../common/jsonapi/openapi';
import { isoMillis } from '../common/jsonapi/timestamps';
import { organizationLinkage } from '../organizations/organizations.serializer';
import { POLICY_KINDS } from '../policies/policy-kinds';
import { PolicySetVersionEntity } from './entities/policy-set-version.entity';
import { PolicySetEntity } from './entities/policy-set.entity';

export const POLICY_SET_DOC: ResourceDoc = {
  type: 'policy-sets',
  attributes: {
    name: str('Unique in the organization: letters, numbers, - and _'),
    description: nullableStr('Markdown'),
    global: bool('Enforced on every workspace of the organization'),
    kind: enumOf(POLICY_KINDS, 'Given on create (default framework_a); cannot change'),
    overridable: bool('framework_a: only with agent-enabled'),
    'agent-enabled': bool('framework_a only'),
    'policy-tool-version': str('`latest` or a version; framework_a: only with agent-enabled'),
    'policy-count': int('Policies attached through the policies relationship'),
    'workspace-count': int('Workspaces attached directly'),
    'project-count': int('Projects attached'),
    'policies-path': nullableStr('Subdirectory of the VCS repository; only with vcs-repo'),
    versioned: bool('True for sets whose code comes from a VCS repository or uploaded versions'),
    'vcs-repo': {
      type: 'object',
      nullable: true,
      properties: {
        branch: nullableStr(),
        identifier: str('<namespace>/<repo> or <org>/<project>/_git/<repo>'),
        'oauth-token-id': nullableStr(),
        'vcs-app-installation-id': nullableStr(),
        'ingress-submodules': bool(),
      },
    },
    'created-at': timestamp(),
    'updated-at': timestamp(),
  },
  relationships: {
    organization: { type: 'organizations' },
    projects: { type: 'projects', many: true },
    workspaces: { type: 'workspaces', many: true },
    'workspace-exclusions': { type: 'workspaces', many: true },
    policies: { type: 'policies', many: true },
    'current-version': { type: 'policy-set-versions' },
    'newest-version': { type: 'policy-set-versions' },
  },
  links: ['self'],
};

/** A policy set with everything its wire shape needs, loaded in one batch per page. */
export interface PolicySetView {
  set: PolicySetEntity;
  organizationName: string;
  policyIds: string[];
  projectIds: string[];
  workspaceIds: string[];
  exclusionIds: string[];
  currentVersion: PolicySetVersionEntity | null;
  newestVersion: PolicySetVersionEntity | null;
}

export function policySetPath(id: string): string {
  return `/api/v2/policy-sets/${id}`;
}

/** True for VCS sets and for sets that took an uploaded version; false for policy-relationship sets. */
export function isVersioned(set: PolicySetEntity): boolean {
  return set.vcsIdentifier !== null || set.uploadVersioned;
}

function vcsRepo(set: PolicySetEntity): Record<string, unknown> | null {
  if (set.vcsIdentifier === null) return null;
  return {
    branch: set.vcsBranch,
    identifier: set.vcsIdentifier,
    'oauth-token-id': set.vcsOauthTokenId,
    'vcs-app-installation-id': set.vcsAppInstallationId,
    'ingress-submodules': set.vcsIngressSubmodules,
  };
}

export function serializePolicySet(view: PolicySetView): ResourceObject {
  const { set } = view;
  const relationships: Record<string, RelationshipObject> = {
    organization: organizationLinkage(view.organizationName),
  };
  // A global set applies to every workspace: it has no project or workspace attachments to show.
  if (!set.global) {
    relationships.projects = toMany('projects', view.projectIds);
    relationships.workspaces = toMany('workspaces', view.workspaceIds);
  }
  relationships['workspace-exclusions'] = toMany('workspaces', view.exclusionIds);
  relationships.policies = toMany('policies', view.policyIds);
  relationships['current-version'] = toOne('policy-set-versions', view.currentVersion?.id ?? null);
  relationships['newest-version'] = toOne('policy-set-versions', view.newestVersion?.id ?? null);
  return {
    id: set.id,
    type: 'policy-sets',
    attributes: {
      name: set.name,
      description: set.description,
      global: set.global,
      kind: set.kind,
      overridable: set.overridable,
      'agent-enabled': set.agentEnabled,
      'policy-tool-version': set.policyToolVersion,
      'policy-count': view.policyIds.length,
      'workspace-count': view.workspaceIds.length,
      'project-count': view.projectIds.length,
      'policies-path': set.policiesPath,
      versioned: isVersioned(set),
      'vcs-repo': vcsRepo(set),
      'created-at': isoMillis(set.createdAt),
      'updated-at': isoMillis(set.updatedAt),
    },
    relationships,
    links: { self: policySetPath(set.id) },
  };
}
