import request from 'supertest';
import { Actor, bootstrapAdmin, createOrganization, createTeam, unique } from '../helpers/fixtures';
import { send } from '../helpers/raw-http';
import { JSONAPI, startApp, TestApp } from '../helpers/test-app';
import { errorsOf } from '../helpers/shapes';

const LONE = '\ud800';

/**
 * Values that once reached the database and came back as a 500: text that is not well-formed
 * UTF-16, `null` for attributes that have no null, relationship lists past the SQL variable limit,
 * timestamps past year 9999, and request lines too long for the HTTP parser.
 */
describe('hostile values that must not reach the database', () => {
  let t: TestApp;
  let admin: Actor;
  let org: string;
  let team: string;

  beforeAll(async () => {
    t = await startApp();
    admin = await bootstrapAdmin(t);
    org = await createOrganization(admin);
    team = await createTeam(admin, org);
  });
  afterAll(() => t.close());

  const surrogateError = (pointer: string, name: string) =>
    errorsOf(422, { detail: `${name} must be well-formed Unicode text`, pointer });

  describe('a lone surrogate in an email', () => {
    it('is refused on POST /organizations', async () => {
      const res = await admin.api
        .post('/api/v2/organizations', {
          data: { type: 'organizations', attributes: { name: unique('org'), email: `a${LONE}@example.com` } },
        })
        .expect(422);
      expect(res.body).toEqual(surrogateError('/data/attributes/email', 'Email'));
    });

    it('is refused on PATCH /organizations/:name', async () => {
      const res = await admin.api
        .patch(`/api/v2/organizations/${org}`, {
          data: { type: 'organizations', attributes: { email: `a${LONE}@example.com` } },
        })
        .expect(422);
      expect(res.body).toEqual(surrogateError('/data/attributes/email', 'Email'));
    });

    it('is refused on POST /admin/users', async () => {
      const res = await admin.api
        .post('/api/v2/admin/users', {
          data: {
            type: 'users',
            attributes: { username: unique('u'), email: `${LONE}@example.com`, password: 'a-long-password' },
          },
        })
        .expect(422);
      expect(res.body).toEqual(surrogateError('/data/attributes/email', 'Email'));
    });

    it('is refused on POST /admin/initial-admin-user', async () => {
      const res = await request(t.origin)
        .post('/admin/initial-admin-user?token=x')
        .set('Content-Type', 'application/json')
        .send(JSON.stringify({ username: 'root', email: `${LONE}@example.com`, password: 'pw-long-enough' }))
        .expect(422);
      expect(res.headers['content-type']).toBe(JSONAPI);
      expect(res.body).toEqual(surrogateError('/email', 'Email'));
    });

    it('is refused inside a nested attribute, with a pointer to it', async () => {
      const res = await admin.api
        .post(`/api/v2/organizations/${org}/teams`, {
          data: { type: 'teams', attributes: { name: unique('t'), 'organization-access': { [LONE]: true } } },
        })
        .expect(422);
      expect(res.body).toEqual(surrogateError('/data/attributes/organization-access', 'Organization access'));
    });
  });

  describe('null where an attribute has no null', () => {
    it.each(['name', 'email', 'edition'])('PATCH /organizations/:name refuses %s: null', async (attr) => {
      const res = await admin.api
        .patch(`/api/v2/organizations/${org}`, {
          data: { type: 'organizations', attributes: { [attr]: null } },
        })
        .expect(422);
      expect(res.body.errors).toEqual([
        expect.objectContaining({ status: '422', source: { pointer: `/data/attributes/${attr}` } }),
      ]);
    });

    it('PATCH /teams/:id refuses visibility: null', async () => {
      const res = await admin.api
        .patch(`/api/v2/teams/${team}`, { data: { type: 'teams', attributes: { visibility: null } } })
        .expect(422);
      expect(res.body).toEqual(
        errorsOf(422, {
          detail: 'Visibility is not included in the list',
          pointer: '/data/attributes/visibility',
        }),
      );
    });

    it.each(['POST', 'PATCH'])('%s of a team refuses a null organization-access flag', async (method) => {
      const body = {
        data: {
          type: 'teams',
          attributes: { name: unique('t'), 'organization-access': { 'manage-policies': null } },
        },
      };
      const res =
        method === 'POST'
          ? await admin.api.post(`/api/v2/organizations/${org}/teams`, body).expect(422)
          : await admin.api.patch(`/api/v2/teams/${team}`, body).expect(422);
      expect(res.body).toEqual(
        errorsOf(422, {
          detail: 'Organization access manage policies must be a boolean value',
          pointer: '/data/attributes/organization-access/manage-policies',
        }),
      );
    });
  });

  it.each(['POST', 'DELETE'])(
    '%s /teams/:id/relationships/users refuses more members than the documented maximum',
    async (method) => {
      const data = Array.from({ length: 16_384 }, (_, i) => ({ type: 'users', id: `user-${i}` }));
      const path = `/api/v2/teams/${team}/relationships/users`;
      const res =
        method === 'POST'
          ? await admin.api.post(path, { data }).expect(422)
          : await admin.api.delete(path, { data }).expect(422);
      expect(res.body).toEqual(
        errorsOf(422, { detail: 'Data must have at most 1000 resource identifiers', pointer: '/data' }),
      );
    },
  );

  it('accepts a token expiry at the end of year 9999 in UTC', async () => {
    const res = await admin.api
      .post(`/api/v2/users/${admin.userId}/authentication-tokens`, {
        data: { type: 'authentication-tokens', attributes: { 'expired-at': '9999-12-31T23:59:59+01:00' } },
      })
      .expect(201);
    expect(res.body.data.attributes['expired-at']).toBe('9999-12-31T22:59:59.000Z');
  });

  it('answers a request line too long to parse with a JSON:API 431', async () => {
    const res = await send(t.origin, { path: `/api/v2/organizations?q=${'x'.repeat(20_000)}` });
    expect(res.status).toBe(431);
    expect(res.headers['content-type']).toBe(JSONAPI);
    expect(JSON.parse(res.text)).toEqual({
      errors: [
        {
          status: '431',
          title: 'request header fields too large',
          detail: 'the request line and headers are too large',
        },
      ],
    });
  });

  it('answers a request the HTTP parser cannot read with a JSON:API 400', async () => {
    const res = await send(t.origin, { path: '/api/v2/ping', headers: { 'Content-Length': 'x' } });
    expect(res.status).toBe(400);
    expect(JSON.parse(res.text)).toEqual(errorsOf(400, { detail: 'the request could not be parsed' }));
  });

  it('refuses a policy upload sent with a JSON:API content type with 415', async () => {
    const policy = await admin.api
      .post(`/api/v2/organizations/${org}/policies`, {
        data: { type: 'policies', attributes: { name: unique('p'), 'enforcement-level': 'advisory' } },
      })
      .expect(201);
    const res = await request(t.origin)
      .put(`/api/v2/policies/${policy.body.data.id}/upload`)
      .set('Authorization', `Bearer ${admin.token}`)
      .set('Content-Type', JSONAPI)
      .send('main = rule { true }')
      .expect(415);
    expect(res.body).toEqual(
      errorsOf(415, {
        detail:
          'send the policy code as the raw body, e.g. Content-Type: text/plain or application/octet-stream',
      }),
    );
  });
});
