import { applyDecorators, HttpCode, SetMetadata } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiQuery, ApiResponse } from '@nestjs/swagger';
import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { JSONAPI_MEDIA_TYPE } from './media-type';
import { BODY_SHAPE, BodyShape, MAX_RELATIONSHIP_IDENTIFIERS } from './body';
import {
  errorDocument,
  identifierSchema,
  jsonApiContent,
  LIST_LINKS,
  PAGINATION_META,
  requestSchema,
  requiredAttributes,
  ResourceDoc,
  resourceRef,
  resourceSchema,
} from './openapi-schemas';
import { exampleRequest, exampleResource } from './openapi-examples';

export * from './openapi-schemas';

/** Statuses every authenticated JSON:API route may answer besides its own. */
const COMMON_ERRORS = [401, 404];

function errorResponses(statuses: number[]): MethodDecorator[] {
  return [...new Set(statuses)].map((status) => {
    const { schema, example } = errorDocument(status);
    return ApiResponse({
      status,
      description: 'JSON:API error document',
      content: jsonApiContent(schema, example),
    });
  });
}

export function ApiErrors(...statuses: number[]): MethodDecorator {
  return applyDecorators(...errorResponses(statuses));
}

/** Where `@ApiOperation` keeps its options (`API_OPERATION` of @nestjs/swagger, not exported). */
const API_OPERATION = 'swagger/apiOperation';

/**
 * A summary and description for an operation unless the route gives its own (`@ApiOperation`,
 * above or below this decorator: the route's own words win either way).
 */
function defaultOperation(summary: string, description: string): MethodDecorator {
  return (_target, _key, descriptor) => {
    const own = Reflect.getMetadata(API_OPERATION, descriptor.value as object) as
      Record<string, unknown> | undefined;
    const merged: Record<string, unknown> = { summary, description };
    for (const [k, v] of Object.entries(own ?? {})) if (v !== '' && v !== undefined) merged[k] = v;
    Reflect.defineMetadata(API_OPERATION, merged, descriptor.value as object);
    return descriptor;
  };
}

const article = (type: string) => (/^[aeiou]/.test(type) ? 'an' : 'a');
const singular = (type: string) => type.replace(/ies$/, 'y').replace(/s$/, '').replace(/-/g, ' ');

/** `include`: a comma list of the route's values, typed as such. */
function includeQuery(includes: readonly string[]): MethodDecorator {
  return ApiQuery({
    name: 'include',
    required: false,
    description: 'Comma list of related resources to add to `included`; an unknown value is a 400',
    style: 'form',
    explode: false,
    schema: { type: 'array', items: { type: 'string', enum: [...includes] } },
  });
}

/** `fields[TYPE]` for each type a route may answer with (sparse fieldsets). */
function fieldsQueries(docs: readonly ResourceDoc[]): MethodDecorator[] {
  const byType = new Map<string, Set<string>>();
  for (const doc of docs) {
    const names = byType.get(doc.type) ?? new Set<string>();
    for (const n of [...Object.keys(doc.attributes), ...Object.keys(doc.relationships ?? {})]) names.add(n);
    byType.set(doc.type, names);
  }
  return [...byType].map(([type, names]) =>
    ApiQuery({
      name: `fields[${type}]`,
      required: false,
      description: `Sparse fieldset: only these attributes and relationships of each \`${type}\` resource; an unknown name is a 400`,
      style: 'form',
      explode: false,
      schema: { type: 'array', items: { type: 'string', enum: [...names] } },
    }),
  );
}

/**
 * The `included` array: a union of the resource types `include` may add, each a reference to its
 * type's resource schema (`#/components/schemas/<type>-resource`, filled in by the document step
 * from the serializers' ResourceDocs). The member types are read from the primary type's
 * relationships (`include=workspace_exclusions` → `workspace-exclusions` → `workspaces`), plus
 * any `includedDocs` a route names.
 */
function includedSchema(
  doc: ResourceDoc,
  includes: readonly string[],
  includedDocs: readonly ResourceDoc[],
): SchemaObject {
  includedDocs.forEach(resourceSchema);
  const types = new Set(includedDocs.map((d) => d.type));
  const add = (type: string | readonly string[]) => {
    for (const t of typeof type === 'string' ? [type] : type) types.add(t);
  };
  for (const include of includes) {
    const key = include.replace(/_/g, '-');
    const [head] = key.split('.');
    const rel = doc.relationships?.[include] ?? doc.relationships?.[head];
    if (rel && !rel.linksOnly) add(rel.type);
    const path = doc.includePaths?.[key];
    if (path) add(path);
  }
  if (!types.size) return { type: 'array', maxItems: 0, items: { type: 'object' } };
  const refs = [...types].map((type) => ({ $ref: resourceRef(type) }));
  return { type: 'array', items: refs.length === 1 ? refs[0] : { oneOf: refs } };
}

