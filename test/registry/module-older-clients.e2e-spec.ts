import {
  Actor,
  createOrganization,
  createUser,
  memberWith,
  unique,
  startWithOwnedOrganization,
} from '../helpers/fixtures';
import { TestApp } from '../helpers/test-app';
import {
  createModule,
  createModuleVersion,
  moduleArchive,
  moduleBase,
  moduleProvider,
} from './module-helpers';
import { put } from './registry-helpers';

/**
 * Module routes the official Go client still calls: the registry protocol's version details
 * (`RegistryModules.ReadTerraformRegistryModule`) and the deletes older clients make through
 * `POST /registry-modules/actions/delete/…`.
 */
describe('module routes of the official client’s older calls', () => {
  let t: TestApp;
  let admin: Actor;
  let owner: Actor;
  let org: string;

  beforeAll(async () => {
    ({ t, admin, owner, org } = await startWithOwnedOrganization());
  });
  afterAll(() => t.close());

  async function published(versions: string[]) {
    const name = unique('net');
    const provider = moduleProvider();
    await createModule(owner, org, name, provider);
    const base = moduleBase(org, name, provider);
    for (const version of versions) {
      const v = await createModuleVersion(owner, base, version);
      await put(v.upload, moduleArchive()).expect(200);
    }
    return { name, provider, base, protocol: `/api/registry/v1/modules/${org}/${name}/${provider}` };
  }

  describe('GET /api/registry/v1/modules/:namespace/:name/:provider/:version', () => {
    it('answers a published version’s details in the registry protocol’s shape', async () => {
      const m = await published(['1.0.0', '1.1.0']);
      const res = await owner.api.get(`${m.protocol}/1.0.0`).expect(200);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.body).toEqual({
        id: `${org}/${m.name}/${m.provider}/1.0.0`,
        owner: '',
        namespace: org,
        name: m.name,
        version: '1.0.0',
        provider: m.provider,
        provider_logo_url: '',
        description: '',
        source: '',
        tag: '',
        published_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
        downloads: 0,
        verified: false,
        root: {
          path: '',
          name: m.name,
          readme: '',
          empty: false,
          inputs: [],
          outputs: [],
          dependencies: [],
          provider_dependencies: [],
          resources: [],
        },
        submodules: [],
        examples: [],
        providers: [m.provider],
        versions: ['1.0.0', '1.1.0'],
      });
      // The versions list and the download keep their own routes.
      const versions = await owner.api.get(`${m.protocol}/versions`).expect(200);
      expect(versions.body).toEqual({
        modules: [{ versions: [{ version: '1.0.0' }, { version: '1.1.0' }] }],
      });
      await owner.api.get(`${m.protocol}/1.1.0/download`).expect(204);
    });

    it('answers 404 for a version not published, a missing module, and callers outside the organization', async () => {
      const m = await published(['1.0.0']);
      await createModuleVersion(owner, m.base, '2.0.0');
      for (const path of [
        `${m.protocol}/2.0.0`,
        `${m.protocol}/9.9.9`,
        `/api/registry/v1/modules/${org}/nope/aws/1.0.0`,
      ]) {
        const res = await owner.api.get(path).expect(404);
        expect(res.body).toEqual({ errors: ['Not Found'] });
      }
      const outsider = await createUser(t, admin);
      await createOrganization(outsider);
      const res = await outsider.api.get(`${m.protocol}/1.0.0`).expect(404);
      expect(res.body).toEqual({ errors: ['Not Found'] });
      const reader = await memberWith(t, admin, owner, org);
      await reader.api.get(`${m.protocol}/1.0.0`).expect(200);
    });
  });

  describe('POST /registry-modules/actions/delete/…', () => {
    const del = (actor: Actor, ...parts: string[]) =>
      actor.api.post(`/api/v2/registry-modules/actions/delete/${parts.join('/')}`);

    it('deletes a version, a provider and a whole module, answering 204', async () => {
      const m = await published(['1.0.0', '1.1.0']);
      const gone = await del(owner, org, m.name, m.provider, '1.0.0').expect(204);
      expect(gone.text).toBe('');
      await owner.api.get(`${m.protocol}/1.0.0`).expect(404);
      await owner.api.get(`${m.protocol}/1.1.0`).expect(200);

      await del(owner, org, m.name, m.provider).expect(204);
      await owner.api.get(m.base).expect(404);

      const other = moduleProvider('gcp');
      await createModule(owner, org, m.name, other);
      const again = moduleProvider('azure');
      await createModule(owner, org, m.name, again);
      await del(owner, org, m.name).expect(204);
      await owner.api.get(moduleBase(org, m.name, other)).expect(404);
      await owner.api.get(moduleBase(org, m.name, again)).expect(404);
      await del(owner, org, m.name).expect(404);
    });

    it('is refused with 404 to callers who may not manage modules, and for what does not exist', async () => {
      const m = await published(['1.0.0']);
      const reader = await memberWith(t, admin, owner, org);
      const outsider = await createUser(t, admin);
      await createOrganization(outsider);
      for (const actor of [reader, outsider]) {
        await del(actor, org, m.name, m.provider, '1.0.0').expect(404);
        await del(actor, org, m.name, m.provider).expect(404);
        await del(actor, org, m.name).expect(404);
      }
      await owner.api.get(`${m.protocol}/1.0.0`).expect(200);
      await del(owner, org, m.name, m.provider, '9.9.9').expect(404);
      await del(owner, unique('missing'), m.name).expect(404);
    });
  });
});
