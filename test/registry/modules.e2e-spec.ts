import {
  Actor,
  createOrganization,
  expectPagination,
  idOf,
  ISO_MILLIS,
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
  modulesPath,
} from './module-helpers';
import { put } from './registry-helpers';

const UPLOAD_LINK = /^http:\/\/127\.0\.0\.1:\d+\/uploads\/[\w-]+\.[\w-]+$/;

describe('registry modules (management API)', () => {
  let t: TestApp;
  let owner: Actor;
  let org: string;

  beforeAll(async () => {
    ({ t, owner, org } = await startWithOwnedOrganization());
  });
  afterAll(() => t.close());

  const body = (attributes: Record<string, unknown>, type: unknown = 'registry-modules') => ({
    data: { type, attributes },
  });

  it('creates a private module with the reference shape, and shows the same resource', async () => {
    const name = unique('vpc');
    const provider = moduleProvider();
    const res = await owner.api
      .post(modulesPath(org), body({ name, provider, namespace: org, 'registry-name': 'private' }))
      .expect(201);
    const self = moduleBase(org, name, provider);
    expect(res.headers['content-type']).toMatch(/^application\/vnd\.api\+json/);
    expect(res.body).toEqual({
      data: {
        id: expect.stringMatching(idOf('mod')),
        type: 'registry-modules',
        attributes: {
          name,
          namespace: org,
          provider,
          'registry-name': 'private',
          status: 'pending',
          'version-statuses': [],
          'no-code': false,
          'publishing-mechanism': null,
          'vcs-repo': null,
          permissions: { 'can-delete': true, 'can-resync': false, 'can-retry': false },
          'created-at': expect.stringMatching(ISO_MILLIS),
          'updated-at': expect.stringMatching(ISO_MILLIS),
        },
        relationships: { organization: { data: { id: org, type: 'organizations' } } },
        links: { self },
      },
    });
    expect((await owner.api.get(self).expect(200)).body).toEqual(res.body);
  });

  it("takes the official client's body: no namespace and no registry name make a private module", async () => {
    const name = unique('gotfe');
    const provider = moduleProvider();
    const res = await owner.api.post(modulesPath(org), body({ name, provider, 'no-code': null })).expect(201);
    expect(res.body.data.attributes).toMatchObject({ namespace: org, 'registry-name': 'private' });
  });

  it.each([
    [{ provider: 'aws' }, ["Name can't be blank"]],
    [{ name: 'x' }, ["Provider can't be blank"]],
    [{ name: 'x', provider: 'AWS' }, ['Provider is invalid: use lower-case letters and numbers']],
    [{ name: 'x', provider: 'my-cloud' }, ['Provider is invalid: use lower-case letters and numbers']],
    [{ name: 'has space', provider: 'aws' }, ['Name is invalid: use letters, numbers, - and _']],
    [{ name: 'x'.repeat(65), provider: 'aws' }, ['Name is too long (maximum is 64 characters)']],
    [{ name: 'x', provider: 'aws', 'registry-name': 'other' }, ['Registry name is not included in the list']],
    [{ name: 'x', provider: 'aws', 'no-code': 'yes' }, ['No code must be a boolean value']],
  ])('refuses %j with 422s naming each broken rule', async (attributes, details) => {
    const res = await owner.api.post(modulesPath(org), body(attributes)).expect(422);
    expect(res.body.errors.map((e: { detail: string }) => e.detail)).toEqual(details);
    for (const e of res.body.errors) {
      expect(e).toMatchObject({ status: '422', title: 'invalid attribute' });
      expect(e.source.pointer).toMatch(/^\/data\/attributes\//);
    }
  });

  it('refuses another namespace for a private module, a duplicate, and a public one without namespace', async () => {
    const name = unique('dup');
    const provider = moduleProvider();
    const other = await owner.api
      .post(modulesPath(org), body({ name, provider, namespace: 'someone-else' }))
      .expect(422);
    expect(other.body.errors[0]).toMatchObject({
      detail: 'Namespace must be the organization name for private modules',
      source: { pointer: '/data/attributes/namespace' },
    });
    await createModule(owner, org, name, provider);
    const dup = await owner.api.post(modulesPath(org), body({ name, provider })).expect(422);
    expect(dup.body.errors[0]).toMatchObject({ code: 'NAME_TAKEN', detail: 'Name has already been taken' });
    const pub = await owner.api
      .post(modulesPath(org), body({ name, provider, 'registry-name': 'public' }))
      .expect(422);
    expect(pub.body.errors[0].detail).toBe("Namespace can't be blank");
  });

  it('keeps one module per provider: the same name for two providers is two resources', async () => {
    const name = unique('multi');
    const [a, b] = [moduleProvider('aws'), moduleProvider('gcp')];
    const idA = await createModule(owner, org, name, a);
    const idB = await createModule(owner, org, name, b);
    expect(idA).not.toBe(idB);
    await owner.api.get(moduleBase(org, name, b)).expect(200);
  });

  it('records curated public modules: readable, no versions (403), deleted only by name', async () => {
    const name = unique('pubmod');
    const res = await owner.api
      .post(
        modulesPath(org),
        body({ name, provider: 'aws', namespace: 'terraform-aws-modules', 'registry-name': 'public' }),
      )
      .expect(201);
    const base = moduleBase(org, name, 'aws', 'public', 'terraform-aws-modules');
    expect(res.body.data.links.self).toBe(base);
    expect(res.body.data.attributes.namespace).toBe('terraform-aws-modules');
    const versions = await owner.api
      .post(`${base}/versions`, {
        data: { type: 'registry-module-versions', attributes: { version: '1.0.0' } },
      })
      .expect(403);
    expect(versions.body.errors[0]).toMatchObject({ status: '403', title: 'forbidden' });
    await owner.api.delete(base).expect(404);
    await owner.api.delete(`${modulesPath(org)}/public/terraform-aws-modules/${name}`).expect(204);
    await owner.api.get(base).expect(404);
  });

  describe('list', () => {
    let listOrg: string;
    beforeAll(async () => {
      listOrg = await createOrganization(owner);
      for (const [name, provider] of [
        ['network', 'aws'],
        ['network', 'azurerm'],
        ['storage', 'aws'],
        ['compute', 'google'],
      ]) {
        await createModule(owner, listOrg, name, provider);
      }
      await owner.api
        .post(
          modulesPath(listOrg),
          body({ name: 'eks', provider: 'aws', namespace: 'community', 'registry-name': 'public' }),
        )
        .expect(201);
    });

    const names = (res: { body: { data: { attributes: { name: string; provider: string } }[] } }) =>
      res.body.data.map((d) => `${d.attributes.name}/${d.attributes.provider}`);

    it('pages through every module, ordered by name and provider', async () => {
      const first = await owner.api.get(`${modulesPath(listOrg)}?page%5Bsize%5D=2`).expect(200);
      expect(names(first)).toEqual(['compute/google', 'eks/aws']);
      expectPagination(first.body, { current: 1, size: 2, prev: null, next: 2, pages: 3, count: 5 });
      const last = await owner.api
        .get(`${modulesPath(listOrg)}?page%5Bsize%5D=2&page%5Bnumber%5D=3`)
        .expect(200);
      expect(names(last)).toEqual(['storage/aws']);
    });

    it.each([
      ['filter%5Bregistry_name%5D=public', ['eks/aws']],
      ['filter%5Bregistry_name%5D=private&filter%5Bprovider%5D=aws', ['network/aws', 'storage/aws']],
      ['filter%5Bprovider%5D=azurerm', ['network/azurerm']],
      ['search%5Bname%5D=NET', ['network/aws', 'network/azurerm']],
      ['q=goog', ['compute/google']],
      ['q=community', ['eks/aws']],
    ])('filters with %s', async (query, expected) => {
      const res = await owner.api.get(`${modulesPath(listOrg)}?${query}`).expect(200);
      expect(names(res)).toEqual(expected);
    });

    it('answers 400 for an unknown registry name filter', async () => {
      const res = await owner.api.get(`${modulesPath(listOrg)}?filter%5Bregistry_name%5D=other`).expect(400);
      expect(res.body.errors[0]).toMatchObject({
        status: '400',
        source: { parameter: 'filter[registry_name]' },
      });
    });
  });

  describe('versions', () => {
    it('creates a pending version with a one-hour upload link, read back through the reference route', async () => {
      const name = unique('ver');
      const provider = moduleProvider();
      const moduleId = await createModule(owner, org, name, provider);
      const base = moduleBase(org, name, provider);
      const before = Date.now();
      const res = await owner.api
        .post(`${base}/versions`, {
          data: { type: 'registry-module-versions', attributes: { version: '1.2.0', 'commit-sha': null } },
        })
        .expect(201);
      const self = `${base}/version?module_version=1.2.0`;
      expect(res.body).toEqual({
        data: {
          id: expect.stringMatching(idOf('modver')),
          type: 'registry-module-versions',
          attributes: {
            version: '1.2.0',
            status: 'pending',
            source: 'tfe-api',
            error: null,
            'created-at': expect.stringMatching(ISO_MILLIS),
            'updated-at': expect.stringMatching(ISO_MILLIS),
          },
          relationships: { 'registry-module': { data: { id: moduleId, type: 'registry-modules' } } },
          links: { self, upload: expect.stringMatching(UPLOAD_LINK) },
        },
      });
      const token = new URL(res.body.data.links.upload).pathname.split('/')[2];
      const claims = JSON.parse(Buffer.from(token.split('.')[0], 'base64url').toString()) as { e: number };
      expect(claims.e * 1000).toBeGreaterThanOrEqual(before + 3600_000);
      expect(claims.e * 1000).toBeLessThanOrEqual(Date.now() + 3600_000 + 300_000);
      expect((await owner.api.get(self).expect(200)).body).toEqual(res.body);
      await owner.api.get(`${base}/version?module_version=9.9.9`).expect(404);
      await owner.api.get(`${base}/version`).expect(404);
    });

    it('serves the older create route the official Go client uses', async () => {
      const name = unique('older');
      const provider = moduleProvider();
      await createModule(owner, org, name, provider);
      const res = await owner.api
        .post(`/api/v2/registry-modules/${org}/${name}/${provider}/versions`, {
          data: { type: 'registry-module-versions', attributes: { version: '0.1.0' } },
        })
        .expect(201);
      expect(res.body.data.attributes).toMatchObject({ version: '0.1.0', status: 'pending' });
      await owner.api.get(`${moduleBase(org, name, provider)}/version?module_version=0.1.0`).expect(200);
    });

    it.each([
      [{}, "Version can't be blank"],
      [{ version: 'v1.0.0' }, 'Version is not a valid semantic version'],
      [{ version: '1.0' }, 'Version is not a valid semantic version'],
      [{ version: 7 }, 'Version must be a string'],
    ])('refuses version attributes %j', async (attributes, detail) => {
      const name = unique('badver');
      const provider = moduleProvider();
      await createModule(owner, org, name, provider);
      const res = await owner.api
        .post(`${moduleBase(org, name, provider)}/versions`, {
          data: { type: 'registry-module-versions', attributes },
        })
        .expect(422);
      expect(res.body.errors).toEqual([
        {
          status: '422',
          title: 'invalid attribute',
          detail,
          source: { pointer: '/data/attributes/version' },
        },
      ]);
    });

    it('ends 20 concurrent creates of one version as one row and 19 422s', async () => {
      const name = unique('race');
      const provider = moduleProvider();
      await createModule(owner, org, name, provider);
      const base = moduleBase(org, name, provider);
      const results = await Promise.all(
        Array.from({ length: 20 }, () =>
          owner.api.post(`${base}/versions`, {
            data: { type: 'registry-module-versions', attributes: { version: '3.0.0' } },
          }),
        ),
      );
      const statuses = results.map((r) => r.status).sort();
      expect(statuses).toEqual([201, ...Array(19).fill(422)]);
      for (const r of results.filter((x) => x.status === 422)) {
        expect(r.body.errors[0]).toMatchObject({
          code: 'VERSION_TAKEN',
          detail: 'Version has already been taken',
        });
      }
      const shown = await owner.api.get(base).expect(200);
      expect(shown.body.data.attributes['version-statuses']).toEqual([
        { version: '3.0.0', status: 'pending', error: null },
      ]);
    });

    it('reports each version in version-statuses and the module as set up once one is ok', async () => {
      const name = unique('statuses');
      const provider = moduleProvider();
      await createModule(owner, org, name, provider);
      const base = moduleBase(org, name, provider);
      const good = await createModuleVersion(owner, base, '1.0.0');
      await put(good.upload, moduleArchive()).expect(200);
      const bad = await createModuleVersion(owner, base, '1.1.0');
      await put(bad.upload, Buffer.from('not gzip')).expect(422);
      await createModuleVersion(owner, base, '2.0.0-rc.1');
      const shown = await owner.api.get(base).expect(200);
      expect(shown.body.data.attributes.status).toBe('setup_complete');
      expect(shown.body.data.attributes['version-statuses']).toEqual([
        { version: '1.0.0', status: 'ok', error: null },
        {
          version: '1.1.0',
          status: 'reg_ingress_failed',
          error: expect.stringMatching(/^the upload is not a valid gzip stream/),
        },
        { version: '2.0.0-rc.1', status: 'pending', error: null },
      ]);
      const ok = await owner.api.get(`${base}/version?module_version=1.0.0`).expect(200);
      expect(ok.body.data.links).toEqual({ self: `${base}/version?module_version=1.0.0` });
    });
  });
});
