import { ResourceObject } from '../common/jsonapi/document';
import { int, nullableStr, ResourceDoc, str, timestamp } from '../common/jsonapi/openapi';
import { isoMillis } from '../common/jsonapi/timestamps';
import { organizationLinkage } from '../organizations/organizations.serializer';
import {
  TAG_BINDING_RELATIONSHIP_DOCS,
  tagBindingRelationships,
} from '../tag-bindings/tag-bindings.relationships';
import { ProjectEntity } from './entities/project.entity';

export const PROJECT_DOC: ResourceDoc = {
  type: 'projects',
  attributes: {
    name: str('3–40 characters: letters, numbers, spaces, - and _'),
    description: nullableStr(),
    'workspace-count': int('Workspaces in the project'),
    'created-at': timestamp(),
    'updated-at': timestamp(),
  },
  relationships: { organization: { type: 'organizations' }, ...TAG_BINDING_RELATIONSHIP_DOCS },
  links: ['self'],
};

export function projectPath(id: string): string {
  return `/api/v2/projects/${id}`;
}

export function serializeProject(
  project: ProjectEntity,
  organizationName: string,
  workspaceCount: number,
): ResourceObject {
  return {
    id: project.id,
    type: 'projects',
    attributes: {
      name: project.name,
      description: project.description,
      'workspace-count': workspaceCount,
      'created-at': isoMillis(project.createdAt),
      'updated-at': isoMillis(project.updatedAt),
    },
    relationships: {
      organization: organizationLinkage(organizationName),
      ...tagBindingRelationships(projectPath(project.id)),
    },
    links: { self: projectPath(project.id) },
  };
}
