import { ResourceObject } from '../common/jsonapi/document';
import { ResourceDoc, str, timestamp } from '../common/jsonapi/openapi';
import { isoMillis } from '../common/jsonapi/timestamps';
import { projectPath } from '../projects/projects.serializer';
import type { TagBindingEntity } from '../tag-bindings/entities/tag-binding.entity';
import { EffectiveTagBinding } from '../tag-bindings/tag-bindings.service';

export const TAG_BINDING_DOC: ResourceDoc = {
  type: 'tag-bindings',
  attributes: { key: str(), value: str('Empty for a key-only tag'), 'created-at': timestamp() },
  links: [],
};

export const EFFECTIVE_TAG_BINDING_DOC: ResourceDoc = {
  type: 'effective-tag-bindings',
  attributes: { key: str(), value: str() },
  links: ['inherited-from'],
};

export function serializeTagBinding(b: TagBindingEntity): ResourceObject {
  return {
    id: b.id,
    type: 'tag-bindings',
    attributes: { key: b.key, value: b.value, 'created-at': isoMillis(b.createdAt) },
  };
}

export function serializeEffectiveTagBinding(e: EffectiveTagBinding): ResourceObject {
  const resource: ResourceObject = {
    id: e.binding.id,
    type: 'effective-tag-bindings',
    attributes: { key: e.binding.key, value: e.binding.value },
  };
  if (e.inheritedFrom) resource.links = { 'inherited-from': projectPath(e.inheritedFrom) };
  return resource;
}
