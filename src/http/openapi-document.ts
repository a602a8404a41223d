import { INestApplication } from '@nestjs/common';
import { ApiExtension, DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { API_V2 } from '../common/api-prefix';
import { JSONAPI_MEDIA_TYPE } from '../common/jsonapi/media-type';
import {
  errorDocument,
  jsonApiContent,
  PLAIN_ERRORS_SCHEMA,
  resourceComponents,
} from '../common/jsonapi/openapi-schemas';
import { exampleValue } from '../common/jsonapi/openapi-examples';
import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { AppConfig } from '../config/app-config';
import { groupByArea } from './openapi-areas';
import { dropSelfHostedOnly } from './self-hosted-only';

const PUBLIC = 'x-public';
const AGENT_PROTOCOL = `/${API_V2}/agent/`;

/**
 * On a controller or route that needs no credentials at all (`auth: 'public'` routes other than the ones
 * that check a credential of their own): its operations declare `security: []`.
 */
export const PublicDocs = (): ClassDecorator & MethodDecorator => ApiExtension(PUBLIC, true);

type Operation = Record<string, unknown> & {
  summary?: string;
  description?: string;
  security?: unknown[];
  responses?: Record<string, { content?: Record<string, { schema?: SchemaObject; example?: unknown }> }>;
  requestBody?: { content?: Record<string, unknown> };
  parameters?: { schema?: SchemaObject }[];
};

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

function operations(doc: OpenAPIObject): [string, string, Operation][] {
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item as Record<string, unknown>)
      .filter(([method]) => METHODS.includes(method))
      .map(([method, op]) => [path, method, op as Operation] as [string, string, Operation]),
  );
}

/** A JSON:API answer: a document with top-level `data` or `errors`. */
/** Marks a response schema with `data` that is plain JSON all the same (the audit trail). */
export const PLAIN_JSON = 'x-plain-json';

function isJsonApiDocument(schema: { properties?: object } | undefined): boolean {
  if ((schema as Record<string, unknown> | undefined)?.[PLAIN_JSON] === true) return false;
  const props = schema?.properties ?? {};
  return 'data' in props || 'errors' in props;
}

/** A JSON:API response a route described by hand: `data` is required, and it gets an example. */
function completeDocument(content: { schema?: SchemaObject; example?: unknown; examples?: unknown }): void {
  const schema = content.schema!;
  if (schema.properties?.data && !schema.required) schema.required = ['data'];
  if (content.example === undefined && content.examples === undefined && !('$ref' in schema)) {
    content.example = exampleValue(schema);
  }
}

/** The registry protocol's routes write their own errors in plain JSON once routed. */
const REGISTRY_PROTOCOL = '/api/registry/v1/';

function addError(op: Operation, status: number, path = ''): void {
  const responses = (op.responses ??= {});
  if (responses[String(status)]) return;
  const { schema, example } = errorDocument(status);
  const content: Record<string, object> = jsonApiContent(schema, example);
  // A refusal before routing (negotiation, rate limit) is JSON:API; one by the route, plain JSON.
  if (path.startsWith(REGISTRY_PROTOCOL)) content['application/json'] = { schema: PLAIN_ERRORS_SCHEMA };
  responses[String(status)] = { description: 'JSON:API error document', content } as never;
}

function takesResourceObject(op: Operation): boolean {
  const schema = op.requestBody?.content?.[JSONAPI_MEDIA_TYPE] as { schema?: SchemaObject } | undefined;
  const data = schema?.schema?.properties?.data as SchemaObject | undefined;
  return Boolean(data?.properties?.type);
}

/**
 * What no decorator says once per route, applied to the whole document:
 * - every JSON:API body (request and response) is declared as `application/vnd.api+json`, the
 *   media type the server writes; requests may also be sent as `application/json`;
 * - routes marked `PublicDocs` declare `security: []`, all others the bearer token;
 * - operations the decorators left without a description get their summary as one.
 */
