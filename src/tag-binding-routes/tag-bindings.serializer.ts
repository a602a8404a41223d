import { ResourceObject } from '../common/jsonapi/document';
import { ResourceDoc, str, timestamp } from '../common/jsonapi/openapi';
import { isoMillis } from '../common/jsonapi/timestamps';
import type { TagBindingEntity } from '../tag-bindings/entities/tag-binding.entity';

export const TAG_BINDING_DOC: ResourceDoc = {
  type: 'tag-bindings',
  attributes: { key: str(), value: str('Empty for a key-only tag'), 'created-at': timestamp() },
  links: [],
};

export function serializeTagBinding(b: TagBindingEntity): ResourceObject {
  return {
    id: b.id,
    type: 'tag-bindings',
    attributes: { key: b.key, value: b.value, 'created-at': isoMillis(b.createdAt) },
  };
}

export {
  EFFECTIVE_TAG_BINDING_DOC,
  serializeEffectiveTagBinding,
} from '../tag-bindings/effective-tag-bindings.serializer';
