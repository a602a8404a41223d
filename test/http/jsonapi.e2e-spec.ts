import request from 'supertest';
import {
  Actor,
  createOrganization,
  createWorkspace,
  expectPagination,
  unique,
  startWithOwnedOrganization,
} from '../helpers/fixtures';
import { JSONAPI, TestApp } from '../helpers/test-app';
import { errorsOf } from '../helpers/shapes';

describe('JSON:API conventions shared by every route', () => {
  let t: TestApp;
  let owner: Actor;
  let org: string;
  let empty: string;

  beforeAll(async () => {
    ({ t, owner, org } = await startWithOwnedOrganization());
    empty = await createOrganization(owner);
    for (const name of ['ws-a', 'ws-b', 'ws-c', 'ws-d', 'ws-e']) await createWorkspace(owner, org, name);
  });
  afterAll(() => t.close());

  const names = (res: { body: { data: { attributes: { name: string } }[] } }) =>
    res.body.data.map((r) => r.attributes.name);

  describe('pagination', () => {
    it('pages through a list with absolute links and encoded brackets', async () => {
      const res = await owner.api
        .get(`/api/v2/organizations/${org}/workspaces?page[number]=2&page[size]=2&search[name]=ws`)
        .expect(200);
      expect(names(res)).toEqual(['ws-c', 'ws-d']);
      expectPagination(res.body, { current: 2, size: 2, prev: 1, next: 3, pages: 3, count: 5 });
      const base = `${t.origin}/api/v2/organizations/${org}/workspaces?`;
      expect(res.body.links).toEqual({
        self: `${base}page%5Bnumber%5D=2&page%5Bsize%5D=2&search%5Bname%5D=ws`,
        first: `${base}page%5Bnumber%5D=1&page%5Bsize%5D=2&search%5Bname%5D=ws`,
        prev: `${base}page%5Bnumber%5D=1&page%5Bsize%5D=2&search%5Bname%5D=ws`,
        next: `${base}page%5Bnumber%5D=3&page%5Bsize%5D=2&search%5Bname%5D=ws`,
        last: `${base}page%5Bnumber%5D=3&page%5Bsize%5D=2&search%5Bname%5D=ws`,
      });
      const last = await owner.api.get(
        `/api/v2/organizations/${org}/workspaces?page%5Bnumber%5D=3&page%5Bsize%5D=2`,
      );
      expect(names(last)).toEqual(['ws-e']);
      expectPagination(last.body, { current: 3, size: 2, prev: 2, next: null, pages: 3, count: 5 });
    });

    it('answers a page past the end with no data and the totals intact', async () => {
      const res = await owner.api
        .get(`/api/v2/organizations/${org}/workspaces?page[number]=9&page[size]=2`)
        .expect(200);
      expect(res.body.data).toEqual([]);
      expectPagination(res.body, { current: 9, size: 2, prev: 3, next: null, pages: 3, count: 5 });
    });

    it('reports an empty list with zero pages', async () => {
      const res = await owner.api.get(`/api/v2/organizations/${empty}/workspaces`).expect(200);
      expect(res.body.data).toEqual([]);
      expectPagination(res.body, { current: 1, size: 20, prev: null, next: null, pages: 0, count: 0 });
      expect(res.body.links.next).toBeNull();
      expect(res.body.links.last).toContain('page%5Bnumber%5D=1');
    });

    it('accepts page sizes up to 100 and refuses 101 with a 422 naming the parameter', async () => {
      const ok = await owner.api.get(`/api/v2/organizations/${org}/workspaces?page[size]=100`).expect(200);
      expectPagination(ok.body, { current: 1, size: 100, prev: null, next: null, pages: 1, count: 5 });
      for (const size of ['101', '0', '-3', 'ten']) {
        const res = await owner.api
          .get(`/api/v2/organizations/${org}/workspaces?page[size]=${size}`)
          .expect(422);
        expect(res.body).toEqual(
          errorsOf(422, { detail: 'page[size] must be between 1 and 100', parameter: 'page[size]' }),
        );
      }
      const number = await owner.api
        .get(`/api/v2/organizations/${org}/workspaces?page[number]=0`)
        .expect(422);
      expect(number.body).toEqual(
        errorsOf(422, { detail: 'page[number] must be a positive integer', parameter: 'page[number]' }),
      );
    });

    it('refuses a query parameter given twice', async () => {
      const res = await owner.api
        .get(`/api/v2/organizations/${org}/workspaces?page[size]=1&page[size]=2`)
        .expect(400);
      expect(res.body).toEqual(
        errorsOf(400, { detail: 'page[size] must be given once, as a string', parameter: 'page[size]' }),
      );
    });

    it.each([
      ['organizations', () => '/api/v2/organizations'],
      ['projects', () => `/api/v2/organizations/${org}/projects`],
      ['teams', () => `/api/v2/organizations/${org}/teams`],
      ['user tokens', () => `/api/v2/users/${owner.userId}/authentication-tokens`],
    ])('paginates the %s list too', async (_, path) => {
      const res = await owner.api.get(`${path()}?page[size]=1`).expect(200);
      expect(res.body.data.length).toBeLessThanOrEqual(1);
      expect(res.body.meta.pagination['page-size']).toBe(1);
      expect(res.body.links.self).toContain('page%5Bsize%5D=1');
    });
  });

  describe('include', () => {
    it('names the include parameter when a value is unknown', async () => {
      const res = await owner.api.get(`/api/v2/organizations/${org}/workspaces?include=bogus`).expect(400);
      expect(res.body).toEqual(
        errorsOf(400, {
          detail:
            'include parameter contains unknown value bogus; allowed: project, organization, ' +
            'effective-tag-bindings, locked-by, current-run, current-run.plan, current-run.configuration-version, ' +
            'current-configuration-version, current-state-version, outputs, readme',
          parameter: 'include',
        }),
      );
    });

    it('refuses include on routes that include nothing', async () => {
      const res = await owner.api.get(`/api/v2/organizations/${org}/teams?include=teams`).expect(400);
      expect(res.body).toEqual(
        errorsOf(400, {
          detail: 'include parameter contains unknown value teams; this endpoint includes nothing',
          parameter: 'include',
        }),
      );
      await owner.api.get(`/api/v2/organizations/${org}/teams?include=`).expect(200);
    });
  });

  describe('request bodies', () => {
    const post = (path: string) => request(t.origin).post(path).set('Authorization', `Bearer ${owner.token}`);

    it('refuses malformed JSON with a 400 that does not quote it', async () => {
      const res = await post('/api/v2/organizations')
        .set('Content-Type', JSONAPI)
        .send('{"data": {secret-value')
        .expect(400);
      expect(res.headers['content-type']).toContain(JSONAPI);
      expect(res.body).toEqual(errorsOf(400, { detail: 'request body is not valid JSON' }));
      expect(res.text).not.toContain('secret-value');
    });

    it('refuses a JSON body that is not a document', async () => {
      const scalar = await post('/api/v2/organizations')
        .set('Content-Type', 'application/json')
        .send('"text"')
        .expect(400);
      expect(scalar.body).toEqual(errorsOf(400, { detail: 'request body is not valid JSON' }));
      const array = await post('/api/v2/organizations')
        .set('Content-Type', 'application/json')
        .send('[]')
        .expect(400);
      expect(array.body).toEqual(errorsOf(400, { detail: 'request body must be a JSON:API document' }));
      const none = await post('/api/v2/organizations').expect(400);
      expect(none.body).toEqual(errorsOf(400, { detail: 'request body must be a JSON:API document' }));
    });

    it('refuses bodies over 1 MiB with 413', async () => {
      const big = JSON.stringify({
        data: { type: 'organizations', attributes: { name: 'x'.repeat(1024 * 1024) } },
      });
      const res = await post('/api/v2/organizations').set('Content-Type', JSONAPI).send(big).expect(413);
      expect(res.body).toEqual(errorsOf(413, { detail: 'request body is too large' }));
    });

    it('answers a missing data member with 422 pointing at /data', async () => {
      for (const doc of [{}, { data: null }, { data: [] }, { meta: {} }]) {
        const res = await owner.api.post(`/api/v2/organizations/${org}/workspaces`, doc).expect(422);
        expect(res.body).toEqual(
          errorsOf(422, { detail: 'Data must be a resource object', pointer: '/data' }),
        );
      }
    });

    it('answers attributes or relationships that are not objects with 422', async () => {
      const attrs = await owner.api
        .post(`/api/v2/organizations/${org}/workspaces`, {
          data: { type: 'workspaces', attributes: ['name'] },
        })
        .expect(422);
      expect(attrs.body).toEqual(
        errorsOf(422, { detail: 'Attributes must be an object', pointer: '/data/attributes' }),
      );
      const rels = await owner.api
        .post(`/api/v2/organizations/${org}/workspaces`, {
          data: { type: 'workspaces', attributes: { name: unique('r') }, relationships: 'project' },
        })
        .expect(422);
      expect(rels.body).toEqual(
        errorsOf(422, { detail: 'Relationships must be an object', pointer: '/data/relationships' }),
      );
    });

    it('answers attributes of the wrong type with one 422 per attribute, each with a pointer', async () => {
      const res = await owner.api
        .post(`/api/v2/organizations/${org}/workspaces`, {
          data: {
            type: 'workspaces',
            attributes: { name: 12, description: { text: 'x' }, 'engine-version': true },
          },
        })
        .expect(422);
      expect(res.body).toEqual(
        errorsOf(
          422,
          { detail: 'Name must be a string', pointer: '/data/attributes/name' },
          { detail: 'Description must be a string', pointer: '/data/attributes/description' },
          { detail: 'Engine version must be a string', pointer: '/data/attributes/engine-version' },
        ),
      );
    });

    it('checks data.type and ignores unknown attributes', async () => {
      const wrong = await owner.api
        .post(`/api/v2/organizations/${org}/workspaces`, {
          data: { type: 'projects', attributes: { name: 'x' } },
        })
        .expect(409);
      expect(wrong.body).toEqual(errorsOf(409, { detail: 'Type must be workspaces', pointer: '/data/type' }));
      const missing = await owner.api
        .post(`/api/v2/organizations/${org}/workspaces`, { data: { attributes: { name: 'x' } } })
        .expect(422);
      expect(missing.body.errors[0].source).toEqual({ pointer: '/data/type' });
      const name = unique('extra');
      const ok = await owner.api
        .post(`/api/v2/organizations/${org}/workspaces`, {
          data: { type: 'workspaces', attributes: { name, 'auto-apply': true, nonsense: [1] } },
        })
        .expect(201);
      expect(Object.keys(ok.body.data.attributes)).not.toContain('nonsense');
    });
  });

  describe('errors', () => {
    it('answers unknown routes with a JSON:API 404', async () => {
      const res = await owner.api.get('/api/v2/nothing-here').expect(404);
      expect(res.headers['content-type']).toContain(JSONAPI);
      expect(res.body).toEqual(errorsOf(404));
    });

    it('answers an undecodable path with a 400 that does not quote it', async () => {
      const res = await owner.api.get('/api/v2/organizations/%E0%A4%A').expect(400);
      expect(res.body).toEqual(errorsOf(400, { detail: 'the request is malformed' }));
    });

    it('refuses an unknown token with 401 before it looks at the query', async () => {
      const unknown = await request(t.origin)
        .get(`/api/v2/organizations/${org}/workspaces?page[size]=500`)
        .set('Authorization', 'Bearer unknown.plinthv1.token')
        .expect(401);
      expect(unknown.body).toEqual(errorsOf(401));
    });
  });

  describe('error codes', () => {
    type ErrorObject = Record<string, unknown>;
    const errorsIn = (res: { body: { errors: ErrorObject[] } }) => res.body.errors;

    it('writes a coded refusal with exactly status, title, code, detail and its source, in that order', async () => {
      const name = unique('coded');
      await createWorkspace(owner, org, name);
      const dup = await owner.api
        .post(`/api/v2/organizations/${org}/workspaces`, {
          data: { type: 'workspaces', attributes: { name } },
        })
        .expect(422);
      expect(errorsIn(dup).map((e) => Object.keys(e))).toEqual([
        ['status', 'title', 'code', 'detail', 'source'],
      ]);
      expect(errorsIn(dup)[0]).toMatchObject({
        code: 'NAME_TAKEN',
        source: { pointer: '/data/attributes/name' },
      });

      const ws = await createWorkspace(owner, org);
      await owner.api.post(`/api/v2/workspaces/${ws}/actions/lock`).expect(200);
      const locked = await owner.api.post(`/api/v2/workspaces/${ws}/actions/lock`).expect(409);
      expect(errorsIn(locked).map((e) => Object.keys(e))).toEqual([['status', 'title', 'code', 'detail']]);
      expect(errorsIn(locked)[0].code).toBe('WORKSPACE_ALREADY_LOCKED');
    });

    it('leaves the code member out of every other error object', async () => {
      const invalid = await owner.api
        .post(`/api/v2/organizations/${org}/workspaces`, {
          data: { type: 'workspaces', attributes: { name: 'not a valid name!' } },
        })
        .expect(422);
      const missing = await owner.api.get('/api/v2/workspaces/ws-doesnotexist0000').expect(404);
      const badInclude = await owner.api.get(`/api/v2/organizations/${org}?include=nothing`).expect(400);
      for (const res of [invalid, missing, badInclude]) {
        expect(errorsIn(res).length).toBeGreaterThan(0);
        for (const error of errorsIn(res)) {
          expect(error).not.toHaveProperty('code');
          expect(Object.keys(error)).toEqual(
            ['status', 'title', 'detail', 'source'].filter((k) => k in error),
          );
        }
      }
    });
  });

  describe('unique names', () => {
    const taken = errorsOf(422, {
      detail: 'Name has already been taken',
      code: 'NAME_TAKEN',
      pointer: '/data/attributes/name',
    });

    it.each([
      [
        'organizations',
        () => '/api/v2/organizations',
        (name: string) => ({ name, email: `${name}@example.com` }),
      ],
      ['projects', () => `/api/v2/organizations/${org}/projects`, (name: string) => ({ name })],
      ['workspaces', () => `/api/v2/organizations/${org}/workspaces`, (name: string) => ({ name })],
      ['teams', () => `/api/v2/organizations/${org}/teams`, (name: string) => ({ name })],
    ])('ends concurrent creates of one %s name in one 201 and 422s', async (type, path, attributes) => {
      const name = unique('same');
      const results = await Promise.all(
        Array.from({ length: 6 }, () =>
          owner.api.post(path(), { data: { type, attributes: attributes(name) } }),
        ),
      );
      expect(results.map((r) => r.status).sort()).toEqual([201, 422, 422, 422, 422, 422]);
      for (const r of results.filter((x) => x.status === 422)) expect(r.body).toEqual(taken);
    });
  });
});