export function finishDocument(doc: OpenAPIObject): void {
  doc.components = { ...doc.components, schemas: { ...doc.components?.schemas, ...resourceComponents() } };
  for (const [path, method, op] of operations(doc)) {
    for (const response of Object.values(op.responses ?? {})) {
      const json = response.content?.['application/json'];
      if (json && isJsonApiDocument(json.schema) && path.startsWith(`/${API_V2}`)) {
        const rest = { ...response.content };
        delete rest['application/json'];
        response.content = { [JSONAPI_MEDIA_TYPE]: json, ...rest };
      }
      const document = response.content?.[JSONAPI_MEDIA_TYPE];
      if (document?.schema) completeDocument(document);
    }
    const request = op.requestBody?.content;
    if (request?.['application/json'] && !request[JSONAPI_MEDIA_TYPE] && path.startsWith(`/${API_V2}`)) {
      // JSON:API clients send every body with the JSON:API media type (run actions' `{comment}`
      // too); the executor protocol under /agent speaks plain JSON.
      if (!path.startsWith(AGENT_PROTOCOL)) {
        op.requestBody!.content = { [JSONAPI_MEDIA_TYPE]: request['application/json'], ...request };
      }
    }
    // Content negotiation (http/negotiation.ts) answers these on any route before routing: 406
    // for an Accept that names the JSON:API media type only with parameters, on every path.
    const speaksJsonApi = Object.values(op.responses ?? {}).some((r) => r.content?.[JSONAPI_MEDIA_TYPE]);
    const answersClientErrors = Object.keys(op.responses ?? {}).some((status) => status.startsWith('4'));
    if (speaksJsonApi || !answersClientErrors) addError(op, 406);
    if (op.requestBody?.content?.[JSONAPI_MEDIA_TYPE]) addError(op, 415);
    // A body of one resource object naming another type, or an update naming another id, is a
    // 409 (JsonApiBodyPipe, JsonApiRequestGuard).
    if (takesResourceObject(op)) addError(op, 409);
    // Answered on any route before its handler: the rate limit (429), the database away (503),
    // and on any body the size cap (413).
    addError(op, 429, path);
    // The exception filter writes every 503 (readiness included) as a JSON:API error document.
    if (op.responses?.['503'] && !op.responses['503'].content?.[JSONAPI_MEDIA_TYPE])
      delete op.responses['503'];
    addError(op, 503, path);
    if (op.requestBody || ['post', 'put', 'patch'].includes(method)) addError(op, 413, path);
    // Negotiation refuses a JSON:API media type with parameters on any body (415); the request
    // guard checks `include`, `sort` and `fields[…]` on every route, and a path parameter that is
    // not valid percent-encoding is refused too (400).
    if (op.requestBody || ['post', 'put', 'patch'].includes(method)) addError(op, 415, path);
    addError(op, 400, path);
    if (op[PUBLIC] === true) {
      if (op.security === undefined) op.security = [];
      delete op[PUBLIC];
    } else if (op.security === undefined) {
      op.security = [{ bearer: [] }];
    }
    if (op.summary && !op.description) op.description = op.summary;
    // A query or path value is a string unless a route says more (an untyped `@ApiQuery` is `{}`).
    for (const param of op.parameters ?? []) {
      if (!param.schema || Object.keys(param.schema).length === 0) param.schema = { type: 'string' };
    }
  }
  dropUnusedSchemas(doc);
}

/**
 * Resource schemas are made for every type (`resourceComponents`); those no operation's
 * `included` refers to, directly or through another schema, are left out.
 */
function dropUnusedSchemas(doc: OpenAPIObject): void {
  const schemas = doc.components?.schemas ?? {};
  const refs = (value: unknown) =>
    [...JSON.stringify(value).matchAll(/#\/components\/schemas\/([^"]+)"/g)].map((m) => m[1]);
  const used = new Set(refs(doc.paths));
  for (let todo = [...used]; todo.length;) {
    for (const name of refs(schemas[todo.pop()!] ?? {})) {
      if (!used.has(name)) {
        used.add(name);
        todo.push(name);
      }
    }
  }
  for (const name of Object.keys(schemas)) if (!used.has(name)) delete schemas[name];
}

/** The explorer's opening text: how to get a token first, then what the API speaks. */
const GETTING_STARTED = [
  '## Getting a token',
  '',
  'Every route below needs `Authorization: Bearer <token>` unless it says otherwise.',
  '',
  '1. On a new installation, from the machine it runs on: `GET /admin/retrieve-iact` gives a one-time ' +
    'token, and `POST /admin/initial-admin-user?token=<it>` creates the first site administrator and ' +
    'answers with its API token (see *Authentication*).',
  '2. Any user exchanges a username and password for a token with `POST /api/v2/login`:',
  '   `{"data": {"type": "authentication-tokens", "attributes": {"username": "alice", "password": "…"}}}`;',
  '   the secret is `data.attributes.token`, shown only in that answer. `terraform login <host>` does the',
  '   same through the browser.',
  '3. Click **Authorize**, paste the token, and use **Try it out** on any route.',
  '',
  'Team and organization tokens (`POST /api/v2/teams/{id}/authentication-token`, ' +
    '`POST /api/v2/organizations/{org}/authentication-token`) act for a team or an organization instead of a person.',
  '',
  '## Conventions',
  '',
  'Workspace governance and a private provider and module registry. JSON:API 1.0 documents under `/api/v2` ' +
    '(media type `application/vnd.api+json`): sparse fieldsets, sorting, `include` and pagination. ' +
    'Routes are grouped by area below.',
].join('\n');

export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = app.get(AppConfig);
  const builder = new DocumentBuilder()
    .setTitle('Plinth API')
    .setDescription(GETTING_STARTED)
    .setVersion('2.6')
    .addBearerAuth({
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'opaque token',
      description: 'A user, team or organization API token',
    })
    .addServer(
      config.baseUrl ?? '/',
      config.baseUrl ? 'This installation' : 'The server answering this document',
    );
  const doc = SwaggerModule.createDocument(app, builder.build());
  // A cloud installation answers 404 on every self-hosted-only route: they are not listed there.
  if (config.deployment === 'cloud') dropSelfHostedOnly(doc);
  finishDocument(doc);
  groupByArea(doc);
  return doc;
}
