import request from 'supertest';
import {
  Actor,
  bootstrapAdmin,
  createOrganization,
  createOrganizationToken,
  createTeam,
  createTeamToken,
  createUser,
} from '../helpers/fixtures';
import { Client, startApp, TestApp } from '../helpers/test-app';
import {
  CATALOGS,
  CatalogName,
  createCatalogVersion,
  downloadUrl,
  sha,
  versionBody,
} from './catalog-helpers';

const NOT_FOUND = { errors: [{ status: '404', title: 'not found' }] };

/** Every route of a catalog, as the given client calls it. */
function routes(catalog: CatalogName, id: string) {
  const path = `/api/v2/admin/${catalog}`;
  const body = versionBody(catalog, { version: '5.5.5', url: downloadUrl('5.5.5'), sha: sha() });
  return [
    ['list', (api: Client) => api.get(path)],
    ['create', (api: Client) => api.post(path, body)],
    ['create with an invalid body', (api: Client) => api.post(path, versionBody(catalog, {}))],
    ['show', (api: Client) => api.get(`${path}/${id}`)],
    ['update', (api: Client) => api.patch(`${path}/${id}`, versionBody(catalog, { beta: true }))],
    ['delete', (api: Client) => api.delete(`${path}/${id}`)],
  ] as const;
}

describe('who may use the administrator catalogs on a self-hosted installation', () => {
  let t: TestApp;
  let admin: Actor;
  const callers: Record<string, Actor> = {};
  const ids: Partial<Record<CatalogName, string>> = {};

  beforeAll(async () => {
    t = await startApp();
    admin = await bootstrapAdmin(t);
    const owner = await createUser(t, admin);
    const org = await createOrganization(owner);
    const teamId = await createTeam(owner, org, [
      'manage-policies',
      'manage-workspaces',
      'manage-projects',
      'manage-providers',
    ]);
    callers['an organization owner'] = owner;
    callers['a user with no organization'] = await createUser(t, admin);
    callers['an organization token'] = await createOrganizationToken(t, owner, org);
    callers['a team token with every flag'] = await createTeamToken(t, owner, teamId);
    for (const catalog of CATALOGS) ids[catalog] = await createCatalogVersion(admin, catalog, '1.0.0');
  });
  afterAll(() => t.close());

  describe.each(CATALOGS)('%s', (catalog) => {
    it.each([
      'an organization owner',
      'a user with no organization',
      'an organization token',
      'a team token with every flag',
    ])('answers 404 to %s on every route and changes nothing', async (who) => {
      for (const [route, call] of routes(catalog, ids[catalog]!)) {
        const res = await call(callers[who].api);
        expect({ route, status: res.status, body: res.body }).toEqual({
          route,
          status: 404,
          body: NOT_FOUND,
        });
        expect(res.headers['content-type']).toMatch(/^application\/vnd\.api\+json/);
      }
      const list = await admin.api.get(`/api/v2/admin/${catalog}`).expect(200);
      expect(list.body.data).toEqual([
        expect.objectContaining({
          id: ids[catalog],
          attributes: expect.objectContaining({ version: '1.0.0', beta: false }),
        }),
      ]);
    });

    it('answers 401 without a token', async () => {
      const res = await request(t.origin).get(`/api/v2/admin/${catalog}`).expect(401);
      expect(res.body).toEqual({ errors: [{ status: '401', title: 'unauthorized' }] });
    });
  });
  it('lists both catalogs in the OpenAPI document', async () => {
    const doc = (await request(t.origin).get('/docs-json').expect(200)).body as { paths: object };
    for (const catalog of CATALOGS) {
      expect(Object.keys(doc.paths)).toEqual(
        expect.arrayContaining([`/api/v2/admin/${catalog}`, `/api/v2/admin/${catalog}/{id}`]),
      );
    }
  });
});

describe('the administrator catalogs on a cloud installation', () => {
  let t: TestApp;
  let admin: Actor;

  beforeAll(async () => {
    t = await startApp({ DEPLOYMENT: 'cloud' });
    admin = await bootstrapAdmin(t);
  });
  afterAll(() => t.close());

  it.each(CATALOGS)(
    'do not exist: %s answers 404 to the site administrator on every route',
    async (catalog) => {
      for (const [route, call] of routes(catalog, 'tool-0000000000000000')) {
        const res = await call(admin.api);
        expect({ route, status: res.status, body: res.body }).toEqual({
          route,
          status: 404,
          body: NOT_FOUND,
        });
        expect(res.headers['content-type']).toMatch(/^application\/vnd\.api\+json/);
      }
    },
  );

  it.each(CATALOGS)(
    'do not exist: %s answers 404 even without a token, like an unknown path',
    async (catalog) => {
      const res = await request(t.origin).get(`/api/v2/admin/${catalog}`).expect(404);
      expect(res.body).toEqual(NOT_FOUND);
      const unknown = await request(t.origin).get('/api/v2/admin/no-such-catalog').expect(404);
      expect(unknown.body).toEqual(NOT_FOUND);
    },
  );

  it('leaves the catalogs out of the OpenAPI document, and keeps the rest', async () => {
    const doc = (await request(t.origin).get('/docs-json').expect(200)).body as { paths: object };
    const paths = Object.keys(doc.paths);
    expect(paths.filter((p) => /engine-versions/.test(p))).toEqual([]);
    expect(paths).toContain('/api/v2/organizations/{org}/policy-sets');
  });

  it('still serves the rest of the API to the administrator', async () => {
    await admin.api.get('/api/v2/account/details').expect(200);
  });
});
