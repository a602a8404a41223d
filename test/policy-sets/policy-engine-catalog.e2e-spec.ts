import { createCatalogVersion } from '../admin-catalogs/catalog-helpers';
import { Actor, bootstrapAdmin, createOrganization, unique } from '../helpers/fixtures';
import { startApp, TestApp } from '../helpers/test-app';

describe('framework_b policy sets and the policy-engine catalog', () => {
  let t: TestApp;
  let admin: Actor;
  let org: string;
  let enabledId: string;

  beforeAll(async () => {
    t = await startApp();
    admin = await bootstrapAdmin(t);
    org = await createOrganization(admin);
    enabledId = await createCatalogVersion(admin, 'policy-engine-versions', '0.70.0');
    await createCatalogVersion(admin, 'policy-engine-versions', '0.69.0', { enabled: false });
  });
  afterAll(() => t.close());

  const createSet = (version: string) =>
    admin.api.post(`/api/v2/organizations/${org}/policy-sets`, {
      data: {
        type: 'policy-sets',
        attributes: { name: unique('opa'), kind: 'framework_b', 'policy-tool-version': version },
      },
    });

  it('refuses a version the catalog does not have', async () => {
    const res = await createSet('0.1.2').expect(422);
    expect(res.body.errors).toEqual([
      {
        status: '422',
        title: 'invalid attribute',
        detail: expect.stringMatching(
          /^Policy tool version 0\.1\.2 is not in the policy engine versions catalog/,
        ),
        source: { pointer: '/data/attributes/policy-tool-version' },
      },
    ]);
  });

  it('refuses a disabled catalog version', async () => {
    const res = await createSet('0.69.0').expect(422);
    expect(res.body.errors[0].detail).toMatch(/disabled; a disabled version cannot be newly pinned/);
  });

  it('counts pinning sets in the catalog usage and guards the version against deletion until unpinned', async () => {
    const set = await createSet('0.70.0').expect(201);
    expect(set.body.data.attributes['policy-tool-version']).toBe('0.70.0');

    const shown = await admin.api.get(`/api/v2/admin/policy-engine-versions/${enabledId}`).expect(200);
    expect(shown.body.data.attributes.usage).toBe(1);

    const refused = await admin.api.delete(`/api/v2/admin/policy-engine-versions/${enabledId}`).expect(422);
    expect(refused.body.errors[0].detail).toBe(
      'Version 0.70.0 is used by 1 policy set and cannot be deleted',
    );

    await admin.api
      .patch(`/api/v2/policy-sets/${set.body.data.id}`, {
        data: { type: 'policy-sets', attributes: { 'policy-tool-version': 'latest' } },
      })
      .expect(200);
    const after = await admin.api.get(`/api/v2/admin/policy-engine-versions/${enabledId}`).expect(200);
    expect(after.body.data.attributes.usage).toBe(0);
    await admin.api.delete(`/api/v2/admin/policy-engine-versions/${enabledId}`).expect(204);
  });
});
