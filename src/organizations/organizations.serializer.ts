import { ResourceObject } from '../common/jsonapi/document';
import { bool, enumOf, ResourceDoc, str, timestamp } from '../common/jsonapi/openapi';
import { isoMillis } from '../common/jsonapi/timestamps';
import { OrganizationEntity } from './entities/organization.entity';
import { entitlementSetPath } from './entitlements';

export const ORGANIZATION_DOC: ResourceDoc = {
  type: 'organizations',
  attributes: {
    name: str('Unique name; also the resource id'),
    email: str('Contact email'),
    edition: enumOf(['free', 'enterprise'], 'Feature edition; set by site administrators'),
    'external-id': str('Internal, immutable id'),
    permissions: { type: 'object', properties: { 'can-update': bool(), 'can-destroy': bool() } },
    'created-at': timestamp(),
    'updated-at': timestamp(),
  },
  relationships: { 'default-project': { type: 'projects' }, 'entitlement-set': { type: 'entitlement-sets' } },
  links: ['self'],
};

export function organizationPath(name: string): string {
  return `/api/v2/organizations/${encodeURIComponent(name)}`;
}

/**
 * `defaultProjectId` is the organization's Default Project (the real service's management
 * provider reads the relationship); null only if it could not be found.
 */
export function serializeOrganization(
  org: OrganizationEntity,
  isOwner: boolean,
  defaultProjectId: string | null,
): ResourceObject {
  return {
    id: org.name,
    type: 'organizations',
    attributes: {
      name: org.name,
      email: org.email,
      edition: org.edition,
      'external-id': org.id,
      permissions: { 'can-update': isOwner, 'can-destroy': isOwner },
      'created-at': isoMillis(org.createdAt),
      'updated-at': isoMillis(org.updatedAt),
    },
    relationships: {
      'default-project': { data: defaultProjectId ? { id: defaultProjectId, type: 'projects' } : null },
      'entitlement-set': {
        data: { id: org.id, type: 'entitlement-sets' },
        links: { related: entitlementSetPath(org.name) },
      },
    },
    links: { self: organizationPath(org.name) },
  };
}

/** Relationship linkage to an organization: its id on the wire is its name. */
export function organizationLinkage(name: string): { data: { id: string; type: string } } {
  return { data: { id: name, type: 'organizations' } };
}
