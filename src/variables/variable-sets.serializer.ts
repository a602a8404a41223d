import { ResourceObject, toMany } from '../common/jsonapi/document';
import { bool, int, ResourceDoc, str, timestamp } from '../common/jsonapi/openapi';
import { isoMillis } from '../common/jsonapi/timestamps';
import { organizationLinkage } from '../organizations/organizations.serializer';
import { VariableSetEntity } from './entities/variable-set.entity';
import { Attachments } from './variable-sets.repository';

export interface VariableSetView {
  set: VariableSetEntity;
  organizationName: string;
  attachments: Attachments;
  varIds: string[];
}

export const VARSET_DOC: ResourceDoc = {
  type: 'varsets',
  attributes: {
    name: str('Unique in the organization; between sets of one precedence tier, the first name wins'),
    description: str(),
    global: bool('Applies to every workspace of the organization'),
    priority: bool('Overrides every more specific scope, run variables included'),
    'updated-at': timestamp(),
    'var-count': int(),
    'workspace-count': int(),
    'project-count': int(),
  },
  relationships: {
    organization: { type: 'organizations' },
    parent: { type: ['organizations', 'projects'] },
    vars: { type: 'vars', many: true },
    workspaces: { type: 'workspaces', many: true },
    projects: { type: 'projects', many: true },
  },
  links: ['self'],
};

export function serializeVariableSet(view: VariableSetView): ResourceObject {
  const { set, organizationName, attachments, varIds } = view;
  return {
    id: set.id,
    type: 'varsets',
    attributes: {
      name: set.name,
      description: set.description,
      global: set.global,
      priority: set.priority,
      'updated-at': isoMillis(set.updatedAt),
      'var-count': varIds.length,
      'workspace-count': attachments.workspaceIds.length,
      'project-count': attachments.projectIds.length,
    },
    relationships: {
      organization: organizationLinkage(organizationName),
      parent: set.projectId
        ? { data: { id: set.projectId, type: 'projects' } }
        : organizationLinkage(organizationName),
      vars: toMany('vars', varIds),
      workspaces: toMany('workspaces', attachments.workspaceIds),
      projects: toMany('projects', attachments.projectIds),
    },
    links: { self: `/api/v2/varsets/${set.id}` },
  };
}
