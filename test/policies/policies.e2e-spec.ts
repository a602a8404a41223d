import request from 'supertest';
import {
  Actor,
  bootstrapAdmin,
  createOrganization,
  expectPagination,
  idOf,
  ISO_MILLIS,
  memberWith,
  unique,
} from '../helpers/fixtures';
import { startApp, TestApp } from '../helpers/test-app';
import { createPolicy } from '../policy-sets/policy-fixtures';

// The e2e project's testTimeout does not reach hooks; booting on MySQL can take longer than 5 s.
jest.setTimeout(60_000);

describe('policies', () => {
  let t: TestApp;
  let admin: Actor;
  let org: string;

  beforeAll(async () => {
    t = await startApp({ MAX_POLICY_BYTES: '64' });
    admin = await bootstrapAdmin(t);
    org = await createOrganization(admin);
  });
  afterAll(() => t.close());

  const create = (attributes: Record<string, unknown>, actor = admin, organization = org) =>
    actor.api.post(`/api/v2/organizations/${organization}/policies`, {
      data: { type: 'policies', attributes },
    });

  describe('create', () => {
    it('creates a framework_a policy and answers 201 with the whole resource', async () => {
      const name = unique('require-tags');
      const res = await create({ name, description: 'tags', 'enforcement-level': 'hard-mandatory' }).expect(
        201,
      );
      expect(res.headers['content-type']).toMatch(/^application\/vnd\.api\+json/);
      const id = res.body.data.id;
      expect(res.body).toEqual({
        data: {
          id: expect.stringMatching(idOf('pol')),
          type: 'policies',
          attributes: {
            name,
            description: 'tags',
            kind: 'framework_a',
            'enforcement-level': 'hard-mandatory',
            query: null,
            enforce: [{ path: `${name}.sentinel`, mode: 'hard-mandatory' }],
            'policy-set-count': 0,
            'created-at': expect.stringMatching(ISO_MILLIS),
            'updated-at': expect.stringMatching(ISO_MILLIS),
          },
          relationships: {
            organization: { data: { id: org, type: 'organizations' } },
            'policy-sets': { data: [] },
          },
          links: { self: `/api/v2/policies/${id}`, upload: `/api/v2/policies/${id}/upload` },
        },
      });
    });

    it('creates a framework_b policy with its query', async () => {
      const res = await create({
        name: unique('opa'),
        kind: 'framework_b',
        'enforcement-level': 'mandatory',
        query: 'data.terraform.deny',
      }).expect(201);
      expect(res.body.data.attributes).toMatchObject({
        kind: 'framework_b',
        'enforcement-level': 'mandatory',
        query: 'data.terraform.deny',
      });
    });

    it('requires a query for framework_b and refuses one for framework_a', async () => {
      const b = await create({
        name: unique('b'),
        kind: 'framework_b',
        'enforcement-level': 'advisory',
      }).expect(422);
      expect(b.body.errors).toEqual([
        {
          status: '422',
          title: 'invalid attribute',
          detail: "Query can't be blank for framework_b policies",
          source: { pointer: '/data/attributes/query' },
        },
      ]);
      const a = await create({ name: unique('a'), 'enforcement-level': 'advisory', query: 'x' }).expect(422);
      expect(a.body.errors[0]).toMatchObject({
        detail: 'Query is only valid for framework_b policies',
        source: { pointer: '/data/attributes/query' },
      });
    });

    it.each([
      ['framework_a', 'mandatory', 'advisory, soft-mandatory, hard-mandatory'],
      ['framework_b', 'hard-mandatory', 'advisory, mandatory'],
    ])('refuses a %s policy with enforcement level %s', async (kind, level, allowed) => {
      const res = await create({
        name: unique('p'),
        kind,
        'enforcement-level': level,
        query: kind === 'framework_b' ? 'q' : undefined,
      }).expect(422);
      expect(res.body.errors).toEqual([
        {
          status: '422',
          title: 'invalid attribute',
          detail: `Enforcement level is not included in the list for ${kind}: ${allowed}`,
          source: { pointer: '/data/attributes/enforcement-level' },
        },
      ]);
    });

    it('refuses a missing name, a bad name, an unknown kind and a taken name', async () => {
      const missing = await create({ 'enforcement-level': 'advisory' }).expect(422);
      expect(missing.body.errors).toContainEqual(
        expect.objectContaining({
          detail: "Name can't be blank",
          source: { pointer: '/data/attributes/name' },
        }),
      );
      const bad = await create({ name: 'has space', 'enforcement-level': 'advisory' }).expect(422);
      expect(bad.body.errors[0].detail).toBe('Name is invalid: use letters, numbers, - and _');
      const kind = await create({
        name: unique('k'),
        kind: 'rego',
        'enforcement-level': 'advisory',
      }).expect(422);
      expect(kind.body.errors[0]).toMatchObject({
        detail: 'Kind is not included in the list: framework_a, framework_b',
        source: { pointer: '/data/attributes/kind' },
      });
      const name = unique('dup');
      await create({ name, 'enforcement-level': 'advisory' }).expect(201);
      const dup = await create({ name, 'enforcement-level': 'advisory' }).expect(422);
      expect(dup.body.errors).toEqual([
        {
          status: '422',
          title: 'invalid attribute',
          code: 'NAME_TAKEN',
          detail: 'Name has already been taken',
          source: { pointer: '/data/attributes/name' },
        },
      ]);
    });

    it('refuses a wrong data.type with a 409', async () => {
      const res = await admin.api
        .post(`/api/v2/organizations/${org}/policies`, {
          data: { type: 'policy-sets', attributes: { name: unique('x'), 'enforcement-level': 'advisory' } },
        })
        .expect(409);
      expect(res.body.errors[0].source).toEqual({ pointer: '/data/type' });
    });
  });

  describe('list', () => {
    let listOrg: string;

    beforeAll(async () => {
      listOrg = await createOrganization(admin);
      for (const name of ['alpha-1', 'alpha-2', 'beta-1']) await createPolicy(admin, listOrg, { name });
      await createPolicy(admin, listOrg, {
        name: 'opa-alpha',
        kind: 'framework_b',
        enforcementLevel: 'mandatory',
      });
    });

    it('pages through the policies of an organization in name order', async () => {
      const res = await admin.api
        .get(`/api/v2/organizations/${listOrg}/policies?page[size]=3&page[number]=2`)
        .expect(200);
      expect(res.body.data.map((p: { attributes: { name: string } }) => p.attributes.name)).toEqual([
        'opa-alpha',
      ]);
      expectPagination(res.body, { current: 2, size: 3, prev: 1, next: null, pages: 2, count: 4 });
    });

    it('filters by search[name] and filter[kind]', async () => {
      const search = await admin.api
        .get(`/api/v2/organizations/${listOrg}/policies?search[name]=alpha`)
        .expect(200);
      expect(search.body.data.map((p: { attributes: { name: string } }) => p.attributes.name)).toEqual([
        'alpha-1',
        'alpha-2',
        'opa-alpha',
      ]);
      const kind = await admin.api
        .get(`/api/v2/organizations/${listOrg}/policies?filter[kind]=framework_b`)
        .expect(200);
      expect(kind.body.data.map((p: { attributes: { name: string } }) => p.attributes.name)).toEqual([
        'opa-alpha',
      ]);
      expect(kind.body.meta.pagination['total-count']).toBe(1);
    });

    it('answers 400 naming filter[kind] for an unknown kind', async () => {
      const res = await admin.api
        .get(`/api/v2/organizations/${listOrg}/policies?filter[kind]=rego`)
        .expect(400);
      expect(res.body.errors[0]).toEqual({
        status: '400',
        title: 'bad request',
        detail: 'filter[kind] must be one of framework_a, framework_b',
        source: { parameter: 'filter[kind]' },
      });
    });

    it('answers 404 for an unknown organization', async () => {
      await admin.api.get('/api/v2/organizations/no-such-org/policies').expect(404);
    });
  });

  describe('show, update, delete', () => {
    it('shows a policy', async () => {
      const id = await createPolicy(admin, org);
      const res = await admin.api.get(`/api/v2/policies/${id}`).expect(200);
      expect(res.body.data).toMatchObject({
        id,
        type: 'policies',
        links: { self: `/api/v2/policies/${id}` },
      });
    });

    it('updates the given attributes and keeps the others', async () => {
      const id = await createPolicy(admin, org, { enforcementLevel: 'advisory' });
      const before = await admin.api.get(`/api/v2/policies/${id}`).expect(200);
      const res = await admin.api
        .patch(`/api/v2/policies/${id}`, {
          data: {
            type: 'policies',
            attributes: { description: 'now described', 'enforcement-level': 'soft-mandatory' },
          },
        })
        .expect(200);
      expect(res.body.data.attributes).toEqual({
        ...before.body.data.attributes,
        description: 'now described',
        'enforcement-level': 'soft-mandatory',
        enforce: [{ path: `${before.body.data.attributes.name}.sentinel`, mode: 'soft-mandatory' }],
        'updated-at': expect.stringMatching(ISO_MILLIS),
      });
    });

    it('refuses to change the kind or to set a level of the other kind', async () => {
      const id = await createPolicy(admin, org);
      const kind = await admin.api
        .patch(`/api/v2/policies/${id}`, { data: { type: 'policies', attributes: { kind: 'framework_b' } } })
        .expect(422);
      expect(kind.body.errors[0]).toMatchObject({
        detail: 'Kind cannot be changed after the policy is created',
        source: { pointer: '/data/attributes/kind' },
      });
      await admin.api
        .patch(`/api/v2/policies/${id}`, { data: { type: 'policies', attributes: { kind: 'framework_a' } } })
        .expect(200);
      await admin.api
        .patch(`/api/v2/policies/${id}`, {
          data: { type: 'policies', attributes: { 'enforcement-level': 'mandatory' } },
        })
        .expect(422);
    });

    it('refuses to clear the query of a framework_b policy', async () => {
      const id = await createPolicy(admin, org, { kind: 'framework_b' });
      const res = await admin.api
        .patch(`/api/v2/policies/${id}`, { data: { type: 'policies', attributes: { query: null } } })
        .expect(422);
      expect(res.body.errors[0].source).toEqual({ pointer: '/data/attributes/query' });
    });

    it('deletes a policy with 204 and then answers 404', async () => {
      const id = await createPolicy(admin, org);
      const res = await admin.api.delete(`/api/v2/policies/${id}`).expect(204);
      expect(res.text).toBe('');
      await admin.api.get(`/api/v2/policies/${id}`).expect(404);
      await admin.api.delete(`/api/v2/policies/${id}`).expect(404);
    });
  });

  describe('policy code', () => {
    it('stores uploaded text and serves it back', async () => {
      const id = await createPolicy(admin, org);
      await admin.api.get(`/api/v2/policies/${id}/download`).expect(404);
      const code = 'main = rule { true }\n';
      await admin.api
        .put(`/api/v2/policies/${id}/upload`)
        .set('Content-Type', 'text/plain')
        .send(code)
        .expect(204);
      const res = await admin.api.get(`/api/v2/policies/${id}/download`).expect(200);
      expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
      expect(res.text).toBe(code);
      const shown = await admin.api.get(`/api/v2/policies/${id}`).expect(200);
      expect(shown.body.data.links).toEqual({
        self: `/api/v2/policies/${id}`,
        upload: `/api/v2/policies/${id}/upload`,
        download: `/api/v2/policies/${id}/download`,
      });
    });

    it('replaces the code on a second upload', async () => {
      const id = await createPolicy(admin, org);
      const put = (body: string) =>
        admin.api
          .put(`/api/v2/policies/${id}/upload`)
          .set('Content-Type', 'application/octet-stream')
          .send(body);
      await put('one').expect(204);
      await put('two').expect(204);
      const res = await admin.api.get(`/api/v2/policies/${id}/download`).buffer(true).expect(200);
      expect(res.text).toBe('two');
    });

    it('refuses code over MAX_POLICY_BYTES with 413 and keeps the previous code', async () => {
      const id = await createPolicy(admin, org);
      await admin.api
        .put(`/api/v2/policies/${id}/upload`)
        .set('Content-Type', 'text/plain')
        .send('ok')
        .expect(204);
      const res = await admin.api
        .put(`/api/v2/policies/${id}/upload`)
        .set('Content-Type', 'text/plain')
        .send('x'.repeat(65))
        .expect(413);
      expect(res.body.errors[0]).toEqual({
        status: '413',
        title: 'payload too large',
        detail: 'upload exceeds the limit of 64 bytes',
      });
      expect((await admin.api.get(`/api/v2/policies/${id}/download`).expect(200)).text).toBe('ok');
    });

    it('refuses code sent with a JSON content type with 415', async () => {
      const id = await createPolicy(admin, org);
      const res = await admin.api
        .put(`/api/v2/policies/${id}/upload`)
        .set('Content-Type', 'application/json')
        .send('{"code": "main = rule { true }"}')
        .expect(415);
      expect(res.body.errors[0].title).toBe('unsupported media type');
    });

    it('answers 404 for the code of an unknown policy', async () => {
      await admin.api
        .put('/api/v2/policies/pol-doesnotexist0000/upload')
        .set('Content-Type', 'text/plain')
        .send('x')
        .expect(404);
    });
  });

  describe('permissions', () => {
    let manager: Actor;
    let reader: Actor;
    let policyId: string;

    beforeAll(async () => {
      manager = await memberWith(t, admin, admin, org, ['manage-policies']);
      reader = await memberWith(t, admin, admin, org, ['read-workspaces', 'read-projects']);
      policyId = await createPolicy(admin, org);
    });

    it('lets a manage-policies team member do everything', async () => {
      const id = await createPolicy(manager, org);
      await manager.api.get(`/api/v2/organizations/${org}/policies`).expect(200);
      await manager.api.get(`/api/v2/policies/${policyId}`).expect(200);
      await manager.api
        .put(`/api/v2/policies/${id}/upload`)
        .set('Content-Type', 'text/plain')
        .send('x')
        .expect(204);
      await manager.api.delete(`/api/v2/policies/${id}`).expect(204);
    });

    it('answers 404 to a member without manage-policies, for reads and writes', async () => {
      await reader.api.get(`/api/v2/organizations/${org}/policies`).expect(404);
      await create({ name: unique('nope'), 'enforcement-level': 'advisory' }, reader).expect(404);
      await reader.api.get(`/api/v2/policies/${policyId}`).expect(404);
      await reader.api
        .patch(`/api/v2/policies/${policyId}`, {
          data: { type: 'policies', attributes: { description: 'x' } },
        })
        .expect(404);
      await reader.api
        .put(`/api/v2/policies/${policyId}/upload`)
        .set('Content-Type', 'text/plain')
        .send('x')
        .expect(404);
      await reader.api.get(`/api/v2/policies/${policyId}/download`).expect(404);
      await reader.api.delete(`/api/v2/policies/${policyId}`).expect(404);
    });

    it('answers 401 without a token', async () => {
      await request(t.origin).get(`/api/v2/policies/${policyId}`).expect(401);
    });
  });
});