function responseOf(
  status: number,
  schema: SchemaObject,
  example: unknown,
  description: string,
): MethodDecorator {
  return ApiResponse({ status, description, content: jsonApiContent(schema, example) });
}

/** GET one resource; `includedDocs` describe the resources `include` may add. */
export function ApiShow(
  doc: ResourceDoc,
  includes: readonly string[] = [],
  includedDocs: readonly ResourceDoc[] = [],
): MethodDecorator {
  const what = singular(doc.type);
  return applyDecorators(
    defaultOperation(
      `Show ${article(what)} ${what}`,
      `One \`${doc.type}\` resource. ` +
        (includes.length ? `\`include\` adds ${includes.join(', ')} to \`included\`. ` : '') +
        '`fields[TYPE]` keeps only the named fields. 404 when it does not exist or the caller may not see it.',
    ),
    responseOf(
      200,
      {
        type: 'object',
        required: ['data'],
        properties: { data: resourceSchema(doc), included: includedSchema(doc, includes, includedDocs) },
      },
      { data: exampleResource(doc) },
      `The ${what}`,
    ),
    ...(includes.length ? [includeQuery(includes)] : []),
    ...fieldsQueries([doc, ...includedDocs]),
    ...errorResponses([...COMMON_ERRORS, 400]),
  );
}

/** A typed query parameter of a list: a description, or a description and a schema. */
export type QueryDoc = string | { description: string; schema: SchemaObject };

/** Handler metadata set by `ApiList`: the route answers a paginated collection (it must be `@Sortable`). */
export const LIST_ROUTE = 'plinth:list-route';

/** GET a paginated collection. */
export function ApiList(
  doc: ResourceDoc,
  options: {
    includes?: readonly string[];
    includedDocs?: readonly ResourceDoc[];
    query?: Record<string, QueryDoc>;
  } = {},
): MethodDecorator {
  const queries = Object.entries(options.query ?? {}).map(([name, q]) =>
    typeof q === 'string'
      ? ApiQuery({ name, required: false, schema: { type: 'string' }, description: q })
      : ApiQuery({ name, required: false, schema: q.schema, description: q.description }),
  );
  const filters = Object.keys(options.query ?? {});
  return applyDecorators(
    SetMetadata(LIST_ROUTE, true),
    defaultOperation(
      `List ${doc.type.replace(/-/g, ' ')}`,
      `A page of \`${doc.type}\` resources (\`page[number]\`, \`page[size]\` 1–100), ordered by \`sort\`. ` +
        (filters.length ? `Narrowed by ${filters.map((f) => `\`${f}\``).join(', ')}. ` : '') +
        (options.includes?.length
          ? `\`include\` adds ${options.includes.join(', ')} to \`included\`. `
          : '') +
        '`fields[TYPE]` keeps only the named fields.',
    ),
    responseOf(
      200,
      {
        type: 'object',
        required: ['data', 'links', 'meta'],
        properties: {
          data: { type: 'array', items: resourceSchema(doc) },
          included: includedSchema(doc, options.includes ?? [], options.includedDocs ?? []),
          links: LIST_LINKS,
          meta: PAGINATION_META,
        },
      },
      {
        data: [exampleResource(doc)],
        links: {
          self: `https://plinth.example.com/api/v2/${doc.type}?page%5Bnumber%5D=1&page%5Bsize%5D=20`,
          first: `https://plinth.example.com/api/v2/${doc.type}?page%5Bnumber%5D=1&page%5Bsize%5D=20`,
          prev: null,
          next: null,
          last: `https://plinth.example.com/api/v2/${doc.type}?page%5Bnumber%5D=1&page%5Bsize%5D=20`,
        },
        meta: {
          pagination: {
            'current-page': 1,
            'page-size': 20,
            'prev-page': null,
            'next-page': null,
            'total-pages': 1,
            'total-count': 1,
          },
        },
      },
      `A page of ${doc.type.replace(/-/g, ' ')}`,
    ),
    ApiQuery({ name: 'page[number]', required: false, schema: { type: 'integer', minimum: 1, default: 1 } }),
    ApiQuery({
      name: 'page[size]',
      required: false,
      schema: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
    }),
    ...(options.includes?.length ? [includeQuery(options.includes)] : []),
    ...fieldsQueries([doc, ...(options.includedDocs ?? [])]),
    ...queries,
    ...errorResponses([...COMMON_ERRORS, 400, 422]),
  );
}

export interface BodyDoc {
  writable: readonly string[];
  relationships?: readonly string[];
  /** Relationships a create cannot do without (a 422 when missing). */
  requiredRelationships?: readonly string[];
  /** The `data` schema of relationships whose members are not resource identifiers. */
  relationshipData?: Record<string, SchemaObject>;
  /** Writable attributes that answers never show (a password, the state file itself). */
  requestOnly?: Record<string, SchemaObject>;
}

