import { ResourceObject, toMany } from '../../common/jsonapi/document';
import { bool, int, ResourceDoc, str, timestamp } from '../../common/jsonapi/openapi';
import { isoMillis } from '../../common/jsonapi/timestamps';
import { organizationLinkage } from '../../organizations/organizations.serializer';
import { AgentPoolView } from './agent-pools.service';

export const AGENT_POOL_DOC: ResourceDoc = {
  type: 'agent-pools',
  attributes: {
    name: str('Unique in the organization: letters, numbers, - and _'),
    'organization-scoped': bool('Every workspace of the organization may use the pool'),
    'agent-count': int('Agents that are idle, busy or unknown'),
    'created-at': timestamp(),
  },
  relationships: {
    organization: { type: 'organizations' },
    agents: { type: 'agents', linksOnly: true },
    'authentication-tokens': { type: 'authentication-tokens', linksOnly: true },
    workspaces: { type: 'workspaces', many: true },
    'allowed-workspaces': { type: 'workspaces', many: true },
    'allowed-projects': { type: 'projects', many: true },
    'excluded-workspaces': { type: 'workspaces', many: true },
  },
  links: ['self'],
};

export function agentPoolPath(id: string): string {
  return `/api/v2/agent-pools/${id}`;
}

export function serializeAgentPool(view: AgentPoolView): ResourceObject {
  const { pool } = view;
  const self = agentPoolPath(pool.id);
  return {
    id: pool.id,
    type: 'agent-pools',
    attributes: {
      name: pool.name,
      'organization-scoped': pool.organizationScoped,
      'agent-count': view.agentCount,
      'created-at': isoMillis(pool.createdAt),
    },
    relationships: {
      organization: organizationLinkage(view.organizationName),
      agents: { links: { related: `${self}/agents` } },
      'authentication-tokens': { links: { related: `${self}/authentication-tokens` } },
      workspaces: toMany('workspaces', view.workspaceIds),
      'allowed-workspaces': toMany('workspaces', view.allowedWorkspaceIds),
      // Not supported (the request is refused when non-empty), always empty.
      'allowed-projects': toMany('projects', []),
      'excluded-workspaces': toMany('workspaces', []),
    },
    links: { self },
  };
}
