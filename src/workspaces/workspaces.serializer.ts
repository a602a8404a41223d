import { ResourceObject, toOne } from '../common/jsonapi/document';
import { bool, nullableStr, ResourceDoc, str, timestamp } from '../common/jsonapi/openapi';
import { isoMillis } from '../common/jsonapi/timestamps';
import { organizationLinkage } from '../organizations/organizations.serializer';
import {
  TAG_BINDING_RELATIONSHIP_DOCS,
  tagBindingRelationships,
} from '../tag-bindings/tag-bindings.relationships';
import { WorkspaceAccessLevel } from '../teams/entities/team-workspace.entity';
import { WorkspaceEntity } from './entities/workspace.entity';

export const WORKSPACE_DOC: ResourceDoc = {
  type: 'workspaces',
  attributes: {
    name: str('Unique in the organization: letters, numbers, - and _'),
    description: nullableStr(),
    'engine-version': str('`latest` or a version of the engine catalog'),
    locked: bool('A locked workspace starts no queued run until it is unlocked'),
    permissions: {
      type: 'object',
      properties: {
        'can-update': bool(),
        'can-destroy': bool(),
        'can-queue-run': bool(),
        'can-read-runs': bool(),
      },
    },
    'created-at': timestamp(),
    'updated-at': timestamp(),
  },
  relationships: {
    organization: { type: 'organizations' },
    project: { type: 'projects' },
    'locked-by': { type: 'users | teams | organizations' },
    ...TAG_BINDING_RELATIONSHIP_DOCS,
  },
  links: ['self'],
};

export function workspacePath(id: string): string {
  return `/api/v2/workspaces/${id}`;
}

export function serializeWorkspace(
  ws: WorkspaceEntity,
  organizationName: string,
  level: WorkspaceAccessLevel | null,
): ResourceObject {
  const admin = level === 'admin';
  return {
    id: ws.id,
    type: 'workspaces',
    attributes: {
      name: ws.name,
      description: ws.description,
      'engine-version': ws.engineVersion,
      locked: ws.locked,
      permissions: {
        'can-update': admin,
        'can-destroy': admin,
        'can-queue-run': level === 'write' || admin,
        'can-read-runs': level !== null,
      },
      'created-at': isoMillis(ws.createdAt),
      'updated-at': isoMillis(ws.updatedAt),
    },
    relationships: {
      organization: organizationLinkage(organizationName),
      project: toOne('projects', ws.projectId),
      'locked-by': ws.lockedByType ? toOne(ws.lockedByType, ws.lockedById) : { data: null },
      ...tagBindingRelationships(workspacePath(ws.id)),
    },
    links: { self: workspacePath(ws.id) },
  };
}
