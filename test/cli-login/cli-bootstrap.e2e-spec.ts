import request from 'supertest';
import { ResponseCache } from '../../src/http/response-cache';
import { createUser, idOf, OwnedOrganization, startWithOwnedOrganization } from '../helpers/fixtures';
import { organizationShape } from '../helpers/shapes';

/** What the CLI reads before any workspace call: the version headers and the entitlement set. */
describe('what the CLI reads at start-up', () => {
  let s: OwnedOrganization;

  beforeAll(async () => {
    s = await startWithOwnedOrganization();
  });
  afterAll(() => s.t.close());

  function expectVersionHeaders(res: { headers: Record<string, string | string[] | undefined> }): void {
    expect(res.headers['tfp-api-version']).toBe('2.6');
    expect(Number(res.headers['tfp-api-version'])).toBeGreaterThanOrEqual(2.5);
    expect(res.headers['tfp-appname']).toBe('Plinth');
    expect(res.headers['x-tfe-version']).toBeUndefined();
  }

  it('every answer carries TFP-API-Version and TFP-AppName, and no X-TFE-Version', async () => {
    const t = s.t;
    expectVersionHeaders(await request(t.origin).get('/api/v2/ping').expect(204));
    expectVersionHeaders(await request(t.origin).get('/.well-known/terraform.json').expect(200));
    expectVersionHeaders(await request(t.origin).get(`/api/v2/organizations/${s.org}`).expect(401));
    expectVersionHeaders(await s.owner.api.get('/api/v2/organizations/no-such-org').expect(404));
    expectVersionHeaders(await s.owner.api.get('/api/v2/organizations?page%5Bsize%5D=0').expect(422));
    expectVersionHeaders(await request(t.origin).get('/app/oauth/authorize').expect(400));
    expectVersionHeaders(
      await s.owner.api.post('/api/v2/organizations', { data: { type: 'organizations' } }).expect(422),
    );
  });

  it('answers given from the response cache carry them too', async () => {
    const cache = s.t.app.get(ResponseCache);
    const get = cache.get.bind(cache);
    let hits = 0;
    cache.get = (key) => {
      const hit = get(key);
      if (hit) hits += 1;
      return hit;
    };
    try {
      const path = `/api/v2/organizations/${s.org}/entitlement-set`;
      const first = await s.owner.api.get(path).expect(200);
      const second = await s.owner.api.get(path).expect(200);
      expect(hits).toBe(1);
      expect(second.body).toEqual(first.body);
      expectVersionHeaders(first);
      expectVersionHeaders(second);
    } finally {
      cache.get = get;
    }
  });

  it('the entitlement set says which features Plinth has, to any member', async () => {
    const res = await s.owner.api.get(`/api/v2/organizations/${s.org}/entitlement-set`).expect(200);
    expect(res.headers['content-type']).toBe('application/vnd.api+json');
    const org = await s.owner.api.get(`/api/v2/organizations/${s.org}`).expect(200);
    expect(res.body).toEqual({
      data: {
        id: org.body.data.attributes['external-id'],
        type: 'entitlement-sets',
        attributes: {
          agents: true,
          'audit-logging': true,
          'configuration-designer': false,
          'cost-estimation': false,
          'global-run-tasks': false,
          'module-tests-generation': false,
          operations: true,
          'private-module-registry': true,
          'private-policy-agents': false,
          'private-run-tasks': false,
          'private-vcs': false,
          'run-tasks': false,
          sentinel: true,
          sso: false,
          'state-storage': true,
          teams: true,
          'vcs-integrations': false,
          'waypoint-actions': false,
          'waypoint-templates-and-addons': false,
        },
        links: { self: `/api/v2/organizations/${s.org}/entitlement-set` },
      },
    });
    expect(res.body.data.id).toMatch(idOf('org'));
  });

  it('the organization links its entitlement set, and the link leads to it', async () => {
    const org = await s.owner.api.get(`/api/v2/organizations/${s.org}`).expect(200);
    expect(org.body.data).toEqual(organizationShape(s.org, { owner: true }));
    const rel = org.body.data.relationships['entitlement-set'];
    expect(rel.data.id).toBe(org.body.data.attributes['external-id']);
    const followed = await s.owner.api.get(rel.links.related).expect(200);
    expect(followed.body.data.id).toBe(rel.data.id);
  });

  it('sparse fieldsets apply to it', async () => {
    const res = await s.owner.api
      .get(
        `/api/v2/organizations/${s.org}/entitlement-set?fields%5Bentitlement-sets%5D=operations,state-storage`,
      )
      .expect(200);
    expect(res.body.data.attributes).toEqual({ operations: true, 'state-storage': true });
  });

  it('is hidden from non-members (404) and refused without a token (401)', async () => {
    const stranger = await createUser(s.t, s.admin);
    const path = `/api/v2/organizations/${s.org}/entitlement-set`;
    const hidden = await stranger.api.get(path).expect(404);
    expect(hidden.body).toEqual({ errors: [{ status: '404', title: 'not found' }] });
    await request(s.t.origin).get(path).expect(401);
    await s.owner.api.get('/api/v2/organizations/no-such-org/entitlement-set').expect(404);
  });
});
