import request from 'supertest';
import { DataSource } from 'typeorm';
import { Actor, bootstrapAdmin, createOrganization, createUser, unique } from '../helpers/fixtures';
import { client, startApp, TestApp } from '../helpers/test-app';
import { errorsOf, userShape } from '../helpers/shapes';

type ResourceSchema = { properties: { type: { enum: string[] } } };

describe('account, users, health and API documentation', () => {
  let t: TestApp;
  let admin: Actor;

  beforeAll(async () => {
    t = await startApp();
    admin = await bootstrapAdmin(t);
  });
  afterAll(() => t.close());

  describe('account and users', () => {
    it('returns the calling user from account details', async () => {
      const name = unique('carol');
      const carol = await createUser(t, admin, name);
      const res = await carol.api.get('/api/v2/account/details').expect(200);
      expect(res.body).toEqual({ data: userShape(carol.userId!, name) });
    });

    it('has no account details for team and organization tokens', async () => {
      const owner = await createUser(t, admin);
      const org = await createOrganization(owner);
      const tok = await owner.api.post(`/api/v2/organizations/${org}/authentication-token`).expect(201);
      const res = await client(t, tok.body.data.attributes.token).get('/api/v2/account/details').expect(404);
      expect(res.body).toEqual(errorsOf(404));
    });

    it('shows a user to themself and to site administrators only', async () => {
      const name = unique('dave');
      const dave = await createUser(t, admin, name);
      const erin = await createUser(t, admin);
      expect((await dave.api.get(`/api/v2/users/${dave.userId}`).expect(200)).body).toEqual({
        data: userShape(dave.userId!, name),
      });
      expect((await admin.api.get(`/api/v2/users/${dave.userId}`).expect(200)).body).toEqual({
        data: userShape(dave.userId!, name),
      });
      await erin.api.get(`/api/v2/users/${dave.userId}`).expect(404);
      await admin.api.get('/api/v2/users/user-0000000000000000').expect(404);
    });

    it('lets site administrators add users, site administrators among them', async () => {
      const name = unique('frank');
      const res = await admin.api
        .post('/api/v2/admin/users', {
          data: {
            type: 'users',
            attributes: {
              username: name,
              email: `${name.toUpperCase()}@EXAMPLE.COM`,
              password: 'long-password',
              'is-site-admin': true,
            },
          },
        })
        .expect(201);
      expect(res.body).toEqual({ data: userShape(res.body.data.id, name, { admin: true }) });

      const dup = await admin.api
        .post('/api/v2/admin/users', {
          data: {
            type: 'users',
            attributes: { username: name, email: 'other@example.com', password: 'long-password' },
          },
        })
        .expect(422);
      expect(dup.body).toEqual(
        errorsOf(422, {
          detail: 'Username or email has already been taken',
          code: 'USERNAME_TAKEN',
          pointer: '/data/attributes/username',
        }),
      );
      const plain = await createUser(t, admin);
      await plain.api
        .post('/api/v2/admin/users', {
          data: {
            type: 'users',
            attributes: { username: unique('x'), email: 'x@example.com', password: 'long-password' },
          },
        })
        .expect(404);
    });
  });

  describe('health', () => {
    it('answers ping without a token, with the API version header and no body', async () => {
      const res = await request(t.origin).get('/api/v2/ping').expect(204);
      expect(res.headers['tfp-api-version']).toBe('2.6');
      expect(res.text).toBe('');
    });

    it('reports liveness and readiness without a token', async () => {
      const live = await request(t.origin).get('/healthz').expect(200);
      expect(live.body).toEqual({ status: 'ok', info: {}, error: {}, details: {} });
      const ready = await request(t.origin).get('/readyz').expect(200);
      expect(ready.body).toEqual({
        status: 'ok',
        info: { database: { status: 'up' } },
        error: {},
        details: { database: { status: 'up' } },
      });
    });

    it('is not ready, with a 503 error document, when the database is gone', async () => {
      const fresh = await startApp();
      try {
        await fresh.app.get(DataSource).destroy();
        const res = await request(fresh.origin).get('/readyz').expect(503);
        expect(res.body).toEqual({
          errors: [
            {
              status: '503',
              title: 'service unavailable',
              detail: 'a dependency is unavailable; try again shortly',
            },
          ],
        });
        await request(fresh.origin).get('/healthz').expect(200);
      } finally {
        await fresh.close();
      }
    });
  });

  describe('API documentation', () => {
    /** Every route of the foundation, as OpenAPI names it, with the status of its success answer. */
    const ROUTES: [string, string, number][] = [
      ['get', '/healthz', 200],
      ['get', '/readyz', 200],
      ['get', '/api/v2/ping', 204],
      ['get', '/admin/retrieve-iact', 200],
      ['post', '/admin/initial-admin-user', 201],
      ['get', '/api/v2/account/details', 200],
      ['get', '/api/v2/users/{id}', 200],
      ['post', '/api/v2/admin/users', 201],
      ['get', '/api/v2/organizations', 200],
      ['post', '/api/v2/organizations', 201],
      ['get', '/api/v2/organizations/{name}', 200],
      ['patch', '/api/v2/organizations/{name}', 200],
      ['delete', '/api/v2/organizations/{name}', 204],
      ['get', '/api/v2/organizations/{org}/projects', 200],
      ['post', '/api/v2/organizations/{org}/projects', 201],
      ['get', '/api/v2/projects/{id}', 200],
      ['patch', '/api/v2/projects/{id}', 200],
      ['delete', '/api/v2/projects/{id}', 204],
      ['get', '/api/v2/organizations/{org}/workspaces', 200],
      ['post', '/api/v2/organizations/{org}/workspaces', 201],
      ['get', '/api/v2/organizations/{org}/workspaces/{name}', 200],
      ['patch', '/api/v2/organizations/{org}/workspaces/{name}', 200],
      ['delete', '/api/v2/organizations/{org}/workspaces/{name}', 204],
      ['get', '/api/v2/workspaces/{id}', 200],
      ['patch', '/api/v2/workspaces/{id}', 200],
      ['delete', '/api/v2/workspaces/{id}', 204],
      ['get', '/api/v2/organizations/{org}/teams', 200],
      ['post', '/api/v2/organizations/{org}/teams', 201],
      ['get', '/api/v2/teams/{id}', 200],
      ['patch', '/api/v2/teams/{id}', 200],
      ['delete', '/api/v2/teams/{id}', 204],
      ['post', '/api/v2/teams/{id}/relationships/users', 204],
      ['delete', '/api/v2/teams/{id}/relationships/users', 204],
      ['get', '/api/v2/team-workspaces', 200],
      ['post', '/api/v2/team-workspaces', 201],
      ['get', '/api/v2/team-workspaces/{id}', 200],
      ['patch', '/api/v2/team-workspaces/{id}', 200],
      ['delete', '/api/v2/team-workspaces/{id}', 204],
      ['post', '/api/v2/users/{id}/authentication-tokens', 201],
      ['get', '/api/v2/users/{id}/authentication-tokens', 200],
      ['post', '/api/v2/admin/users/{id}/authentication-tokens', 201],
      ['get', '/api/v2/authentication-tokens/{id}', 200],
      ['delete', '/api/v2/authentication-tokens/{id}', 204],
      ['post', '/api/v2/teams/{id}/authentication-token', 201],
      ['delete', '/api/v2/teams/{id}/authentication-token', 204],
      ['post', '/api/v2/organizations/{org}/authentication-token', 201],
      ['delete', '/api/v2/organizations/{org}/authentication-token', 204],
    ];

    interface Operation {
      responses: Record<string, { content?: Record<string, { schema?: unknown }> }>;
      requestBody?: { content: Record<string, { schema?: unknown }> };
      parameters?: { name: string; in: string }[];
    }
    let doc: {
      openapi: string;
      paths: Record<string, Record<string, Operation>>;
      components: Record<string, unknown>;
    };

    beforeAll(async () => {
      const res = await request(t.origin).get('/docs-json').expect(200);
      doc = res.body;
    });

    it('serves the explorer at /docs without a token', async () => {
      const res = await request(t.origin).get('/docs').expect(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.text).toContain('swagger');
    });

    it('is an OpenAPI 3 document with bearer authentication', () => {
      expect(doc.openapi).toMatch(/^3\./);
      expect(doc.components.securitySchemes).toEqual({
        bearer: expect.objectContaining({ scheme: 'bearer' }),
      });
    });

    it.each(ROUTES)('documents %s %s with its success response schema', (method, path, status) => {
      const op = doc.paths[path]?.[method];
      expect(op).toBeDefined();
      const success = op.responses[String(status)];
      expect(success).toBeDefined();
      if (status !== 204) {
        const schemas = Object.values(success.content ?? {}).map((c) => c.schema);
        expect(schemas.length).toBeGreaterThan(0);
        expect(schemas[0]).toBeDefined();
      }
      if (method === 'post' || method === 'patch') {
        const bodyOptional = path.endsWith('authentication-tokens') || path.endsWith('authentication-token');
        if (!bodyOptional) expect(op.requestBody?.content).toBeDefined();
      }
    });

    it('describes resources with their JSON:API type, attributes and list pagination', () => {
      const list = doc.paths['/api/v2/organizations/{org}/workspaces'].get;
      const schema = list.responses['200'].content!['application/vnd.api+json'].schema as {
        properties: {
          data: { items: { properties: Record<string, { enum?: string[]; properties?: object }> } };
          meta: object;
          links: object;
        };
      };
      const item = schema.properties.data.items.properties;
      expect(item.type.enum).toEqual(['workspaces']);
      expect(Object.keys(item.attributes.properties!)).toEqual(
        expect.arrayContaining([
          'name',
          'description',
          'engine-version',
          'permissions',
          'created-at',
          'updated-at',
        ]),
      );
      expect(JSON.stringify(schema.properties.meta)).toContain('total-count');
      expect(Object.keys((schema.properties.links as { properties: object }).properties)).toEqual([
        'self',
        'first',
        'prev',
        'next',
        'last',
      ]);
      const show = doc.paths['/api/v2/workspaces/{id}'].get.responses['200'].content![
        'application/vnd.api+json'
      ].schema as { properties: { included: { items: { oneOf: { $ref: string }[] } } } };
      // Each member is a reference to its type's resource schema (docs/jsonapi.md).
      const members = show.properties.included.items.oneOf.map((s) =>
        s.$ref.replace('#/components/schemas/', ''),
      );
      expect(members).toEqual([
        'projects-resource',
        'organizations-resource',
        'effective-tag-bindings-resource',
        'workspace-outputs-resource',
        'users-resource',
        'teams-resource',
        'runs-resource',
        'plans-resource',
        'configuration-versions-resource',
        'state-versions-resource',
      ]);
      const components = (doc as unknown as { components: { schemas: Record<string, ResourceSchema> } })
        .components;
      expect(members.map((m) => components.schemas[m].properties.type.enum)).toEqual([
        ['projects'],
        ['organizations'],
        ['effective-tag-bindings'],
        ['workspace-outputs'],
        ['users'],
        ['teams'],
        ['runs'],
        ['plans'],
        ['configuration-versions'],
        ['state-versions'],
      ]);
      const names = (list.parameters ?? []).map((p) => p.name);
      expect(names).toEqual(
        expect.arrayContaining([
          'org',
          'page[number]',
          'page[size]',
          'include',
          'search[name]',
          'filter[project][id]',
        ]),
      );
    });
  });
});