/**
 * The request body of a create or update, from the body the handler reads (`@JsonApiBody`, whose
 * parameter decorator runs before this method decorator): the accepted `data.type` values and the
 * attributes its DTO requires.
 */
function requestBody(doc: ResourceDoc, body: BodyDoc, creating: boolean): MethodDecorator {
  return (target, key, descriptor) => {
    const shape = Reflect.getMetadata(BODY_SHAPE, descriptor.value as object) as BodyShape | undefined;
    const described = { ...doc, attributes: { ...doc.attributes, ...body.requestOnly } };
    const schema = requestSchema(
      described,
      body.writable,
      body.relationships ?? [],
      body.relationshipData ?? {},
      {
        types: shape?.types ?? [doc.type],
        typeRequired: shape ? shape.typeRequired : true,
        // What the DTO refuses to go without, on an update too (the body pipe runs the same rules).
        requiredAttributes: shape ? requiredAttributes(shape.attributes) : [],
        requiredRelationships: creating ? (body.requiredRelationships ?? []) : [],
      },
    );
    ApiConsumes(JSONAPI_MEDIA_TYPE, 'application/json')(target, key, descriptor);
    ApiBody({ required: true, schema, examples: { [doc.type]: { value: exampleRequest(schema) } } })(
      target,
      key,
      descriptor,
    );
    return descriptor;
  };
}

/** POST creating a resource (201, with a Location header). */
export function ApiCreate(doc: ResourceDoc, body: BodyDoc): MethodDecorator {
  const what = singular(doc.type);
  return applyDecorators(
    HttpCode(201),
    defaultOperation(
      `Create ${article(what)} ${what}`,
      `Creates a \`${doc.type}\` resource and answers it with 201 and a \`Location\` header (its \`links.self\`). ` +
        'A client-generated `data.id` is a 403; a broken rule is a 422 pointing at the attribute.',
    ),
    requestBody(doc, body, true),
    ApiResponse({
      status: 201,
      description: `The new ${what}`,
      headers: { Location: { description: 'links.self of the new resource', schema: { type: 'string' } } },
      content: jsonApiContent(
        { type: 'object', required: ['data'], properties: { data: resourceSchema(doc) } },
        { data: exampleResource(doc) },
      ),
    }),
    ...errorResponses([...COMMON_ERRORS, 400, 403, 415, 422]),
  );
}

/** PATCH updating a resource (200). */
export function ApiUpdate(doc: ResourceDoc, body: BodyDoc): MethodDecorator {
  const what = singular(doc.type);
  return applyDecorators(
    defaultOperation(
      `Update ${article(what)} ${what}`,
      `Changes the attributes and relationships sent; those left out keep their values. Answers the \`${doc.type}\` resource.`,
    ),
    requestBody(doc, body, false),
    responseOf(
      200,
      { type: 'object', required: ['data'], properties: { data: resourceSchema(doc) } },
      { data: exampleResource(doc) },
      `The updated ${what}`,
    ),
    ...errorResponses([...COMMON_ERRORS, 400, 415, 422]),
  );
}

/** DELETE answering 204 with no body. */
export function ApiDelete(extraErrors: number[] = []): MethodDecorator {
  return applyDecorators(
    HttpCode(204),
    defaultOperation('Delete the resource', 'Deletes the resource; answers 204 with no body.'),
    ApiResponse({ status: 204, description: 'Deleted; no body' }),
    ...errorResponses([...COMMON_ERRORS, ...extraErrors]),
  );
}

/** POST/DELETE on a relationship endpoint taking an identifier array (204). */
export function ApiRelationship(memberType: string): MethodDecorator {
  const schema: SchemaObject = {
    type: 'object',
    required: ['data'],
    properties: {
      data: {
        type: 'array',
        items: identifierSchema(memberType),
        maxItems: MAX_RELATIONSHIP_IDENTIFIERS,
        description: `At most ${MAX_RELATIONSHIP_IDENTIFIERS} identifiers per request; more is a 422`,
      },
    },
  };
  return applyDecorators(
    HttpCode(204),
    defaultOperation(
      `Change the ${memberType} relationship`,
      `Adds or removes the \`${memberType}\` identified in \`data\`; answers 204 with no body.`,
    ),
    ApiConsumes(JSONAPI_MEDIA_TYPE, 'application/json'),
    ApiBody({ required: true, schema, examples: { [memberType]: { value: exampleRequest(schema) } } }),
    ApiResponse({ status: 204, description: 'Done; no body' }),
    ...errorResponses([...COMMON_ERRORS, 400, 415, 422]),
  );
}
