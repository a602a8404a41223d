import request from 'supertest';
import {
  Actor,
  bootstrapAdmin,
  createOrganization,
  createProject,
  createTeam,
  createWorkspace,
  grantWorkspace,
} from '../helpers/fixtures';
import { JSONAPI, startApp, TestApp } from '../helpers/test-app';
import { errorsOf } from '../helpers/shapes';

/** Whatever a client sends, the answer is a JSON:API error document that is not a 5xx. */
describe('bad input on every foundation route', () => {
  let t: TestApp;
  let admin: Actor;
  let org: string;
  let ids: { project: string; workspace: string; wsName: string; team: string; grant: string };

  beforeAll(async () => {
    t = await startApp();
    const iact = (await request(t.origin).get('/admin/retrieve-iact').expect(200)).text;
    for (const raw of ['[]', '[{"username":"a"}]', '"admin"', '42']) {
      const res = await request(t.origin)
        .post(`/admin/initial-admin-user?token=${iact}`)
        .set('Content-Type', 'application/json')
        .send(raw);
      expect([400, 422]).toContain(res.status);
    }
    admin = await bootstrapAdmin(t);
    org = await createOrganization(admin);
    const project = await createProject(admin, org);
    const wsName = 'target';
    const workspace = await createWorkspace(admin, org, wsName, project);
    const team = await createTeam(admin, org);
    await grantWorkspace(admin, team, workspace, 'read');
    const grant = (await admin.api.get(`/api/v2/team-workspaces?filter[workspace][id]=${workspace}`)).body
      .data[0].id as string;
    ids = { project, workspace, wsName, team, grant };
  });
  afterAll(() => t.close());

  it('refuses an initial admin body that is not a JSON object with 400', async () => {
    const iactGone = await request(t.origin)
      .post('/admin/initial-admin-user?token=x')
      .set('Content-Type', 'application/json')
      .send('[]')
      .expect(400);
    expect(iactGone.body).toEqual(
      errorsOf(400, { detail: 'request body must be a JSON object with username, email and password' }),
    );
  });

  const ISO = 'Expired at must be an ISO 8601 timestamp';
  const YEAR_9999 = 'Expired at must be no later than 9999-12-31T23:59:59Z';
  it.each([
    ...['2030-W05', '2030-123', '2030-01-01', '2030-01-01T10:00', 'tomorrow', '+002030-01-01T00:00:00Z'].map(
      (v) => [v, ISO],
    ),
    // Valid local times that fall past year 9999 in UTC (once a 500 on MariaDB and year 0000 on SQLite).
    ['9999-12-31T23:59:59-01:00', YEAR_9999],
    ['9999-12-31T23:30:00-00:31', YEAR_9999],
  ])('refuses the token expiry %s with a 422', async (expiredAt, detail) => {
    const res = await admin.api
      .post(`/api/v2/users/${admin.userId}/authentication-tokens`, {
        data: { type: 'authentication-tokens', attributes: { 'expired-at': expiredAt } },
      })
      .expect(422);
    expect(res.body).toEqual(errorsOf(422, { detail, pointer: '/data/attributes/expired-at' }));
  });

  it('finds organizations and workspaces by their exact names only, on every database', async () => {
    await admin.api.get(`/api/v2/organizations/${org.toUpperCase()}`).expect(404);
    await admin.api.get(`/api/v2/organizations/${org}/workspaces/${ids.wsName.toUpperCase()}`).expect(404);
    await admin.api.get(`/api/v2/organizations/${org}/workspaces/${ids.wsName}`).expect(200);
  });

  const BODIES: [string, string][] = [
    ['an array', '[]'],
    ['a document whose data is a string', '{"data":"x"}'],
    ['a document whose data is an array of junk', '{"data":[1,"a",null]}'],
    ['numbers where objects belong', '{"data":{"type":7,"attributes":7,"relationships":7}}'],
    [
      'objects where strings belong',
      '{"data":{"type":{},"attributes":{"name":{},"email":[],"access":{},"description":{}}}}',
    ],
    ['nulls everywhere', '{"data":{"type":null,"attributes":{"name":null,"email":null,"access":null}}}'],
    [
      'relationships of the wrong shape',
      '{"data":{"attributes":{},"relationships":{"project":[],"team":{"data":5},"workspace":{"data":[{}]}}}}',
    ],
    [
      'a huge attribute',
      JSON.stringify({
        data: { attributes: { name: 'n'.repeat(100_000), description: 'd'.repeat(100_000) } },
      }),
    ],
    [
      'control characters and emoji',
      JSON.stringify({ data: { attributes: { name: '\u0000😀\u202e', email: '😀@😀' } } }),
    ],
  ];

  const WRITES: [string, () => string][] = [
    ['POST', () => '/api/v2/organizations'],
    ['PATCH', () => `/api/v2/organizations/${org}`],
    ['POST', () => `/api/v2/organizations/${org}/projects`],
    ['PATCH', () => `/api/v2/projects/${ids.project}`],
    ['POST', () => `/api/v2/organizations/${org}/workspaces`],
    ['PATCH', () => `/api/v2/organizations/${org}/workspaces/${ids.wsName}`],
    ['PATCH', () => `/api/v2/workspaces/${ids.workspace}`],
    ['POST', () => `/api/v2/organizations/${org}/teams`],
    ['PATCH', () => `/api/v2/teams/${ids.team}`],
    ['POST', () => `/api/v2/teams/${ids.team}/relationships/users`],
    ['DELETE', () => `/api/v2/teams/${ids.team}/relationships/users`],
    ['POST', () => '/api/v2/team-workspaces'],
    ['PATCH', () => `/api/v2/team-workspaces/${ids.grant}`],
    ['POST', () => `/api/v2/users/${admin.userId}/authentication-tokens`],
    ['POST', () => `/api/v2/admin/users/${admin.userId}/authentication-tokens`],
    ['POST', () => `/api/v2/teams/${ids.team}/authentication-token`],
    ['POST', () => `/api/v2/organizations/${org}/authentication-token`],
    ['POST', () => '/api/v2/admin/users'],
  ];

  /**
   * Token creates take no attribute they require and accept an absent, empty or null `data.type`
   * (the official clients send `{"data":{"type":""}}`), and read no relationship: a body whose only
   * faults were its type and members they never read is a valid create there.
   */
  const TOKEN_CREATES = /\/authentication-tokens?$/;
  const untyped = (raw: string): boolean => {
    try {
      const data = (JSON.parse(raw) as { data?: { type?: unknown } } | null)?.data;
      return (
        typeof data === 'object' && data !== null && !Array.isArray(data) && typeof data.type !== 'string'
      );
    } catch {
      return false;
    }
  };

  it.each(WRITES)('%s %s answers every malformed body with a 4xx JSON:API error', async (method, path) => {
    for (const [what, raw] of BODIES) {
      if (TOKEN_CREATES.test(path()) && untyped(raw)) {
        const created = await request(t.origin)
          .post(path())
          .set('Authorization', `Bearer ${admin.token}`)
          .set('Content-Type', JSONAPI)
          .send(raw);
        // Either a token, or the same JSON:API refusal as anywhere else.
        expect({ what, answered: [201, 400, 413, 422].includes(created.status) }).toEqual({
          what,
          answered: true,
        });
        if (created.status === 201) expect(created.body.data.type).toBe('authentication-tokens');
        else expect(created.body.errors[0]).toMatchObject({ status: String(created.status) });
        continue;
      }
      const req = request(t.origin)
        [method.toLowerCase() as 'post' | 'patch' | 'delete'](path())
        .set('Authorization', `Bearer ${admin.token}`)
        .set('Content-Type', JSONAPI)
        .send(raw);
      const res = await req;
      expect({ what, refused: [400, 404, 413, 422].includes(res.status) }).toEqual({ what, refused: true });
      expect(res.headers['content-type']).toContain(JSONAPI);
      expect(res.body.errors.length).toBeGreaterThan(0);
      for (const e of res.body.errors) expect(e).toMatchObject({ status: String(res.status) });
    }
  });

  const READS: (() => string)[] = [
    () => `/api/v2/organizations/${'o'.repeat(3000)}`,
    () => '/api/v2/organizations/%00',
    () => '/api/v2/organizations/%F0%9F%98%80/workspaces',
    () => `/api/v2/organizations/${org}/workspaces/%E2%80%AE`,
    () => `/api/v2/workspaces/${'w'.repeat(3000)}`,
    () => '/api/v2/projects/prj-%27%20OR%201=1',
    () => '/api/v2/teams/%25',
    () => '/api/v2/team-workspaces/_',
    () => `/api/v2/team-workspaces?filter[workspace][id]=${'x'.repeat(3000)}`,
    () => '/api/v2/authentication-tokens/..%2F..',
    () => `/api/v2/users/${'u'.repeat(500)}`,
    () => `/api/v2/users/${'u'.repeat(500)}/authentication-tokens`,
  ];

  it.each(READS.map((p, i) => [i, p] as const))('read #%i of odd ids answers 404', async (_, path) => {
    const res = await admin.api.get(path()).expect(404);
    expect(res.body).toEqual(errorsOf(404));
  });

  it('treats LIKE wildcards in searches as plain characters', async () => {
    for (const term of ['%', '_', '!', "'", '\\', '%25']) {
      const res = await admin.api
        .get(`/api/v2/organizations/${org}/workspaces?search[name]=${encodeURIComponent(term)}`)
        .expect(200);
      expect(res.body.data).toEqual([]);
    }
  });
});
