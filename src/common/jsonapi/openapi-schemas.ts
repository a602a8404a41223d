import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { ClassConstructor, plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { ERROR_CODES, ErrorCode } from '../errors/domain-error';
import { registerFields } from './fields';
import { JSONAPI_MEDIA_TYPE } from './media-type';

/** How one JSON:API resource type looks on the wire, for the OpenAPI document. */
export interface ResourceDoc {
  type: string;
  attributes: Record<string, SchemaObject>;
  /** Relationship name → member type; `many` for to-many; `linksOnly`: only `links.related`, no data. */
  relationships?: Record<string, { type: string | readonly string[]; many?: boolean; linksOnly?: boolean }>;
  links?: string[];
  /**
   * Include paths through a relationship (`current-run.plan`) → the types they add beyond the
   * relationship's own, for types whose docs this module does not import.
   */
  includePaths?: Record<string, string | readonly string[]>;
  /**
   * Attributes some answers leave out (shown only to some callers, or only in some states). Every
   * other declared attribute is in every answer, so the schema marks it `required`; a sparse
   * fieldset (`fields[TYPE]`) is the caller's own choice to leave attributes out.
   */
  optional?: readonly string[];
}

/** The attributes every answer of the doc's type carries (all declared ones but `optional`). */
export function alwaysPresent(doc: ResourceDoc): string[] {
  return Object.keys(doc.attributes).filter((a) => !doc.optional?.includes(a));
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

/** The registry protocol's error shape, `{"errors": ["message", …]}` (not JSON:API). */
export const PLAIN_ERRORS_SCHEMA: SchemaObject = {
  type: 'object',
  properties: { errors: { type: 'array', items: { type: 'string' }, example: ['Not Found'] } },
};

/** A query parameter that is `true` or `false`. */
export const booleanParam = (description?: string): SchemaObject => enumOf(['true', 'false'], description);

/** A query parameter naming one resource by id (`ws-…`): the prefix and 16 base-62 characters. */
export const idParam = (prefix: string, description?: string): SchemaObject => ({
  type: 'string',
  pattern: `^${prefix}-[0-9A-Za-z]{16}$`,
  example: `${prefix}-3yVQZvHzf5j3WRJ1`,
  description,
});

/** A query parameter that is a comma list of some of `values` (`planned,applied`). */
export const commaListOf = (values: readonly string[], description?: string): SchemaObject => {
  const one = `(${values.join('|')})`;
  return {
    type: 'string',
    pattern: `^${one}(,${one})*$`,
    example: values.slice(0, 2).join(','),
    description,
  };
};

/** `{ 'application/vnd.api+json': { schema, example } }`: every JSON:API body is declared so. */
export function jsonApiContent(schema: SchemaObject, example?: unknown): Record<string, object> {
  return { [JSONAPI_MEDIA_TYPE]: example === undefined ? { schema } : { schema, example } };
}

export const identifierSchema = (type: string | readonly string[]): SchemaObject => ({
  type: 'object',
  required: ['id', 'type'],
  properties: {
    id: { type: 'string' },
    type: { type: 'string', enum: typeof type === 'string' ? [type] : [...type] },
  },
});

const ERROR_EXAMPLES: Record<number, [string, string, Record<string, string>?, ErrorCode?]> = {
  400: ['bad request', 'include parameter contains unknown value owner', { parameter: 'include' }],
  401: ['unauthorized', 'a valid bearer token is required'],
  403: ['forbidden', 'client-generated ids are not supported; leave out data.id', { pointer: '/data/id' }],
  404: ['not found', 'not found'],
  406: ['not acceptable', 'Accept must offer application/vnd.api+json without media type parameters'],
  409: ['conflict', 'the upload was already received'],
  410: ['gone', 'the link has expired'],
  412: ['precondition failed', 'the resource changed since it was read'],
  413: ['payload too large', 'the request body is larger than 1 MiB'],
  415: ['unsupported media type', 'application/vnd.api+json must be sent without media type parameters'],
  422: [
    'invalid attribute',
    'Name has already been taken',
    { pointer: '/data/attributes/name' },
    'NAME_TAKEN',
  ],
  429: ['too many requests', 'rate limit exceeded; retry after the time in Retry-After'],
  503: ['service unavailable', 'the database is unavailable; try again shortly'],
};

/** The JSON:API error document, with a real example of the given status. */
export function errorDocument(status: number): { schema: SchemaObject; example: unknown } {
  const [title, detail, source, code] = ERROR_EXAMPLES[status] ?? ['error', 'the request failed'];
  return {
    schema: {
      type: 'object',
      required: ['errors'],
      properties: {
        errors: {
          type: 'array',
          minItems: 1,
          items: {
            type: 'object',
            required: ['status', 'title'],
            properties: {
              id: { type: 'string', description: 'Only on a 500: quote it when reporting the failure' },
              status: { type: 'string', example: String(status) },
              title: { type: 'string', example: title },
              code: {
                type: 'string',
                enum: [...ERROR_CODES],
                description: 'Only on a refusal a client may tell apart from others of its status',
              },
              detail: { type: 'string', example: detail },
              source: {
                type: 'object',
                properties: { pointer: { type: 'string' }, parameter: { type: 'string' } },
              },
            },
          },
        },
      },
    },
    example: {
      errors: [
        { status: String(status), title, ...(code ? { code } : {}), detail, ...(source ? { source } : {}) },
      ],
    },
  };
}

export const PAGINATION_META: SchemaObject = {
  type: 'object',
  required: ['pagination'],
  properties: {
    pagination: {
      type: 'object',
      required: ['current-page', 'page-size', 'prev-page', 'next-page', 'total-pages', 'total-count'],
      properties: Object.fromEntries(
        ['current-page', 'page-size', 'prev-page', 'next-page', 'total-pages', 'total-count'].map((k) => [
          k,
          { type: 'integer', nullable: k === 'prev-page' || k === 'next-page' },
        ]),
      ),
    },
  },
};

export const LIST_LINKS: SchemaObject = {
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

/** Each type's ResourceDoc, as the routes that answer with it describe it (the first one wins). */
const DOCS = new Map<string, ResourceDoc>();

/** Where the document keeps a type's resource schema (see `resourceComponents`). */
export function resourceRef(type: string): string {
  return `#/components/schemas/${type}-resource`;
}

/** `components.schemas` entries for every type a route answers with, for `included` references. */
export function resourceComponents(): Record<string, SchemaObject> {
  return Object.fromEntries([...DOCS.values()].map((d) => [`${d.type}-resource`, resourceSchema(d)]));
}

export function resourceSchema(doc: ResourceDoc): SchemaObject {
  registerFields(doc.type, [...Object.keys(doc.attributes), ...Object.keys(doc.relationships ?? {})]);
  if (!DOCS.has(doc.type)) DOCS.set(doc.type, doc);
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
      attributes: {
        type: 'object',
        ...(alwaysPresent(doc).length ? { required: alwaysPresent(doc) } : {}),
        properties: doc.attributes,
      },
      ...(doc.relationships ? { relationships: { type: 'object', properties: relationships } } : {}),
      links: {
        type: 'object',
        properties: Object.fromEntries((doc.links ?? ['self']).map((l) => [l, { type: 'string' }])),
      },
    },
  };
}

/**
 * The attributes a create must carry, found by the DTO's own rules: those that fail when a body
 * sends no attributes at all (the same check the body pipe runs, so the document cannot drift).
 */
export function requiredAttributes(dto: ClassConstructor<object>): string[] {
  const errors = validateSync(plainToInstance(dto, {}), { whitelist: true, forbidUnknownValues: false });
  return errors.map((e) => e.property);
}

export interface RequestShape {
  /** Accepted `data.type` values (the body pipe's `types`). */
  types: readonly string[];
  typeRequired: boolean;
  requiredAttributes: readonly string[];
  requiredRelationships: readonly string[];
}

/** The request document of a create or update: writable attributes, relationships, what is required. */
export function requestSchema(
  doc: ResourceDoc,
  writable: readonly string[],
  relationships: readonly string[],
  relationshipData: Record<string, SchemaObject>,
  shape: RequestShape,
): SchemaObject {
  const attributes = Object.fromEntries(
    writable.filter((a) => doc.attributes[a]).map((a) => [a, doc.attributes[a]]),
  );
  const undescribed = writable.filter((a) => !doc.attributes[a]);
  if (undescribed.length) {
    // A writable attribute the schema cannot describe would vanish from the request document.
    throw new Error(`${doc.type}: writable ${undescribed.join(', ')} need a schema (BodyDoc.requestOnly)`);
  }
  const requiredAttrs = shape.requiredAttributes.filter((a) => a in attributes);
  const rels = Object.fromEntries(
    relationships.map((name) => {
      const rel = doc.relationships?.[name] ?? { type: name, many: true };
      return [
        name,
        {
          type: 'object',
          required: ['data'],
          properties: {
            data:
              relationshipData[name] ??
              (rel.many ? { type: 'array', items: identifierSchema(rel.type) } : identifierSchema(rel.type)),
          },
        },
      ];
    }),
  );
  const requiredRels = shape.requiredRelationships.filter((r) => r in rels);
  const dataRequired = [
    ...(shape.typeRequired ? ['type'] : []),
    ...(requiredAttrs.length ? ['attributes'] : []),
    ...(requiredRels.length ? ['relationships'] : []),
  ];
  return {
    type: 'object',
    required: ['data'],
    properties: {
      data: {
        type: 'object',
        ...(dataRequired.length ? { required: dataRequired } : {}),
        properties: {
          type: { type: 'string', enum: [...shape.types] },
          attributes: {
            type: 'object',
            ...(requiredAttrs.length ? { required: requiredAttrs } : {}),
            properties: attributes,
          },
          ...(relationships.length
            ? {
                relationships: {
                  type: 'object',
                  ...(requiredRels.length ? { required: requiredRels } : {}),
                  properties: rels,
                },
              }
            : {}),
        },
      },
    },
  };
}
