import { ResourceObject, toMany } from '../common/jsonapi/document';
import { enumOf, int, nullableStr, ResourceDoc, str, timestamp } from '../common/jsonapi/openapi';
import { isoMillis } from '../common/jsonapi/timestamps';
import { organizationLinkage } from '../organizations/organizations.serializer';
import { PolicyEntity } from './entities/policy.entity';
import { ENFORCEMENT_LEVELS, POLICY_KINDS } from './policy-kinds';

export const POLICY_DOC: ResourceDoc = {
  type: 'policies',
  attributes: {
    name: str('Unique in the organization: letters, numbers, - and _'),
    description: nullableStr(),
    kind: enumOf(POLICY_KINDS, 'Given on create; cannot change'),
    'enforcement-level': enumOf(
      [...new Set(Object.values(ENFORCEMENT_LEVELS).flat())],
      'framework_a: advisory, soft-mandatory, hard-mandatory; framework_b: advisory, mandatory',
    ),
    query: nullableStr('framework_b only (required for it): the query the engine evaluates'),
    enforce: {
      type: 'array',
      description:
        "The real service's legacy form of `enforcement-level` (`[{path, mode}]`), accepted when that is absent; shows the same level",
      items: { type: 'object', properties: { path: str(), mode: str() } },
    },
    'policy-set-count': int('Policy sets this policy belongs to'),
    'created-at': timestamp(),
    'updated-at': timestamp(),
  },
  relationships: {
    organization: { type: 'organizations' },
    'policy-sets': { type: 'policy-sets', many: true },
  },
  links: ['self', 'upload', 'download'],
};

export interface PolicyView {
  policy: PolicyEntity;
  organizationName: string;
  policySetIds: string[];
}

/** The file name the real service's legacy `enforce` entry names: the policy's name and extension. */
function legacyPolicyPath(policy: PolicyEntity): string {
  return `${policy.name}.${policy.kind === 'framework_b' ? 'rego' : 'sentinel'}`;
}

export function policyPath(id: string): string {
  return `/api/v2/policies/${id}`;
}

export function serializePolicy(view: PolicyView): ResourceObject {
  const { policy } = view;
  const links: Record<string, string> = {
    self: policyPath(policy.id),
    upload: `${policyPath(policy.id)}/upload`,
  };
  if (policy.codeSha256 !== null) links.download = `${policyPath(policy.id)}/download`;
  return {
    id: policy.id,
    type: 'policies',
    attributes: {
      name: policy.name,
      description: policy.description,
      kind: policy.kind,
      'enforcement-level': policy.enforcementLevel,
      query: policy.query,
      enforce: [{ path: legacyPolicyPath(policy), mode: policy.enforcementLevel }],
      'policy-set-count': view.policySetIds.length,
      'created-at': isoMillis(policy.createdAt),
      'updated-at': isoMillis(policy.updatedAt),
    },
    relationships: {
      organization: organizationLinkage(view.organizationName),
      'policy-sets': toMany('policy-sets', view.policySetIds),
    },
    links,
  };
}
