import { CatalogUsageRegistry } from '../../src/admin-catalogs/catalog-usage.registry';
import { ToolVersionsService } from '../../src/admin-catalogs/tool-versions.service';
import { DomainError } from '../../src/common/errors/domain-error';
import {
  Actor,
  createOrganization,
  createUser,
  createWorkspace,
  unique,
  startWithOwnedOrganization,
} from '../helpers/fixtures';
import { TestApp } from '../helpers/test-app';
import { createCatalogVersion } from './catalog-helpers';

const ENGINE = '/api/v2/admin/engine-versions';
const POLICY_ENGINE = '/api/v2/admin/policy-engine-versions';

describe('pinning catalog versions', () => {
  let t: TestApp;
  let admin: Actor;
  let owner: Actor;
  let org: string;

  beforeAll(async () => {
    ({ t, admin, owner, org } = await startWithOwnedOrganization());
  });
  afterAll(() => t.close());

  const createPinned = (engineVersion: string, name = unique('ws')) =>
    owner.api.post(`/api/v2/organizations/${org}/workspaces`, {
      data: { type: 'workspaces', attributes: { name, 'engine-version': engineVersion } },
    });
  const pin = (workspaceId: string, attributes: Record<string, unknown>) =>
    owner.api.patch(`/api/v2/workspaces/${workspaceId}`, { data: { type: 'workspaces', attributes } });
  const usageOf = async (path: string, id: string) =>
    (await admin.api.get(`${path}/${id}`).expect(200)).body.data.attributes.usage as number;
  const engineVersionError = (detail: string) => ({
    errors: [
      {
        status: '422',
        title: 'invalid attribute',
        detail,
        source: { pointer: '/data/attributes/engine-version' },
      },
    ],
  });

  describe('by workspaces', () => {
    it('accepts latest whatever the catalog holds, and defaults to it', async () => {
      const res = await createPinned('latest').expect(201);
      expect(res.body.data.attributes['engine-version']).toBe('latest');
      const id = await createWorkspace(owner, org);
      const shown = await owner.api.get(`/api/v2/workspaces/${id}`).expect(200);
      expect(shown.body.data.attributes['engine-version']).toBe('latest');
    });

    it('refuses a version the engine catalog does not have', async () => {
      await createCatalogVersion(admin, 'policy-engine-versions', '1.4.0');
      const res = await createPinned('1.4.0').expect(422);
      expect(res.body).toEqual(
        engineVersionError(
          'Engine version 1.4.0 is not in the engine versions catalog; use latest or an enabled catalog version',
        ),
      );
    });

    it('accepts an enabled version and counts the workspace in its usage', async () => {
      const id = await createCatalogVersion(admin, 'engine-versions', '1.5.0');
      const created = await createPinned('1.5.0').expect(201);
      expect(created.body.data.attributes['engine-version']).toBe('1.5.0');
      expect(await usageOf(ENGINE, id)).toBe(1);
      const wsId = await createWorkspace(owner, org);
      await pin(wsId, { 'engine-version': '1.5.0' }).expect(200);
      expect(await usageOf(ENGINE, id)).toBe(2);
      const list = await admin.api.get(`${ENGINE}?filter[version]=1.5.0`).expect(200);
      expect(list.body.data[0].attributes.usage).toBe(2);
    });

    it('stores the version as the catalog spells it', async () => {
      const id = await createCatalogVersion(admin, 'engine-versions', '1.6.0-RC1');
      const res = await createPinned('1.6.0-rc1').expect(201);
      expect(res.body.data.attributes['engine-version']).toBe('1.6.0-RC1');
      expect(await usageOf(ENGINE, id)).toBe(1);
    });

    it('counts the workspaces of every organization, in show and in lists', async () => {
      const id = await createCatalogVersion(admin, 'engine-versions', '1.7.0');
      const otherOwner = await createUser(t, admin);
      const otherOrg = await createOrganization(otherOwner);
      await createPinned('1.7.0').expect(201);
      await otherOwner.api
        .post(`/api/v2/organizations/${otherOrg}/workspaces`, {
          data: { type: 'workspaces', attributes: { name: unique('ws'), 'engine-version': '1.7.0' } },
        })
        .expect(201);
      expect(await usageOf(ENGINE, id)).toBe(2);
      const list = await admin.api.get(ENGINE).expect(200);
      const usage = Object.fromEntries(
        list.body.data.map((d: { attributes: { version: string; usage: number } }) => [
          d.attributes.version,
          d.attributes.usage,
        ]),
      );
      expect(usage).toMatchObject({ '1.5.0': 2, '1.6.0-RC1': 1, '1.7.0': 2 });
    });

    it('does not count engine pins against the policy-engine catalog', async () => {
      const id = await createCatalogVersion(admin, 'policy-engine-versions', '1.5.0');
      expect(await usageOf(POLICY_ENGINE, id)).toBe(0);
      await admin.api.delete(`${POLICY_ENGINE}/${id}`).expect(204);
    });
  });

  describe('a disabled version', () => {
    let versionId: string;
    let pinnedId: string;

    beforeAll(async () => {
      versionId = await createCatalogVersion(admin, 'engine-versions', '2.0.0');
      pinnedId = (await createPinned('2.0.0').expect(201)).body.data.id;
      await admin.api
        .patch(`${ENGINE}/${versionId}`, {
          data: { type: 'engine-versions', attributes: { enabled: false } },
        })
        .expect(200);
    });

    const DISABLED = 'Engine version 2.0.0 is disabled; a disabled version cannot be newly pinned';

    it('cannot be pinned by a new workspace', async () => {
      const res = await createPinned('2.0.0').expect(422);
      expect(res.body).toEqual(engineVersionError(DISABLED));
    });

    it('cannot be pinned by an existing workspace', async () => {
      const wsId = await createWorkspace(owner, org);
      const res = await pin(wsId, { 'engine-version': '2.0.0' }).expect(422);
      expect(res.body).toEqual(engineVersionError(DISABLED));
      const shown = await owner.api.get(`/api/v2/workspaces/${wsId}`).expect(200);
      expect(shown.body.data.attributes['engine-version']).toBe('latest');
    });

    it('stays pinned where it was pinned before, through unrelated updates', async () => {
      await pin(pinnedId, { description: 'still on 2.0.0' }).expect(200);
      const res = await pin(pinnedId, { 'engine-version': '2.0.0', description: 'resent' }).expect(200);
      expect(res.body.data.attributes['engine-version']).toBe('2.0.0');
      expect(await usageOf(ENGINE, versionId)).toBe(1);
    });

    it('can be pinned again once enabled', async () => {
      await admin.api
        .patch(`${ENGINE}/${versionId}`, { data: { type: 'engine-versions', attributes: { enabled: true } } })
        .expect(200);
      await createPinned('2.0.0').expect(201);
      expect(await usageOf(ENGINE, versionId)).toBe(2);
    });
  });

  describe('deleting and renaming a pinned version', () => {
    it('refuses while workspaces pin it and accepts once they no longer do', async () => {
      const id = await createCatalogVersion(admin, 'engine-versions', '3.0.0');
      const first = (await createPinned('3.0.0').expect(201)).body.data.id;
      const second = (await createPinned('3.0.0').expect(201)).body.data.id;
      const third = (await createPinned('3.0.0').expect(201)).body.data.id;

      const refused = await admin.api.delete(`${ENGINE}/${id}`).expect(422);
      expect(refused.body).toEqual({
        errors: [
          {
            status: '422',
            title: 'invalid attribute',
            detail: 'Version 3.0.0 is used by 3 workspaces and cannot be deleted',
          },
        ],
      });

      await pin(first, { 'engine-version': 'latest' }).expect(200);
      await owner.api.delete(`/api/v2/workspaces/${second}`).expect(204);
      const once = await admin.api.delete(`${ENGINE}/${id}`).expect(422);
      expect(once.body.errors.map((e: { detail: string }) => e.detail)).toEqual([
        'Version 3.0.0 is used by 1 workspace and cannot be deleted',
      ]);

      await pin(third, { 'engine-version': 'latest' }).expect(200);
      await admin.api.delete(`${ENGINE}/${id}`).expect(204);
      await admin.api.get(`${ENGINE}/${id}`).expect(404);
      const gone = await createPinned('3.0.0').expect(422);
      expect(gone.body.errors[0].source).toEqual({ pointer: '/data/attributes/engine-version' });
    });

    it('never lets a delete and a new pin racing each other both succeed', async () => {
      for (let i = 0; i < 5; i++) {
        const version = `3.9.${i}`;
        const id = await createCatalogVersion(admin, 'engine-versions', version);
        const [deleted, pinned] = await Promise.all([
          admin.api.delete(`${ENGINE}/${id}`),
          createPinned(version),
        ]);
        const outcome = [deleted.status, pinned.status];
        expect([
          [204, 422],
          [422, 201],
        ]).toContainEqual(outcome);
        const usage = await admin.api.get(`${ENGINE}?filter[version]=${version}`).expect(200);
        expect(usage.body.data.map((d: { attributes: { usage: number } }) => d.attributes.usage)).toEqual(
          pinned.status === 201 ? [1] : [],
        );
      }
    });

    it('names both reasons for an official version in use', async () => {
      const id = await createCatalogVersion(admin, 'engine-versions', '3.1.0', { official: true });
      await createPinned('3.1.0').expect(201);
      const res = await admin.api.delete(`${ENGINE}/${id}`).expect(422);
      expect(res.body.errors.map((e: { detail: string }) => e.detail)).toEqual([
        'Version 3.1.0 is official and cannot be deleted',
        'Version 3.1.0 is used by 1 workspace and cannot be deleted',
      ]);
    });

    it('refuses to change the version string while it is pinned', async () => {
      const id = await createCatalogVersion(admin, 'engine-versions', '3.2.0');
      const wsId = (await createPinned('3.2.0').expect(201)).body.data.id;
      const res = await admin.api
        .patch(`${ENGINE}/${id}`, { data: { type: 'engine-versions', attributes: { version: '3.2.1' } } })
        .expect(422);
      expect(res.body.errors).toEqual([
        {
          status: '422',
          title: 'invalid attribute',
          detail: 'Version cannot be changed while 3.2.0 is used by 1 workspace',
          source: { pointer: '/data/attributes/version' },
        },
      ]);
      await admin.api
        .patch(`${ENGINE}/${id}`, {
          data: { type: 'engine-versions', attributes: { url: 'https://e.com/x.zip' } },
        })
        .expect(200);
      await pin(wsId, { 'engine-version': 'latest' }).expect(200);
      const renamed = await admin.api
        .patch(`${ENGINE}/${id}`, { data: { type: 'engine-versions', attributes: { version: '3.2.1' } } })
        .expect(200);
      expect(renamed.body.data.attributes.version).toBe('3.2.1');
    });
  });

  describe('by other modules (policy sets register their own counter)', () => {
    it('adds every registered counter to usage and names each consumer on delete', async () => {
      const id = await createCatalogVersion(admin, 'policy-engine-versions', '0.9.0');
      t.app
        .get(CatalogUsageRegistry)
        .register(
          'policy-engine-versions',
          async (versions) => new Map(versions.filter((v) => v === '0.9.0').map((v) => [v, 2])),
          { one: 'policy set', other: 'policy sets' },
        );
      expect(await usageOf(POLICY_ENGINE, id)).toBe(2);
      const res = await admin.api.delete(`${POLICY_ENGINE}/${id}`).expect(422);
      expect(res.body.errors.map((e: { detail: string }) => e.detail)).toEqual([
        'Version 0.9.0 is used by 2 policy sets and cannot be deleted',
      ]);
    });

    it('checks a policy tool version against the policy-engine catalog', async () => {
      const service = t.app.get(ToolVersionsService);
      await createCatalogVersion(admin, 'policy-engine-versions', '0.8.0', { enabled: false });
      await expect(
        service.assertPinnable('policy-engine-versions', 'latest', 'policy-tool-version'),
      ).resolves.toBe('latest');
      await expect(
        service.assertPinnable('policy-engine-versions', '0.9.0', 'policy-tool-version'),
      ).resolves.toBe('0.9.0');
      const refusal = service.assertPinnable('policy-engine-versions', '0.8.0', 'policy-tool-version');
      await expect(refusal).rejects.toBeInstanceOf(DomainError);
      await expect(refusal).rejects.toMatchObject({
        kind: 'invalid',
        items: [
          {
            detail: 'Policy tool version 0.8.0 is disabled; a disabled version cannot be newly pinned',
            pointer: '/data/attributes/policy-tool-version',
          },
        ],
      });
      await expect(
        service.assertPinnable('policy-engine-versions', '1.5.0', 'policy-tool-version'),
      ).rejects.toMatchObject({
        items: [{ pointer: '/data/attributes/policy-tool-version' }],
      });
    });
  });
});
