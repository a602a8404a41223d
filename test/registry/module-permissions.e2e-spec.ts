import {
  Actor,
  createOrganization,
  createUser,
  memberWith,
  unique,
  startWithOwnedOrganization,
} from '../helpers/fixtures';
import { TestApp } from '../helpers/test-app';
import { createModule, createModuleVersion, moduleBase, moduleProvider, modulesPath } from './module-helpers';

const UPLOAD_LINK = /^http:\/\/127\.0\.0\.1:\d+\/uploads\/[\w-]+\.[\w-]+$/;

describe('registry modules: who may do what, and /docs', () => {
  let t: TestApp;
  let admin: Actor;
  let owner: Actor;
  let org: string;

  beforeAll(async () => {
    ({ t, admin, owner, org } = await startWithOwnedOrganization());
  });
  afterAll(() => t.close());

  const body = (attributes: Record<string, unknown>, type: unknown = 'registry-modules') => ({
    data: { type, attributes },
  });

  it('documents every module route in /docs-json with its success answer', async () => {
    const doc = (await owner.api.get('/docs-json').expect(200)).body as {
      paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
    };
    const mod = '/api/v2/organizations/{org}/registry-modules/{registry_name}/{namespace}/{name}';
    for (const [method, path, status] of [
      ['get', '/api/v2/organizations/{org}/registry-modules', 200],
      ['post', '/api/v2/organizations/{org}/registry-modules', 201],
      ['get', `${mod}/{provider}`, 200],
      ['delete', `${mod}/{provider}`, 204],
      ['delete', mod, 204],
      ['post', `${mod}/{provider}/versions`, 201],
      ['post', '/api/v2/registry-modules/{org}/{name}/{provider}/versions', 201],
      ['get', `${mod}/{provider}/version`, 200],
      ['delete', `${mod}/{provider}/{version}`, 204],
      ['get', '/api/registry/v1/modules/{namespace}/{name}/{provider}/versions', 200],
      ['get', '/api/registry/v1/modules/{namespace}/{name}/{provider}/{version}/download', 204],
    ] as const) {
      expect([method, path, Object.keys(doc.paths[path]?.[method]?.responses ?? {})]).toEqual([
        method,
        path,
        expect.arrayContaining([String(status), '404']),
      ]);
    }
  });

  describe('permissions', () => {
    it('lets members read (can-delete false, no upload link) but not write; a manage-providers team writes', async () => {
      const name = unique('perm');
      const provider = moduleProvider();
      await createModule(owner, org, name, provider);
      const base = moduleBase(org, name, provider);
      await createModuleVersion(owner, base, '1.0.0');
      const reader = await memberWith(t, admin, owner, org);
      const shown = await reader.api.get(base).expect(200);
      expect(shown.body.data.attributes.permissions['can-delete']).toBe(false);
      const version = await reader.api.get(`${base}/version?module_version=1.0.0`).expect(200);
      expect(version.body.data.links.upload).toBeUndefined();
      await reader.api.get(modulesPath(org)).expect(200);
      await reader.api.post(modulesPath(org), body({ name: unique('no'), provider: 'aws' })).expect(404);
      await reader.api
        .post(`${base}/versions`, {
          data: { type: 'registry-module-versions', attributes: { version: '2.0.0' } },
        })
        .expect(404);
      await reader.api.delete(`${base}/1.0.0`).expect(404);
      await reader.api.delete(base).expect(404);
      await reader.api.delete(`${modulesPath(org)}/private/${org}/${name}`).expect(404);

      const publisher = await memberWith(t, admin, owner, org, ['manage-providers']);
      const created = await publisher.api
        .post(`${base}/versions`, {
          data: { type: 'registry-module-versions', attributes: { version: '2.0.0' } },
        })
        .expect(201);
      expect(created.body.data.links.upload).toMatch(UPLOAD_LINK);
      await publisher.api.post(modulesPath(org), body({ name: unique('pub'), provider: 'aws' })).expect(201);
    });

    it('answers 404 to every route for a caller of another organization', async () => {
      const name = unique('secret');
      const provider = moduleProvider();
      await createModule(owner, org, name, provider);
      const base = moduleBase(org, name, provider);
      await createModuleVersion(owner, base, '1.0.0');
      const stranger = await createUser(t, admin);
      await createOrganization(stranger);
      const v = { data: { type: 'registry-module-versions', attributes: { version: '2.0.0' } } };
      for (const res of [
        await stranger.api.get(modulesPath(org)),
        await stranger.api.post(modulesPath(org), body({ name: unique('x'), provider: 'aws' })),
        await stranger.api.get(base),
        await stranger.api.get(`${base}/version?module_version=1.0.0`),
        await stranger.api.post(`${base}/versions`, v),
        await stranger.api.post(`/api/v2/registry-modules/${org}/${name}/${provider}/versions`, v),
        await stranger.api.delete(`${base}/1.0.0`),
        await stranger.api.delete(base),
        await stranger.api.delete(`${modulesPath(org)}/private/${org}/${name}`),
      ]) {
        expect(res.status).toBe(404);
        expect(res.body).toEqual({ errors: [{ status: '404', title: 'not found' }] });
      }
      await owner.api.get(base).expect(200);
    });

    it('answers 404 for a private module addressed under another namespace', async () => {
      const name = unique('ns');
      const provider = moduleProvider();
      await createModule(owner, org, name, provider);
      await owner.api.get(moduleBase(org, name, provider, 'private', 'elsewhere')).expect(404);
      await owner.api.get(moduleBase(org, name, provider, 'nowhere')).expect(404);
    });
  });
});
