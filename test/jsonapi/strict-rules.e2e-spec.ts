import request from 'supertest';
import {
  Actor,
  bootstrapAdmin,
  createOrganization,
  createProject,
  createUser,
  createWorkspace,
} from '../helpers/fixtures';
import { send } from '../helpers/raw-http';
import { JSONAPI, startApp, TestApp } from '../helpers/test-app';

/** JSON:API 1.0 MUSTs every route follows by construction (docs/jsonapi.md). */
describe('JSON:API 1.0 rules', () => {
  let t: TestApp;
  let admin: Actor;
  let owner: Actor;
  let org: string;
  let projectId: string;
  let wsId: string;
  let setId: string;

  beforeAll(async () => {
    t = await startApp();
    admin = await bootstrapAdmin(t);
    owner = await createUser(t, admin);
    org = await createOrganization(owner);
    projectId = await createProject(owner, org, 'prj-a');
    for (const name of ['ws-b', 'ws-a', 'ws-c']) await createWorkspace(owner, org, name);
    wsId = await createWorkspace(owner, org, 'ws-d', projectId);
    const set = await owner.api
      .post(`/api/v2/organizations/${org}/policy-sets`, {
        data: {
          type: 'policy-sets',
          attributes: { name: 'set-a', description: 'first' },
          relationships: { workspaces: { data: [{ type: 'workspaces', id: wsId }] } },
        },
      })
      .expect(201);
    setId = set.body.data.id;
  });
  afterAll(() => t.close());

  const names = (res: { body: { data: { attributes: { name: string } }[] } }) =>
    res.body.data.map((r) => r.attributes.name);

  describe('Content-Type', () => {
    it('is exactly the JSON:API media type on documents, errors and remembered answers', async () => {
      const path = `/api/v2/organizations/${org}/workspaces`;
      const first = await owner.api.get(path).expect(200);
      const again = await owner.api.get(path).expect(200);
      const missing = await owner.api.get('/api/v2/workspaces/ws-nope').expect(404);
      const unauthorized = await request(t.origin).get(path).expect(401);
      const invalid = await owner.api
        .post(path, { data: { type: 'workspaces', attributes: {} } })
        .expect(422);
      for (const res of [first, again, missing, unauthorized, invalid]) {
        expect(res.headers['content-type']).toBe(JSONAPI);
      }
      expect(again.body).toEqual(first.body);
    });

    it('is exact on answers written before any handler (a request the HTTP parser refuses)', async () => {
      const res = await send(t.origin, { path: '/api/v2/ping', headers: { 'X-Big': 'a'.repeat(20_000) } });
      expect(res.status).toBe(431);
      expect(res.headers['content-type']).toBe(JSONAPI);
    });
  });

  describe('content negotiation', () => {
    const body = JSON.stringify({ data: { type: 'projects', attributes: { name: 'neg' } } });

    it('refuses the JSON:API media type with a parameter in Content-Type (415)', async () => {
      const res = await request(t.origin)
        .post(`/api/v2/organizations/${org}/projects`)
        .set('Authorization', `Bearer ${owner.token}`)
        .set('Content-Type', `${JSONAPI}; charset=utf-8`)
        .send(body)
        .expect(415);
      expect(res.headers['content-type']).toBe(JSONAPI);
      expect(res.body).toEqual({
        errors: [
          {
            status: '415',
            title: 'unsupported media type',
            detail: `${JSONAPI} must be sent without media type parameters`,
          },
        ],
      });
    });

    it('refuses an Accept that offers the JSON:API media type only with parameters (406)', async () => {
      const res = await request(t.origin)
        .get(`/api/v2/organizations/${org}/projects`)
        .set('Authorization', `Bearer ${owner.token}`)
        .set('Accept', `${JSONAPI}; ext=bulk, ${JSONAPI}; profile=x`)
        .expect(406);
      expect(res.headers['content-type']).toBe(JSONAPI);
      expect(res.body.errors).toEqual([
        {
          status: '406',
          title: 'not acceptable',
          detail: `Accept must offer ${JSONAPI} without media type parameters`,
        },
      ]);
    });

    it('answers the plain media type, weights and application/json as before', async () => {
      for (const accept of [
        JSONAPI,
        `${JSONAPI}; ext=bulk, ${JSONAPI}`,
        `${JSONAPI};q=0.8`,
        'application/json',
        '*/*',
      ]) {
        await request(t.origin)
          .get(`/api/v2/organizations/${org}/projects`)
          .set('Authorization', `Bearer ${owner.token}`)
          .set('Accept', accept)
          .expect(200);
      }
      const created = await request(t.origin)
        .post(`/api/v2/organizations/${org}/projects`)
        .set('Authorization', `Bearer ${owner.token}`)
        .set('Content-Type', 'application/json; charset=utf-8')
        .send(body)
        .expect(201);
      expect(created.headers['content-type']).toBe(JSONAPI);
    });
  });

  describe('sparse fieldsets', () => {
    it('keep only the named attributes and relationships, in primary data and included', async () => {
      const res = await owner.api
        .get(
          `/api/v2/policy-sets/${setId}?include=workspaces&fields[policy-sets]=name,workspaces&fields[workspaces]=name`,
        )
        .expect(200);
      expect(res.body).toEqual({
        data: {
          id: setId,
          type: 'policy-sets',
          attributes: { name: 'set-a' },
          relationships: { workspaces: { data: [{ id: wsId, type: 'workspaces' }] } },
          links: { self: `/api/v2/policy-sets/${setId}` },
        },
        included: [
          {
            id: wsId,
            type: 'workspaces',
            attributes: { name: 'ws-d' },
            links: { self: `/api/v2/workspaces/${wsId}` },
          },
        ],
      });
    });

    it('apply to every member of a list; an empty fieldset keeps no field', async () => {
      const res = await owner.api
        .get(`/api/v2/organizations/${org}/workspaces?fields[workspaces]=name,created-at`)
        .expect(200);
      expect(res.body.data.map((w: { attributes: object }) => Object.keys(w.attributes).sort())).toEqual(
        Array(4).fill(['created-at', 'name']),
      );
      expect(res.body.data.every((w: { relationships?: unknown }) => w.relationships === undefined)).toBe(
        true,
      );
      const none = await owner.api.get(`/api/v2/organizations/${org}/projects?fields[projects]=`).expect(200);
      expect(none.body.data[0].attributes).toEqual({});
      expect(none.body.links.self).toContain('fields%5Bprojects%5D=');
    });

    it('do not collide in the response cache with the full answer or another fieldset', async () => {
      const path = `/api/v2/projects/${projectId}`;
      const full = await owner.api.get(path).expect(200);
      const sparse = await owner.api.get(`${path}?fields[projects]=name`).expect(200);
      const other = await owner.api.get(`${path}?fields[projects]=description`).expect(200);
      const fullAgain = await owner.api.get(path).expect(200);
      expect(sparse.body.data.attributes).toEqual({ name: 'prj-a' });
      expect(Object.keys(other.body.data.attributes)).toEqual(['description']);
      expect(fullAgain.body).toEqual(full.body);
      expect(Object.keys(full.body.data.attributes).length).toBeGreaterThan(2);
    });

    it.each([
      [
        'fields[workspaces]=name,nope',
        'fields[workspaces]',
        'fields[workspaces] contains unknown field nope of workspaces',
      ],
      [
        'fields[no-such-type]=name',
        'fields[no-such-type]',
        'fields[no-such-type] names an unknown resource type',
      ],
      [
        'fields[workspaces]=name&fields[workspaces]=id',
        'fields[workspaces]',
        'fields[workspaces] must be given once, as a string',
      ],
    ])('refuse %s with a 400 naming the parameter', async (query, parameter, detail) => {
      const res = await owner.api.get(`/api/v2/organizations/${org}/workspaces?${query}`).expect(400);
      expect(res.headers['content-type']).toBe(JSONAPI);
      expect(res.body).toEqual({
        errors: [{ status: '400', title: 'bad request', detail, source: { parameter } }],
      });
    });
  });

  describe('sorting', () => {
    it('orders a list by a declared field in either direction, id breaking ties', async () => {
      const path = `/api/v2/organizations/${org}/workspaces`;
      expect(names(await owner.api.get(path).expect(200))).toEqual(['ws-a', 'ws-b', 'ws-c', 'ws-d']);
      expect(names(await owner.api.get(`${path}?sort=-name`).expect(200))).toEqual([
        'ws-d',
        'ws-c',
        'ws-b',
        'ws-a',
      ]);
      expect(names(await owner.api.get(`${path}?sort=created-at`).expect(200))).toEqual([
        'ws-b',
        'ws-a',
        'ws-c',
        'ws-d',
      ]);
      const newest = await owner.api.get(`${path}?sort=-created-at&page[size]=2&page[number]=2`).expect(200);
      expect(names(newest)).toEqual(['ws-a', 'ws-b']);
      expect(newest.body.links.next).toBeNull();
      expect(newest.body.links.self).toContain('sort=-created-at');
    });

    it('sorts lists read whole and lists in plain SQL alike', async () => {
      // Two writes, so that `b` is older than `a`.
      for (const key of ['b', 'a']) {
        await owner.api
          .patch(`/api/v2/workspaces/${wsId}/tag-bindings`, {
            data: [{ type: 'tag-bindings', attributes: { key, value: '1' } }],
          })
          .expect(200);
        await new Promise((r) => setTimeout(r, 5));
      }
      const keys = async (q: string) =>
        (await owner.api.get(`/api/v2/workspaces/${wsId}/tag-bindings${q}`).expect(200)).body.data.map(
          (b: { attributes: { key: string } }) => b.attributes.key,
        );
      expect(await keys('')).toEqual(['a', 'b']);
      expect(await keys('?sort=-key')).toEqual(['b', 'a']);
      expect(await keys('?sort=created-at')).toEqual(['b', 'a']);
      const teams = await owner.api.get(`/api/v2/organizations/${org}/teams?sort=-name`).expect(200);
      expect(teams.body.data.map((x: { attributes: { name: string } }) => x.attributes.name)).toEqual([
        'owners',
      ]);
      await owner.api
        .get(`/api/v2/workspaces/${wsId}/run-triggers?filter[run-trigger][type]=inbound&sort=-created-at`)
        .expect(200);
    });

    it.each([
      ['size', 'sort field size is not supported; allowed: name, created-at'],
      ['name,-updated-at', 'sort field updated-at is not supported; allowed: name, created-at'],
    ])('refuses sort=%s with a 400 naming the field', async (sort, detail) => {
      const res = await owner.api.get(`/api/v2/organizations/${org}/workspaces?sort=${sort}`).expect(400);
      expect(res.body).toEqual({
        errors: [{ status: '400', title: 'bad request', detail, source: { parameter: 'sort' } }],
      });
    });

    it('refuses sort on a route that returns no list', async () => {
      const res = await owner.api.get(`/api/v2/workspaces/${wsId}?sort=name`).expect(400);
      expect(res.body.errors).toEqual([
        {
          status: '400',
          title: 'bad request',
          detail: 'sort is not supported on this route',
          source: { parameter: 'sort' },
        },
      ]);
    });
  });

  describe('creating', () => {
    it('refuses a client-generated id with 403 and creates nothing', async () => {
      const res = await owner.api
        .post(`/api/v2/organizations/${org}/projects`, {
          data: { type: 'projects', id: 'prj-AAAAAAAAAAAAAAAA', attributes: { name: 'client-id' } },
        })
        .expect(403);
      expect(res.body).toEqual({
        errors: [
          {
            status: '403',
            title: 'forbidden',
            detail: 'client-generated ids are not supported; leave out data.id',
            source: { pointer: '/data/id' },
          },
        ],
      });
      const list = await owner.api
        .get(`/api/v2/organizations/${org}/projects?search[name]=client-id`)
        .expect(200);
      expect(list.body.data).toEqual([]);
    });

    it('answers every 201 with a Location header equal to the new resource links.self', async () => {
      const created = [
        await owner.api.post(`/api/v2/organizations/${org}/projects`, {
          data: { type: 'projects', attributes: { name: 'loc' } },
        }),
        await owner.api.post(`/api/v2/organizations/${org}/workspaces`, {
          data: { type: 'workspaces', attributes: { name: 'loc' } },
        }),
        await owner.api.post(`/api/v2/organizations/${org}/teams`, {
          data: { type: 'teams', attributes: { name: 'loc' } },
        }),
        await owner.api.post(`/api/v2/policy-sets/${setId}/versions`),
        await owner.api.post('/api/v2/organizations', {
          data: { type: 'organizations', attributes: { name: 'loc-org', email: 'a@example.com' } },
        }),
      ];
      for (const res of created) {
        expect(res.status).toBe(201);
        expect(res.headers.location).toBe(res.body.data.links.self);
        expect(res.headers.location).toMatch(/^\/api\/v2\//);
      }
    });
  });
});
