import { ResourceObject } from '../common/jsonapi/document';
import { bool, ResourceDoc, str, timestamp } from '../common/jsonapi/openapi';
import { isoMillis } from '../common/jsonapi/timestamps';
import { ReservedTagKeyEntity } from './entities/reserved-tag-key.entity';

export const RESERVED_TAG_KEY_DOC: ResourceDoc = {
  type: 'reserved-tag-keys',
  attributes: {
    key: str('1–128 letters, digits, spaces and . = + - @ : _; unique in the organization (ignoring case)'),
    'disable-overrides': bool('When true, workspaces cannot override an inherited tag with this key'),
    'created-at': timestamp(),
    'updated-at': timestamp(),
  },
  links: ['self'],
};

export function serializeReservedTagKey(k: ReservedTagKeyEntity): ResourceObject {
  return {
    id: k.id,
    type: 'reserved-tag-keys',
    attributes: {
      key: k.key,
      'disable-overrides': k.disableOverrides,
      'created-at': isoMillis(k.createdAt),
      'updated-at': isoMillis(k.updatedAt),
    },
    links: { self: `/api/v2/reserved-tag-keys/${k.id}` },
  };
}
