import { createConfig, lintFromString } from '@redocly/openapi-core';
import request from 'supertest';
import { ERROR_CODES } from '../../src/common/errors/domain-error';
import { OpenApiDoc, Operation } from '../helpers/openapi-check';
import { NAME_TAKEN_422 } from '../helpers/shapes';
import { JSONAPI, startApp, TestApp } from '../helpers/test-app';

/** The OpenAPI document a generated client is built from (`/docs-json`). */
describe('the OpenAPI document', () => {
  let t: TestApp;
  let doc: OpenApiDoc;
  let text: string;
  const ops: [string, string, Operation][] = [];

  beforeAll(async () => {
    t = await startApp();
    const res = await request(t.origin).get('/docs-json').expect(200);
    text = res.text;
    doc = res.body as OpenApiDoc;
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item)) ops.push([path, method, op]);
    }
  });
  afterAll(() => t.close());

  it("passes Redocly's recommended ruleset with no error", async () => {
    const config = await createConfig({ extends: ['recommended'] });
    const problems = await lintFromString({ source: text, absoluteRef: 'openapi.json', config });
    const errors = problems
      .filter((p) => p.severity === 'error')
      .map((p) => `${p.ruleId}: ${p.message} at ${p.location[0]?.pointer ?? '?'}`);
    expect(errors).toEqual([]);
    expect(ops.length).toBeGreaterThan(120);
    // Warnings too, but for three, each with its reason: the project has no license to name
    // (package.json: UNLICENSED), the configuration download's success is its 302 to a signed
    // link (the real service's shape), and the CLI sign-in's success is its 302 to the CLI's
    // loopback address (OAuth's authorization response); the rule does not count a 302 as one.
    const warnings = problems
      .filter((p) => p.severity === 'warn')
      .map((p) => `${p.ruleId} at ${p.location[0]?.pointer ?? '?'}`);
    expect(warnings).toEqual([
      'info-license at #/info',
      'operation-2xx-response at #/paths/~1app~1oauth~1authorize/post/responses',
      'operation-2xx-response at #/paths/~1api~1v2~1configuration-versions~1{id}~1download/get/responses',
    ]);
  });

  it('gives every operation a summary and a description, and lists a server', () => {
    const missing = ops.filter(([, , op]) => !op.summary || !op.description).map(([p, m]) => `${m} ${p}`);
    expect(missing).toEqual([]);
    expect(doc.servers?.length).toBeGreaterThan(0);
  });

  it('declares JSON:API bodies as application/vnd.api+json, requests and responses', () => {
    const plain: string[] = [];
    for (const [path, method, op] of ops) {
      if (!path.startsWith('/api/v2/')) continue;
      for (const [status, response] of Object.entries(op.responses)) {
        const schema: { properties?: object; 'x-plain-json'?: boolean } | undefined =
          response.content?.['application/json']?.schema;
        const props = schema?.properties ?? {};
        // The audit trail is plain JSON in the real service's shape, marked so.
        if (schema?.['x-plain-json']) continue;
        if ('data' in props || 'errors' in props) plain.push(`${method} ${path} ${status}`);
      }
      const body = op.requestBody?.content;
      if (body?.['application/json'] && !body[JSONAPI] && !path.startsWith('/api/v2/agent'))
        plain.push(`${method} ${path} request`);
    }
    expect(plain).toEqual([]);
    const create = doc.paths['/api/v2/organizations/{org}/policy-sets'].post;
    expect(Object.keys(create.requestBody!.content!)).toEqual([JSONAPI, 'application/json']);
    expect(Object.keys(create.responses['201'].content!)).toEqual([JSONAPI]);
    expect(Object.keys(create.responses['422'].content!)).toEqual([JSONAPI]);
  });

  it('marks required attributes and relationships in request schemas, and data in responses', () => {
    const attributesOf = (path: string) => {
      const schema = doc.paths[path].post.requestBody!.content![JSONAPI].schema as {
        properties: { data: { properties: Record<string, { required?: string[] }> } };
      };
      return schema.properties.data.properties;
    };
    expect(attributesOf('/api/v2/organizations/{org}/policy-sets').attributes.required).toEqual(['name']);
    const versions =
      '/api/v2/organizations/{org}/registry-providers/{registry_name}/{namespace}/{name}/versions';
    expect(attributesOf(versions).attributes.required).toEqual(['version', 'key-id', 'protocols']);
    expect(attributesOf('/api/v2/workspaces/{workspace_id}/run-triggers').relationships.required).toEqual([
      'sourceable',
    ]);
    const platforms = attributesOf(`${versions}/{version}/platforms`) as unknown as {
      type: { enum: string[] };
    };
    expect(platforms.type.enum).toEqual([
      'registry-provider-platforms',
      'registry-provider-version-platforms',
    ]);
    const show = doc.paths['/api/v2/policy-sets/{id}'].get.responses['200'].content![JSONAPI];
    expect(show.schema).toEqual(expect.objectContaining({ required: ['data'] }));
    const missingData = ops.flatMap(([path, method, op]) =>
      Object.entries(op.responses)
        .filter(([status]) => status.startsWith('2'))
        .map(([status, r]) => [
          status,
          r.content?.[JSONAPI]?.schema as { properties?: object; required?: string[] },
        ])
        .filter(
          ([, s]) =>
            s && typeof s === 'object' && 'data' in (s.properties ?? {}) && !s.required?.includes('data'),
        )
        .map(([status]) => `${method} ${path} ${status as string}`),
    );
    expect(missingData).toEqual([]);
  });

  it('marks the attributes every answer carries as required in resource schemas', () => {
    type Resource = { properties: { attributes: { required?: string[]; properties: object } } };
    const schemas = (doc.components as { schemas: Record<string, Resource> }).schemas;
    const resources = Object.entries(schemas).filter(([name]) => name.endsWith('-resource'));
    const attributes = (name: string) => schemas[`${name}-resource`].properties.attributes;
    const declared = resources.flatMap(([, r]) => Object.keys(r.properties.attributes.properties));
    const required = resources.flatMap(([, r]) => r.properties.attributes.required ?? []);
    // Only the few attributes some answers leave out (ResourceDoc.optional) are not required.
    expect(required.length).toBeGreaterThan(declared.length * 0.95);
    expect(attributes('workspaces').required).toEqual(expect.arrayContaining(['name', 'locked']));
    // A user's email is shown only to the user and to site administrators.
    expect(attributes('users').required).not.toContain('email');
    expect(attributes('users').required).toContain('username');
  });

  it('lists every member the server requires in request schemas', () => {
    type Body = {
      required?: string[];
      properties: {
        data: {
          required?: string[];
          properties: { attributes: { required?: string[]; properties: object } };
        };
      };
    };
    const body = (path: string, method: 'post' | 'patch') =>
      doc.paths[path][method].requestBody!.content![JSONAPI].schema as unknown as Body;
    const users = body('/api/v2/admin/users', 'post');
    expect(users.properties.data.properties.attributes.required).toEqual(['username', 'email', 'password']);
    expect(Object.keys(users.properties.data.properties.attributes.properties)).toContain('password');
    const login = body('/api/v2/login', 'post');
    expect(login.required).toEqual(['data']);
    expect(login.properties.data.properties.attributes.required).toEqual(['username', 'password']);
    const state = body('/api/v2/workspaces/{id}/state-versions', 'post');
    expect(state.properties.data.properties.attributes.required).toEqual(['serial', 'md5']);
    // Every JSON:API document body requires `data` (run actions take a plain `{comment}`).
    const schemaOf = (op: Operation) => op.requestBody?.content?.[JSONAPI]?.schema as Body | undefined;
    const without = ops
      .filter(([, , op]) => schemaOf(op)?.properties?.data)
      .filter(([, , op]) => !schemaOf(op)!.required?.includes('data'))
      .map(([path, method]) => `${method} ${path}`);
    expect(without).toEqual([]);
  });

  it('opens with how to get a token and groups every operation under one area', () => {
    const info = doc.info as { description: string };
    expect(info.description.startsWith('## Getting a token')).toBe(true);
    for (const step of ['/admin/initial-admin-user', '/api/v2/login', 'terraform login', '**Authorize**']) {
      expect(info.description).toContain(step);
    }
    const tags = (doc.tags as { name: string; description?: string }[]).map((t) => t.name);
    expect(tags.slice(0, 3)).toEqual(['Authentication', 'Users', 'Organizations']);
    expect(tags).not.toContain('Other');
    const misplaced = ops
      .filter(
        ([, , op]) =>
          (op as { tags?: string[] }).tags?.length !== 1 ||
          !tags.includes((op as unknown as { tags: string[] }).tags[0]),
      )
      .map(([path, method]) => `${method} ${path}`);
    expect(misplaced).toEqual([]);
    const area = (path: string, method: string) =>
      (doc.paths[path][method] as unknown as { tags: string[] }).tags[0];
    expect(area('/api/v2/login', 'post')).toBe('Authentication');
    expect(area('/api/v2/workspaces/{id}', 'patch')).toBe('Workspaces');
  });

  it('types include, fields, sort and page parameters, and documents the 400 for a bad include on shows', () => {
    const show = doc.paths['/api/v2/policy-sets/{id}'].get;
    const param = (op: Operation, name: string) => op.parameters?.find((p) => p.name === name)?.schema;
    expect(param(show, 'include')).toEqual({
      type: 'array',
      items: { type: 'string', enum: expect.arrayContaining(['projects', 'workspaces', 'policies']) },
    });
    expect(param(show, 'fields[policy-sets]')).toEqual({
      type: 'array',
      items: { type: 'string', enum: expect.arrayContaining(['name', 'created-at', 'workspaces']) },
    });
    expect(show.responses['400']).toBeDefined();
    const list = doc.paths['/api/v2/organizations/{org}/workspaces'].get;
    expect(param(list, 'sort')).toEqual({
      type: 'array',
      items: { type: 'string', enum: ['name', '-name', 'created-at', '-created-at'] },
      maxItems: 3,
    });
    expect(param(list, 'page[size]')).toEqual({ type: 'integer', minimum: 1, maximum: 100, default: 20 });
    const untyped = ops.flatMap(([path, method, op]) =>
      (op.parameters ?? [])
        .filter((p) => !p.schema || Object.keys(p.schema).length === 0)
        .map((p) => `${method} ${path} ${p.name}`),
    );
    expect(untyped).toEqual([]);
    // Every paged list, the audit trails included, documents `sort`.
    const unsortable = ops
      .filter(([, method, op]) => method === 'get' && op.parameters?.some((p) => p.name === 'page[size]'))
      .filter(([, , op]) => !op.parameters?.some((p) => p.name === 'sort'))
      .map(([p]) => p);
    expect(unsortable).toEqual([]);
  });

  it('types the filters the server checks: enums, booleans, ids and comma lists', () => {
    const query = (path: string, name: string) =>
      doc.paths[path].get.parameters?.find((p) => p.name === name && p.in === 'query')?.schema as
        { type?: string; enum?: string[]; pattern?: string } | undefined;
    expect(query('/api/v2/admin/users', 'filter[admin]')).toMatchObject({ enum: ['true', 'false'] });
    expect(query('/api/v2/admin/users', 'filter[suspended]')).toMatchObject({ enum: ['true', 'false'] });
    expect(query('/api/v2/organizations/{org}/authentication-tokens', 'filter[kind]')).toMatchObject({
      enum: ['team', 'organization'],
    });
    expect(query('/api/v2/organizations/{org}/registry-modules', 'filter[registry_name]')).toMatchObject({
      enum: ['private', 'public'],
    });
    expect(query('/api/v2/organizations/{org}/policies', 'filter[kind]')?.enum).toEqual(
      expect.arrayContaining(['sentinel', 'opa']),
    );
    const ids = [
      ['/api/v2/team-workspaces', 'filter[workspace][id]', 'ws-3yVQZvHzf5j3WRJ1'],
      ['/api/v2/organizations/{org}/workspaces', 'filter[project][id]', 'prj-3yVQZvHzf5j3WRJ1'],
    ] as const;
    for (const [path, name, example] of ids) {
      const pattern = new RegExp(query(path, name)?.pattern ?? '^$');
      expect(pattern.test(example)).toBe(true);
      expect(pattern.test('not-an-id')).toBe(false);
    }
    const statuses = new RegExp(query('/api/v2/workspaces/{id}/runs', 'filter[status]')?.pattern ?? '^$');
    expect(statuses.test('planned,applied')).toBe(true);
    expect(statuses.test('planned,nonsense')).toBe(false);
  });

  it('shows real examples: documents and one error example per status', () => {
    const show = doc.paths['/api/v2/policy-sets/{id}'].get.responses;
    const example = show['200'].content![JSONAPI].example as { data: Record<string, unknown> };
    expect(example.data).toEqual(
      expect.objectContaining({
        id: 'polset-3yVQZvHzf5j3WRJ1',
        type: 'policy-sets',
        links: { self: '/api/v2/policy-sets/polset-3yVQZvHzf5j3WRJ1' },
      }),
    );
    expect(JSON.stringify(example)).not.toContain('"string"');
    expect(show['404'].content![JSONAPI].example).toEqual({
      errors: [{ status: '404', title: 'not found', detail: 'not found' }],
    });
    const noExample = ops.flatMap(([path, method, op]) =>
      Object.entries(op.responses)
        .filter(([, r]) => r.content?.[JSONAPI] && r.content[JSONAPI].example === undefined)
        .map(([status]) => `${method} ${path} ${status}`),
    );
    expect(noExample).toEqual([]);
  });

  it("declares the error object's code with every code the server sends, and shows one on the 422 example", () => {
    const create =
      doc.paths['/api/v2/organizations/{org}/policy-sets'].post.responses['422'].content![JSONAPI];
    const schema = create.schema as {
      properties: {
        errors: { items: { required: string[]; properties: Record<string, { enum?: string[] }> } };
      };
    };
    const item = schema.properties.errors.items;
    expect(item.properties.code.enum).toEqual([...ERROR_CODES]);
    expect(item.required).not.toContain('code');
    expect(create.example).toEqual(NAME_TAKEN_422);
  });

  it('declares security [] on public routes and the bearer token elsewhere', () => {
    const security = (path: string, method = 'get') => doc.paths[path][method].security;
    for (const path of ['/healthz', '/readyz', '/metrics', '/api/v2/ping', '/.well-known/terraform.json']) {
      expect({ path, security: security(path) }).toEqual({ path, security: [] });
    }
    expect(security('/admin/retrieve-iact')).toEqual([]);
    expect(security('/admin/initial-admin-user', 'post')).toEqual([]);
    for (const method of ['get', 'put', 'head']) expect(security('/uploads/{token}', method)).toEqual([]);
    expect(security('/api/v2/organizations/{org}/workspaces')).toEqual([{ bearer: [] }]);
    expect(ops.filter(([, , op]) => op.security === undefined).map(([p, m]) => `${m} ${p}`)).toEqual([]);
  });

  it('documents the upload and download statuses', () => {
    const uploads = doc.paths['/uploads/{token}'];
    expect(Object.keys(uploads.put.responses)).toContain('200');
    // A plan in JSON is sent as JSON, a log's byte range as text; every other file as octet-stream.
    expect(Object.keys(uploads.get.responses['200'].content!)).toEqual([
      'application/octet-stream',
      'application/json',
      'text/plain',
    ]);
    // A log is read by byte range and appended at an offset.
    expect(uploads.get.parameters!.map((p) => (p as { name?: string }).name)).toEqual(
      expect.arrayContaining(['offset', 'limit']),
    );
    expect(uploads.put.parameters!.map((p) => (p as { name?: string }).name)).toEqual(
      expect.arrayContaining(['offset']),
    );
    expect(Object.keys(uploads.head.responses)).toContain('200');
  });
});
