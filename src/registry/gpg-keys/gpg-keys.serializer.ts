import { ResourceObject } from '../../common/jsonapi/document';
import { nullableStr, ResourceDoc, str, timestamp } from '../../common/jsonapi/openapi';
import { isoMillis } from '../../common/jsonapi/timestamps';
import { RegistryGpgKeyEntity } from '../entities/registry-gpg-key.entity';

export const GPG_KEYS_BASE = 'api/registry/private/v2/gpg-keys';

export const GPG_KEY_DOC: ResourceDoc = {
  type: 'gpg-keys',
  attributes: {
    'ascii-armor': str('The ASCII-armored public key as uploaded'),
    'key-id': str('16 upper-case hex digits, read from the key', { example: '32966F3FB5AC1129' }),
    namespace: str('The organization whose private registry the key belongs to'),
    source: str('Always empty'),
    'source-url': nullableStr('Always null'),
    'trust-signature': str('Always empty'),
    'created-at': timestamp(),
    'updated-at': timestamp(),
  },
  links: ['self'],
};

export function gpgKeyPath(namespace: string, keyId: string): string {
  return `/${GPG_KEYS_BASE}/${encodeURIComponent(namespace)}/${keyId}`;
}

export function serializeGpgKey(key: RegistryGpgKeyEntity, namespace: string): ResourceObject {
  return {
    id: key.id,
    type: 'gpg-keys',
    attributes: {
      'ascii-armor': key.asciiArmor,
      'created-at': isoMillis(key.createdAt),
      'key-id': key.keyId,
      namespace,
      source: '',
      'source-url': null,
      'trust-signature': '',
      'updated-at': isoMillis(key.updatedAt),
    },
    links: { self: gpgKeyPath(namespace, key.keyId) },
  };
}
