import { applyDecorators, HttpCode, SetMetadata } from '@nestjs/common';
import { ApiBody, ApiQuery, ApiResponse } from '@nestjs/swagger';
import { MAX_RELATIONSHIP_IDENTIFIERS } from './body';
import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { registerFields } from './fields';

/** How one JSON:API resource type looks on the wire, for the OpenAPI document. */
export interface ResourceDoc {
  type: string;
  attributes: Record<string, SchemaObject>;
  /** Relationship name → member type; `many` for to-many; `linksOnly`: only `links.related`, no data. */
  relationships?: Record<string, { type: string; many?: boolean; linksOnly?: boolean }>;
  links?: string[];
}

export const str = (description?: string, extra: SchemaObject = {}): SchemaObject => ({
  type: 'string',
  description,
  ...extra,
});
export const nullableStr = (description?: string): SchemaObject => ({
  type: 'string',
  nullable: true,
  description,
});
export const bool = (description?: string): SchemaObject => ({ type: 'boolean', description });
export const int = (description?: string): SchemaObject => ({ type: 'integer', description });
export const timestamp = (description = 'ISO 8601 UTC, milliseconds, Z'): SchemaObject => ({
  type: 'string',
  format: 'date-time',
  example: '2024-08-13T23:06:42.523Z',
  description,
});
export const enumOf = (values: readonly string[], description?: string): SchemaObject => ({
  type: 'string',
  enum: [...values],
  description,
});

const identifierSchema = (type: string): SchemaObject => ({
  type: 'object',
  required: ['id', 'type'],
  properties: { id: { type: 'string' }, type: { type: 'string', enum: [type] } },
});

const ERROR_DOCUMENT: SchemaObject = {
  type: 'object',
  properties: {
    errors: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          status: { type: 'string', example: '422' },
          title: { type: 'string', example: 'invalid attribute' },
          detail: { type: 'string', example: 'Name has already been taken' },
          source: {
            type: 'object',
            properties: { pointer: { type: 'string' }, parameter: { type: 'string' } },
          },
        },
      },
    },
  },
};

const PAGINATION_META: SchemaObject = {
  type: 'object',
  properties: {
    pagination: {
      type: 'object',
      properties: Object.fromEntries(
        ['current-page', 'page-size', 'prev-page', 'next-page', 'total-pages', 'total-count'].map((k) => [
          k,
          { type: 'integer', nullable: k === 'prev-page' || k === 'next-page' },
        ]),
      ),
    },
  },
};

const LIST_LINKS: SchemaObject = {
  type: 'object',
  properties: Object.fromEntries(
    ['self', 'first', 'prev', 'next', 'last'].map((k) => [
      k,
      { type: 'string', format: 'uri', nullable: true },
    ]),
  ),
};

const RELATED_LINK: Record<string, SchemaObject> = {
  links: { type: 'object', properties: { related: { type: 'string' } } },
};

export function resourceSchema(doc: ResourceDoc): SchemaObject {
  registerFields(doc.type, [...Object.keys(doc.attributes), ...Object.keys(doc.relationships ?? {})]);
  const relationships = Object.fromEntries(
    Object.entries(doc.relationships ?? {}).map(([name, rel]) => [
      name,
      {
        type: 'object',
        properties: rel.linksOnly
          ? RELATED_LINK
          : {
              data: rel.many
                ? { type: 'array', items: identifierSchema(rel.type) }
                : { ...identifierSchema(rel.type), nullable: true },
            },
      },
    ]),
  );
  return {
    type: 'object',
    required: ['id', 'type', 'attributes'],
    properties: {
      id: { type: 'string' },
      type: { type: 'string', enum: [doc.type] },
      attributes: { type: 'object', properties: doc.attributes },
      ...(doc.relationships ? { relationships: { type: 'object', properties: relationships } } : {}),
      links: {
        type: 'object',
        properties: Object.fromEntries((doc.links ?? ['self']).map((l) => [l, { type: 'string' }])),
      },
    },
  };
}

function requestSchema(
  doc: ResourceDoc,
  writable: readonly string[],
  relationships: readonly string[],
  relationshipData: Record<string, SchemaObject> = {},
): SchemaObject {
  const attributes = Object.fromEntries(
    writable.filter((a) => doc.attributes[a]).map((a) => [a, doc.attributes[a]]),
  );
  const rels = Object.fromEntries(
    relationships.map((name) => {
      const rel = doc.relationships?.[name] ?? { type: name, many: true };
      return [
        name,
        {
          type: 'object',
          properties: {
            data:
              relationshipData[name] ??
              (rel.many ? { type: 'array', items: identifierSchema(rel.type) } : identifierSchema(rel.type)),
          },
        },
      ];
    }),
  );
  return {
    type: 'object',
    required: ['data'],
    properties: {
      data: {
        type: 'object',
        properties: {
          type: { type: 'string', enum: [doc.type] },
          attributes: { type: 'object', properties: attributes },
          ...(relationships.length ? { relationships: { type: 'object', properties: rels } } : {}),
        },
      },
    },
  };
}

