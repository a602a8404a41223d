import { ResourceObject } from '../common/jsonapi/document';
import { ResourceDoc, str } from '../common/jsonapi/openapi';
import { EffectiveTagBinding } from './tag-bindings.service';

export const EFFECTIVE_TAG_BINDING_DOC: ResourceDoc = {
  type: 'effective-tag-bindings',
  attributes: { key: str(), value: str() },
  links: ['inherited-from'],
};

/**
 * Shared by the tag-binding routes and the `include=effective_tag_bindings` of projects and
 * workspaces (which cannot import those routes), so it names the project path itself.
 */
export function serializeEffectiveTagBinding(e: EffectiveTagBinding): ResourceObject {
  const resource: ResourceObject = {
    id: e.binding.id,
    type: 'effective-tag-bindings',
    attributes: { key: e.binding.key, value: e.binding.value },
  };
  if (e.inheritedFrom) resource.links = { 'inherited-from': `/api/v2/projects/${e.inheritedFrom}` };
  return resource;
}
