import { ResourceObject, toOne } from '../../common/jsonapi/document';
import { bool, enumOf, nullableStr, ResourceDoc, str, timestamp } from '../../common/jsonapi/openapi';
import { isoMillis } from '../../common/jsonapi/timestamps';
import { organizationLinkage } from '../../organizations/organizations.serializer';
import {
  MODULE_VERSION_STATUSES,
  RegistryModuleVersionEntity,
} from '../entities/registry-module-version.entity';
import { RegistryModuleEntity } from '../entities/registry-module.entity';
import { REGISTRY_NAMES } from '../entities/registry-provider.entity';
import { wireNamespace } from '../registry-namespaces';

/** `pending` until a version is `ok`, then `setup_complete` (the reference's statuses for modules without VCS). */
export const MODULE_STATUSES = ['pending', 'setup_complete'] as const;

export const REGISTRY_MODULE_DOC: ResourceDoc = {
  type: 'registry-modules',
  attributes: {
    name: str('Module name: letters, numbers, - and _'),
    namespace: str('The organization name for private modules; the public namespace otherwise'),
    provider: str('The provider the module targets: lower-case letters and numbers'),
    'registry-name': enumOf(REGISTRY_NAMES),
    status: enumOf(MODULE_STATUSES),
    'version-statuses': {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          version: str(),
          status: enumOf(MODULE_VERSION_STATUSES),
          error: nullableStr('Why the archive was refused'),
        },
      },
    },
    'no-code': bool('Always false: no-code provisioning is not offered'),
    'publishing-mechanism': nullableStr('Always null: modules are published by upload'),
    'vcs-repo': {
      type: 'object',
      nullable: true,
      description: 'Always null: modules are published by upload',
    },
    permissions: {
      type: 'object',
      properties: { 'can-delete': bool(), 'can-resync': bool(), 'can-retry': bool() },
    },
    'created-at': timestamp(),
    'updated-at': timestamp(),
  },
  relationships: { organization: { type: 'organizations' } },
  links: ['self'],
};

export const MODULE_VERSION_DOC: ResourceDoc = {
  type: 'registry-module-versions',
  attributes: {
    version: str('Semantic version, unique per module and provider'),
    status: enumOf(MODULE_VERSION_STATUSES),
    source: str('Always `tfe-api`: uploaded through the API'),
    error: nullableStr('Why the archive was refused (status `reg_ingress_failed`)'),
    'created-at': timestamp(),
    'updated-at': timestamp(),
  },
  relationships: { 'registry-module': { type: 'registry-modules' } },
  links: ['self', 'upload'],
};

const seg = encodeURIComponent;

/** `/api/v2/organizations/:org/registry-modules/:registry/:namespace/:name/:provider`. */
export function modulePath(organizationName: string, module: RegistryModuleEntity): string {
  const namespace = wireNamespace(module, organizationName);
  return `/api/v2/organizations/${seg(organizationName)}/registry-modules/${seg(module.registryName)}/${seg(namespace)}/${seg(module.name)}/${seg(module.provider)}`;
}

export function serializeModule(
  module: RegistryModuleEntity,
  organizationName: string,
  canManage: boolean,
  versions: readonly RegistryModuleVersionEntity[],
): ResourceObject {
  return {
    id: module.id,
    type: 'registry-modules',
    attributes: {
      name: module.name,
      namespace: wireNamespace(module, organizationName),
      provider: module.provider,
      'registry-name': module.registryName,
      status: versions.some((v) => v.status === 'ok') ? 'setup_complete' : 'pending',
      'version-statuses': versions.map((v) => ({ version: v.version, status: v.status, error: v.error })),
      'no-code': false,
      'publishing-mechanism': null,
      'vcs-repo': null,
      permissions: { 'can-delete': canManage, 'can-resync': false, 'can-retry': false },
      'created-at': isoMillis(module.createdAt),
      'updated-at': isoMillis(module.updatedAt),
    },
    relationships: { organization: organizationLinkage(organizationName) },
    links: { self: modulePath(organizationName, module) },
  };
}

/** `upload` is a capability: only callers who may publish get it, and only while the version waits for it. */
export function serializeModuleVersion(
  v: RegistryModuleVersionEntity,
  modulePathOfVersion: string,
  uploadLink: string | null,
): ResourceObject {
  const links: Record<string, string> = {
    self: `${modulePathOfVersion}/version?module_version=${seg(v.version)}`,
  };
  if (uploadLink) links.upload = uploadLink;
  return {
    id: v.id,
    type: 'registry-module-versions',
    attributes: {
      version: v.version,
      status: v.status,
      source: 'tfe-api',
      error: v.error,
      'created-at': isoMillis(v.createdAt),
      'updated-at': isoMillis(v.updatedAt),
    },
    relationships: { 'registry-module': toOne('registry-modules', v.moduleId) },
    links,
  };
}