function errorResponses(statuses: number[]): MethodDecorator[] {
  return statuses.map((status) =>
    ApiResponse({ status, description: 'JSON:API error document', schema: ERROR_DOCUMENT }),
  );
}

const COMMON_ERRORS = [401, 404];

export interface BodyDoc {
  writable: readonly string[];
  relationships?: readonly string[];
  /** The `data` schema of relationships whose members are not resource identifiers. */
  relationshipData?: Record<string, SchemaObject>;
}

/** The `included` array: any of the given resource types, or untyped when none are named. */
function includedSchema(docs: readonly ResourceDoc[]): SchemaObject {
  if (!docs.length) return { type: 'array' };
  return {
    type: 'array',
    items: docs.length === 1 ? resourceSchema(docs[0]) : { oneOf: docs.map(resourceSchema) },
  };
}

/** GET one resource; `includedDocs` describe the resources `include` may add. */
export function ApiShow(
  doc: ResourceDoc,
  includes: readonly string[] = [],
  includedDocs: readonly ResourceDoc[] = [],
): MethodDecorator {
  return applyDecorators(
    ApiResponse({
      status: 200,
      schema: {
        type: 'object',
        properties: { data: resourceSchema(doc), included: includedSchema(includedDocs) },
      },
    }),
    ...(includes.length
      ? [ApiQuery({ name: 'include', required: false, description: `comma list of: ${includes.join(', ')}` })]
      : []),
    ...errorResponses(COMMON_ERRORS),
  );
}

/** Handler metadata set by `ApiList`: the route answers a paginated collection (it must be `@Sortable`). */
export const LIST_ROUTE = 'plinth:list-route';

/** GET a paginated collection. */
export function ApiList(
  doc: ResourceDoc,
  options: {
    includes?: readonly string[];
    includedDocs?: readonly ResourceDoc[];
    query?: Record<string, string>;
  } = {},
): MethodDecorator {
  const queries = Object.entries(options.query ?? {}).map(([name, description]) =>
    ApiQuery({ name, required: false, type: String, description }),
  );
  return applyDecorators(
    SetMetadata(LIST_ROUTE, true),
    ApiResponse({
      status: 200,
      schema: {
        type: 'object',
        properties: {
          data: { type: 'array', items: resourceSchema(doc) },
          included: includedSchema(options.includedDocs ?? []),
          links: LIST_LINKS,
          meta: PAGINATION_META,
        },
      },
    }),
    ApiQuery({ name: 'page[number]', required: false, type: Number, description: 'default 1' }),
    ApiQuery({ name: 'page[size]', required: false, type: Number, description: '1–100, default 20' }),
    ...(options.includes?.length
      ? [
          ApiQuery({
            name: 'include',
            required: false,
            description: `comma list of: ${options.includes.join(', ')}`,
          }),
        ]
      : []),
    ...queries,
    ...errorResponses([...COMMON_ERRORS, 400, 422]),
  );
}

/** POST creating a resource (201). */
export function ApiCreate(doc: ResourceDoc, body: BodyDoc): MethodDecorator {
  return applyDecorators(
    HttpCode(201),
    ApiBody({ schema: requestSchema(doc, body.writable, body.relationships ?? [], body.relationshipData) }),
    ApiResponse({ status: 201, schema: { type: 'object', properties: { data: resourceSchema(doc) } } }),
    ...errorResponses([...COMMON_ERRORS, 400, 422]),
  );
}

/** PATCH updating a resource (200). */
export function ApiUpdate(doc: ResourceDoc, body: BodyDoc): MethodDecorator {
  return applyDecorators(
    ApiBody({ schema: requestSchema(doc, body.writable, body.relationships ?? [], body.relationshipData) }),
    ApiResponse({ status: 200, schema: { type: 'object', properties: { data: resourceSchema(doc) } } }),
    ...errorResponses([...COMMON_ERRORS, 400, 422]),
  );
}

/** DELETE answering 204 with no body. */
export function ApiDelete(extraErrors: number[] = []): MethodDecorator {
  return applyDecorators(
    HttpCode(204),
    ApiResponse({ status: 204, description: 'Deleted; no body' }),
    ...errorResponses([...COMMON_ERRORS, ...extraErrors]),
  );
}

/** POST/DELETE on a relationship endpoint taking an identifier array (204). */
export function ApiRelationship(memberType: string): MethodDecorator {
  return applyDecorators(
    HttpCode(204),
    ApiBody({
      schema: {
        type: 'object',
        properties: {
          data: {
            type: 'array',
            items: identifierSchema(memberType),
            maxItems: MAX_RELATIONSHIP_IDENTIFIERS,
            description: `At most ${MAX_RELATIONSHIP_IDENTIFIERS} identifiers per request; more is a 422`,
          },
        },
      },
    }),
    ApiResponse({ status: 204, description: 'Done; no body' }),
    ...errorResponses([...COMMON_ERRORS, 422]),
  );
}

export function ApiErrors(...statuses: number[]): MethodDecorator {
  return applyDecorators(...errorResponses(statuses));
}
