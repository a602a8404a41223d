import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { RelationshipObject } from '../common/jsonapi/document';
import { ResourceDoc } from '../common/jsonapi/openapi';

/**
 * What projects and workspaces show and accept about their tag bindings. Kept apart from the
 * tag-binding serializer so the project and workspace serializers can use it without a cycle.
 */
export function tagBindingRelationships(selfPath: string): Record<string, RelationshipObject> {
  return {
    'tag-bindings': { links: { related: `${selfPath}/tag-bindings` } },
    'effective-tag-bindings': { links: { related: `${selfPath}/effective-tag-bindings` } },
  };
}

export const TAG_BINDING_RELATIONSHIP_DOCS: NonNullable<ResourceDoc['relationships']> = {
  'tag-bindings': { type: 'tag-bindings', many: true, linksOnly: true },
  'effective-tag-bindings': { type: 'effective-tag-bindings', many: true, linksOnly: true },
};

/** `data` of a tag-binding list: items carry attributes, not ids. */
export const TAG_BINDING_LIST_SCHEMA: SchemaObject = {
  type: 'array',
  maxItems: 10,
  items: {
    type: 'object',
    required: ['type', 'attributes'],
    properties: {
      type: { type: 'string', enum: ['tag-bindings'] },
      attributes: {
        type: 'object',
        required: ['key'],
        properties: {
          key: {
            type: 'string',
            maxLength: 128,
            description: 'Letters, digits and _ . = + - @ :; not starting with hc: or hcp:',
          },
          value: { type: 'string', maxLength: 256, description: 'Optional; empty for a key-only tag' },
        },
      },
    },
  },
};

/** For `ApiCreate`/`ApiUpdate` of projects and workspaces: a full list replaces their bindings. */
export const TAG_BINDINGS_RELATIONSHIP_BODY = { 'tag-bindings': TAG_BINDING_LIST_SCHEMA };
