import request from 'supertest';
import { Actor, bootstrapAdmin, idOf, ISO_MILLIS, unique } from '../helpers/fixtures';
import { MINIMAL_POLICY_ARCHIVE } from '../helpers/tarball';
import { startApp, TestApp } from '../helpers/test-app';
import { goTfe } from './go-tfe-requests';

jest.setTimeout(60_000);

/**
 * The real service's names, sent as its official Go client sends them (go-tfe-requests.ts), are
 * accepted beside the contract's, and the answers carry what that client decodes.
 */
describe('the real service names, as its official client sends them', () => {
  let t: TestApp;
  let admin: Actor;
  let org: string;

  beforeAll(async () => {
    t = await startApp();
    admin = await bootstrapAdmin(t);
    org = unique('gotfe');
    await admin.api.post('/api/v2/organizations', goTfe.organizationCreate(org)).expect(201);
  });
  afterAll(() => t.close());

  describe('ping', () => {
    it('presents as a self-hosted install, so the client turns its admin APIs on', async () => {
      const res = await request(t.origin).get('/api/v2/ping').expect(204);
      expect(res.headers['tfp-api-version']).toBe('2.6');
      expect(res.headers['tfp-appname']).toBe('Plinth');
      expect(res.headers['tfp-appname']).not.toBe('HCP Terraform');
      expect(res.headers['x-tfe-version']).toBeUndefined();
    });
  });

  describe('organizations', () => {
    it('carry the default-project relationship, and include=default-project links it', async () => {
      const shown = await admin.api.get(`/api/v2/organizations/${org}`).expect(200);
      const linkage = shown.body.data.relationships['default-project'].data;
      expect(linkage).toEqual({ id: expect.stringMatching(idOf('prj')), type: 'projects' });
      expect(shown.body.included).toBeUndefined();
      for (const include of ['default-project', 'default_project']) {
        const res = await admin.api.get(`/api/v2/organizations/${org}?include=${include}`).expect(200);
        expect(res.body.included).toEqual([
          expect.objectContaining({
            id: linkage.id,
            type: 'projects',
            attributes: expect.objectContaining({ name: 'Default Project' }),
          }),
        ]);
      }
      const listed = await admin.api.get('/api/v2/organizations?include=default-project').expect(200);
      const row = listed.body.data.find((o: { id: string }) => o.id === org);
      expect(row.relationships['default-project'].data).toEqual(linkage);
      expect(listed.body.included).toEqual(
        expect.arrayContaining([expect.objectContaining({ id: linkage.id })]),
      );
    });
  });

  describe.each([
    {
      route: 'terraform-versions',
      catalog: 'engine-versions',
      create: goTfe.terraformVersionCreate,
      update: goTfe.terraformVersionUpdate,
    },
    {
      route: 'opa-versions',
      catalog: 'policy-engine-versions',
      create: goTfe.opaVersionCreate,
      update: goTfe.opaVersionUpdate,
    },
  ])('/admin/$route', ({ route, catalog, create, update }) => {
    it(`serves the ${catalog} catalog with the type ${route} in requests and answers`, async () => {
      const version = route === 'terraform-versions' ? '1.9.8' : '0.61.0';
      const created = await admin.api.post(`/api/v2/admin/${route}`, create(version)).expect(201);
      const id = created.body.data.id;
      expect(created.body.data).toEqual({
        id: expect.stringMatching(idOf('tool')),
        type: route,
        attributes: {
          version,
          url: create(version).data.attributes.url,
          sha: create(version).data.attributes.sha,
          deprecated: false,
          'deprecated-reason': null,
          official: true,
          enabled: true,
          beta: false,
          usage: 0,
          'created-at': expect.stringMatching(ISO_MILLIS),
        },
        links: { self: `/api/v2/admin/${route}/${id}` },
      });
      const updated = await admin.api.patch(`/api/v2/admin/${route}/${id}`, update()).expect(200);
      expect(updated.body.data.type).toBe(route);
      const listed = await admin.api.get(`/api/v2/admin/${route}?filter%5Bversion%5D=${version}`).expect(200);
      expect(listed.body.data.map((v: { id: string; type: string }) => [v.id, v.type])).toEqual([
        [id, route],
      ]);
      // One catalog: the contract's route shows the same entry under the contract's type.
      const same = await admin.api.get(`/api/v2/admin/${catalog}/${id}`).expect(200);
      expect(same.body.data).toEqual({
        ...updated.body.data,
        type: catalog,
        links: { self: `/api/v2/admin/${catalog}/${id}` },
      });
      await admin.api.get(`/api/v2/admin/${route}/${id}`).expect(200);
    });
  });

  describe('workspaces', () => {
    it('pin with terraform-version on create and update, and show it beside engine-version', async () => {
      await admin.api
        .post('/api/v2/admin/terraform-versions', goTfe.terraformVersionCreate('1.8.0'))
        .expect(201);
      const name = unique('app');
      const created = await admin.api
        .post(`/api/v2/organizations/${org}/workspaces`, goTfe.workspaceCreate(name, '1.8.0'))
        .expect(201);
      expect(created.body.data.attributes).toMatchObject({
        'engine-version': '1.8.0',
        'terraform-version': '1.8.0',
      });
      const id = created.body.data.id;
      await admin.api
        .post('/api/v2/admin/terraform-versions', goTfe.terraformVersionCreate('1.8.1'))
        .expect(201);
      const updated = await admin.api
        .patch(`/api/v2/workspaces/${id}`, goTfe.workspaceUpdate('1.8.1'))
        .expect(200);
      expect(updated.body.data.attributes).toMatchObject({
        description: 'pinned',
        'engine-version': '1.8.1',
        'terraform-version': '1.8.1',
      });
      const shown = await admin.api.get(`/api/v2/organizations/${org}/workspaces/${name}`).expect(200);
      expect(shown.body.data.attributes['terraform-version']).toBe('1.8.1');
    });

    it('refuse a terraform-version outside the catalog, pointing at terraform-version', async () => {
      const res = await admin.api
        .post(`/api/v2/organizations/${org}/workspaces`, goTfe.workspaceCreate(unique('ws'), '0.0.1'))
        .expect(422);
      expect(res.body.errors).toEqual([
        expect.objectContaining({ source: { pointer: '/data/attributes/terraform-version' } }),
      ]);
    });

    it('refuse terraform-version and engine-version that disagree', async () => {
      const res = await admin.api
        .post(`/api/v2/organizations/${org}/workspaces`, {
          data: {
            type: 'workspaces',
            attributes: { name: unique('ws'), 'engine-version': 'latest', 'terraform-version': '1.8.0' },
          },
        })
        .expect(422);
      expect(res.body.errors).toEqual([
        {
          status: '422',
          title: 'invalid attribute',
          detail: 'Terraform version must equal engine-version when both are given',
          source: { pointer: '/data/attributes/terraform-version' },
        },
      ]);
    });
  });

  describe('policies', () => {
    it('accept the kinds sentinel and opa, answering the contract names, and filter by them', async () => {
      const s = await admin.api
        .post(`/api/v2/organizations/${org}/policies`, goTfe.sentinelPolicyCreate('s-pol'))
        .expect(201);
      expect(s.body.data.attributes).toMatchObject({
        kind: 'framework_a',
        'enforcement-level': 'soft-mandatory',
      });
      const o = await admin.api
        .post(`/api/v2/organizations/${org}/policies`, goTfe.opaPolicyCreate('o-pol'))
        .expect(201);
      expect(o.body.data.attributes).toMatchObject({
        kind: 'framework_b',
        'enforcement-level': 'mandatory',
        query: 'data.terraform.deny',
        enforce: [{ path: 'o-pol.rego', mode: 'mandatory' }],
      });
      const names = async (kind: string) =>
        (
          await admin.api.get(`/api/v2/organizations/${org}/policies?filter%5Bkind%5D=${kind}`).expect(200)
        ).body.data
          .map((p: { attributes: { name: string } }) => p.attributes.name)
          .sort();
      expect(await names('opa')).toEqual(['o-pol']);
      expect(await names('opa')).toEqual(await names('framework_b'));
      expect(await names('sentinel')).toEqual(await names('framework_a'));
      expect(await names('sentinel')).toContain('s-pol');
    });

    it('take the level from the legacy enforce when enforcement-level is absent, and return both', async () => {
      const created = await admin.api
        .post(`/api/v2/organizations/${org}/policies`, goTfe.legacyPolicyCreate('legacy'))
        .expect(201);
      expect(created.body.data.attributes).toMatchObject({
        kind: 'framework_a',
        'enforcement-level': 'hard-mandatory',
        enforce: [{ path: 'legacy.sentinel', mode: 'hard-mandatory' }],
      });
      const updated = await admin.api
        .patch(`/api/v2/policies/${created.body.data.id}`, goTfe.legacyPolicyUpdate('legacy'))
        .expect(200);
      expect(updated.body.data.attributes).toMatchObject({
        'enforcement-level': 'advisory',
        enforce: [{ path: 'legacy.sentinel', mode: 'advisory' }],
      });
    });

    it('refuse a legacy enforce mode of the other framework, pointing at enforce', async () => {
      const name = unique('bad');
      const body = goTfe.legacyPolicyCreate(name);
      body.data.attributes.enforce = [{ path: `${name}.sentinel`, mode: 'mandatory' }];
      const res = await admin.api.post(`/api/v2/organizations/${org}/policies`, body).expect(422);
      expect(res.body.errors).toEqual([
        {
          status: '422',
          title: 'invalid attribute',
          detail:
            'Enforce is not included in the list for framework_a: advisory, soft-mandatory, hard-mandatory',
          source: { pointer: '/data/attributes/enforce' },
        },
      ]);
    });
  });

  describe('policy sets and their versions', () => {
    it('accept sentinel and opa kinds and filters; API versions show source tfe-api', async () => {
      const s = await admin.api
        .post(`/api/v2/organizations/${org}/policy-sets`, goTfe.sentinelPolicySetCreate('s-set'))
        .expect(201);
      expect(s.body.data.attributes.kind).toBe('framework_a');
      const o = await admin.api
        .post(`/api/v2/organizations/${org}/policy-sets`, goTfe.opaPolicySetCreate('o-set'))
        .expect(201);
      expect(o.body.data.attributes).toMatchObject({ kind: 'framework_b', overridable: true });
      const listed = await admin.api
        .get(`/api/v2/organizations/${org}/policy-sets?filter%5Bkind%5D=opa`)
        .expect(200);
      expect(listed.body.data.map((x: { id: string }) => x.id)).toEqual([o.body.data.id]);

      const version = await admin.api.post(`/api/v2/policy-sets/${s.body.data.id}/versions`).expect(201);
      expect(version.body.data.attributes.source).toBe('tfe-api');
      await request(t.origin)
        .put(new URL(version.body.data.links.upload).pathname)
        .send(MINIMAL_POLICY_ARCHIVE)
        .expect(200);
      for (const include of ['newest_version,current_version', 'newest-version,current-version']) {
        const res = await admin.api
          .get(`/api/v2/policy-sets/${s.body.data.id}?include=${include}`)
          .expect(200);
        expect(res.body.data.relationships['newest-version'].data).toEqual({
          id: version.body.data.id,
          type: 'policy-set-versions',
        });
        expect(res.body.included).toEqual([
          expect.objectContaining({
            id: version.body.data.id,
            attributes: expect.objectContaining({ source: 'tfe-api', status: 'ready' }),
          }),
        ]);
      }
    });
  });

  describe('registry providers', () => {
    it('name the relationship to their versions registry-provider-versions, which include links', async () => {
      const name = unique('thing');
      await admin.api
        .post(`/api/v2/organizations/${org}/registry-providers`, goTfe.registryProviderCreate(org, name))
        .expect(201);
      const base = `/api/v2/organizations/${org}/registry-providers/private/${org}/${name}`;
      const v = await admin.api
        .post(`${base}/versions`, goTfe.registryProviderVersionCreate('1.0.0'))
        .expect(201);
      const shown = await admin.api.get(`${base}?include=registry-provider-versions`).expect(200);
      expect(shown.body.data.relationships).toEqual({
        organization: { data: { id: org, type: 'organizations' } },
        'registry-provider-versions': {
          data: [{ id: v.body.data.id, type: 'registry-provider-versions' }],
          links: { related: `${base}/versions` },
        },
      });
      expect(shown.body.included.map((x: { id: string; type: string }) => [x.id, x.type])).toEqual([
        [v.body.data.id, 'registry-provider-versions'],
      ]);
      const listed = await admin.api
        .get(`/api/v2/organizations/${org}/registry-providers?include=registry-provider-versions`)
        .expect(200);
      expect(listed.body.data[0].relationships['registry-provider-versions'].data).toEqual([
        { id: v.body.data.id, type: 'registry-provider-versions' },
      ]);
      expect(listed.body.included.map((x: { id: string }) => x.id)).toEqual([v.body.data.id]);
    });
  });
});
