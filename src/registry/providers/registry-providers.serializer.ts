import { ResourceObject, toMany } from '../../common/jsonapi/document';
import { bool, enumOf, ResourceDoc, str, timestamp } from '../../common/jsonapi/openapi';
import { isoMillis } from '../../common/jsonapi/timestamps';
import { organizationLinkage } from '../../organizations/organizations.serializer';
import { REGISTRY_NAMES, RegistryProviderEntity } from '../entities/registry-provider.entity';
import { wireNamespace } from '../registry-namespaces';

export const REGISTRY_PROVIDER_DOC: ResourceDoc = {
  type: 'registry-providers',
  attributes: {
    name: str('Provider name: letters, numbers, - and _'),
    namespace: str('The organization name for private providers; the public namespace otherwise'),
    'registry-name': enumOf(REGISTRY_NAMES),
    permissions: { type: 'object', properties: { 'can-delete': bool() } },
    'created-at': timestamp(),
    'updated-at': timestamp(),
  },
  relationships: {
    organization: { type: 'organizations' },
    'registry-provider-versions': { type: 'registry-provider-versions', many: true },
  },
  links: ['self'],
};

const seg = encodeURIComponent;

/** `/api/v2/organizations/:org/registry-providers/:registry/:namespace/:name`. */
export function providerPath(
  organizationName: string,
  registryName: string,
  namespace: string,
  name: string,
): string {
  return `/api/v2/organizations/${seg(organizationName)}/registry-providers/${seg(registryName)}/${seg(namespace)}/${seg(name)}`;
}

export function serializeProvider(
  provider: RegistryProviderEntity,
  organizationName: string,
  canDelete: boolean,
  versionIds: readonly string[],
): ResourceObject {
  const namespace = wireNamespace(provider, organizationName);
  const self = providerPath(organizationName, provider.registryName, namespace, provider.name);
  return {
    id: provider.id,
    type: 'registry-providers',
    attributes: {
      name: provider.name,
      namespace,
      'registry-name': provider.registryName,
      permissions: { 'can-delete': canDelete },
      'created-at': isoMillis(provider.createdAt),
      'updated-at': isoMillis(provider.updatedAt),
    },
    relationships: {
      organization: organizationLinkage(organizationName),
      ...(provider.registryName === 'private'
        ? {
            // The real service's name, which its clients link `include`d versions by.
            'registry-provider-versions': {
              ...toMany('registry-provider-versions', versionIds),
              links: { related: `${self}/versions` },
            },
          }
        : {}),
    },
    links: { self },
  };
}
