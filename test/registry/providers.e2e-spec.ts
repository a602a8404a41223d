import { existsSync } from 'node:fs';
import { join } from 'node:path';
import {
  Actor,
  createOrganization,
  createUser,
  expectPagination,
  idOf,
  ISO_MILLIS,
  memberWith,
  unique,
  startWithOwnedOrganization,
} from '../helpers/fixtures';
import { TestApp } from '../helpers/test-app';
import {
  createKey,
  createProvider,
  fetchLink,
  generateSigningKey,
  providerBase,
  publish,
  SigningKey,
} from './registry-helpers';

describe('registry providers', () => {
  let t: TestApp;
  let admin: Actor;
  let owner: Actor;
  let org: string;
  let key: SigningKey;

  beforeAll(async () => {
    ({ t, admin, owner, org } = await startWithOwnedOrganization());
    key = await generateSigningKey();
    await createKey(owner, org, key);
  });
  afterAll(() => t.close());

  const collection = (o = org) => `/api/v2/organizations/${o}/registry-providers`;
  const body = (attributes: Record<string, unknown>, type: unknown = 'registry-providers') => ({
    data: { type, attributes },
  });

  it('creates a private provider in the organization namespace with its full resource shape', async () => {
    const name = unique('aws');
    const res = await owner.api
      .post(collection(), body({ name, namespace: org, 'registry-name': 'private' }))
      .expect(201);
    expect(res.headers['content-type']).toMatch(/^application\/vnd\.api\+json/);
    const self = `/api/v2/organizations/${org}/registry-providers/private/${org}/${name}`;
    expect(res.body).toEqual({
      data: {
        id: expect.stringMatching(idOf('prov')),
        type: 'registry-providers',
        attributes: {
          name,
          namespace: org,
          'registry-name': 'private',
          permissions: { 'can-delete': true },
          'created-at': expect.stringMatching(ISO_MILLIS),
          'updated-at': expect.stringMatching(ISO_MILLIS),
        },
        relationships: {
          organization: { data: { id: org, type: 'organizations' } },
          'registry-provider-versions': { data: [], links: { related: `${self}/versions` } },
        },
        links: { self },
      },
    });
    const shown = await owner.api.get(self).expect(200);
    expect(shown.body).toEqual(res.body);
  });

  it('creates a public provider with its own namespace and no versions relationship', async () => {
    const name = unique('random');
    const res = await owner.api
      .post(collection(), body({ name, namespace: 'hashicorp', 'registry-name': 'public' }))
      .expect(201);
    expect(res.body.data.attributes).toMatchObject({
      name,
      namespace: 'hashicorp',
      'registry-name': 'public',
    });
    expect(res.body.data.relationships).toEqual({
      organization: { data: { id: org, type: 'organizations' } },
    });
    expect(res.body.data.links.self).toBe(
      `/api/v2/organizations/${org}/registry-providers/public/hashicorp/${name}`,
    );
    await owner.api.get(res.body.data.links.self).expect(200);
  });

  it('gives one error per failed rule for a missing registry-name', async () => {
    const res = await owner.api.post(collection(), body({ name: 'x', namespace: org })).expect(422);
    expect(res.body).toEqual({
      errors: [
        {
          status: '422',
          title: 'invalid attribute',
          detail: "Registry name can't be blank",
          source: { pointer: '/data/attributes/registry-name' },
        },
        {
          status: '422',
          title: 'invalid attribute',
          detail: 'Registry name is not included in the list',
          source: { pointer: '/data/attributes/registry-name' },
        },
      ],
    });
  });

  it('refuses a registry-name outside private and public', async () => {
    const res = await owner.api
      .post(collection(), body({ name: 'x', namespace: org, 'registry-name': 'secret' }))
      .expect(422);
    expect(res.body.errors).toEqual([
      {
        status: '422',
        title: 'invalid attribute',
        detail: 'Registry name is not included in the list',
        source: { pointer: '/data/attributes/registry-name' },
      },
    ]);
  });

  it.each([
    [{ namespace: 'n', 'registry-name': 'public' }, "Name can't be blank", 'name'],
    [{ name: 'x', 'registry-name': 'public' }, "Namespace can't be blank", 'namespace'],
    [
      { name: 'bad name!', namespace: 'n', 'registry-name': 'public' },
      'Name is invalid: use letters, numbers, - and _',
      'name',
    ],
    [{ name: 7, namespace: 'n', 'registry-name': 'public' }, 'Name must be a string', 'name'],
    [
      { name: 'x'.repeat(65), namespace: 'n', 'registry-name': 'public' },
      'Name is too long (maximum is 64 characters)',
      'name',
    ],
  ])('refuses %j with "%s"', async (attributes, detail, field) => {
    const res = await owner.api.post(collection(), body(attributes)).expect(422);
    expect(res.body.errors).toEqual([
      { status: '422', title: 'invalid attribute', detail, source: { pointer: `/data/attributes/${field}` } },
    ]);
  });

  it('requires the namespace of a private provider to be the organization name', async () => {
    const res = await owner.api
      .post(collection(), body({ name: 'x', namespace: 'someone-else', 'registry-name': 'private' }))
      .expect(422);
    expect(res.body.errors).toEqual([
      {
        status: '422',
        title: 'invalid attribute',
        detail: 'Namespace must be the organization name for private providers',
        source: { pointer: '/data/attributes/namespace' },
      },
    ]);
  });

  it('refuses a wrong data.type', async () => {
    const res = await owner.api
      .post(collection(), body({ name: 'x', namespace: org, 'registry-name': 'private' }, 'providers'))
      .expect(409);
    expect(res.body.errors[0].source).toEqual({ pointer: '/data/type' });
  });

  it('refuses a duplicate provider but allows the same name in the other registry', async () => {
    const name = unique('dup');
    await createProvider(owner, org, name);
    const res = await owner.api
      .post(collection(), body({ name, namespace: org, 'registry-name': 'private' }))
      .expect(422);
    expect(res.body.errors).toEqual([
      {
        status: '422',
        title: 'invalid attribute',
        code: 'NAME_TAKEN',
        detail: 'Name has already been taken',
        source: { pointer: '/data/attributes/name' },
      },
    ]);
    await createProvider(owner, org, name, 'public', org);
  });

  describe('list', () => {
    let listOrg: string;

    beforeAll(async () => {
      listOrg = await createOrganization(owner, unique('listorg'));
      await createProvider(owner, listOrg, 'alpha');
      await createProvider(owner, listOrg, 'beta');
      await createProvider(owner, listOrg, 'gamma', 'public', 'hashicorp');
    });

    it('pages through the providers of the organization in name order', async () => {
      const first = await owner.api.get(`${collection(listOrg)}?page%5Bsize%5D=2`).expect(200);
      expect(first.body.data.map((p: { attributes: { name: string } }) => p.attributes.name)).toEqual([
        'alpha',
        'beta',
      ]);
      expectPagination(first.body, { current: 1, size: 2, prev: null, next: 2, pages: 2, count: 3 });
      const second = await owner.api
        .get(`${collection(listOrg)}?page%5Bnumber%5D=2&page%5Bsize%5D=2`)
        .expect(200);
      expect(second.body.data.map((p: { attributes: { name: string } }) => p.attributes.name)).toEqual([
        'gamma',
      ]);
      expectPagination(second.body, { current: 2, size: 2, prev: 1, next: null, pages: 2, count: 3 });
    });

    it('filters by registry name', async () => {
      const res = await owner.api.get(`${collection(listOrg)}?filter%5Bregistry_name%5D=public`).expect(200);
      expect(res.body.data.map((p: { attributes: { name: string } }) => p.attributes.name)).toEqual([
        'gamma',
      ]);
      await owner.api.get(`${collection(listOrg)}?filter%5Bregistry_name%5D=other`).expect(400);
    });

    it('searches names and namespaces with q', async () => {
      const byName = await owner.api.get(`${collection(listOrg)}?q=ALP`).expect(200);
      expect(byName.body.data.map((p: { attributes: { name: string } }) => p.attributes.name)).toEqual([
        'alpha',
      ]);
      const byPublicNamespace = await owner.api.get(`${collection(listOrg)}?q=hashi`).expect(200);
      expect(
        byPublicNamespace.body.data.map((p: { attributes: { name: string } }) => p.attributes.name),
      ).toEqual(['gamma']);
      const byOrgNamespace = await owner.api.get(`${collection(listOrg)}?q=listorg`).expect(200);
      expect(
        byOrgNamespace.body.data.map((p: { attributes: { name: string } }) => p.attributes.name),
      ).toEqual(['alpha', 'beta']);
      const none = await owner.api.get(`${collection(listOrg)}?q=zzz`).expect(200);
      expectPagination(none.body, { current: 1, size: 20, prev: null, next: null, pages: 0, count: 0 });
    });

    it('refuses an unknown include', async () => {
      const res = await owner.api.get(`${collection(listOrg)}?include=bogus`).expect(400);
      expect(res.body.errors[0].source).toEqual({ parameter: 'include' });
    });
  });

  it('lists the versions of a private provider in its relationship and includes them on request', async () => {
    const name = unique('withversions');
    const base = providerBase(org, name);
    await createProvider(owner, org, name);
    const release = await publish(owner, base, name, '1.0.0', key);
    const shown = await owner.api.get(`${base}?include=registry-provider-versions`).expect(200);
    expect(shown.body.data.relationships['registry-provider-versions'].data).toEqual([
      { id: release.versionId, type: 'registry-provider-versions' },
    ]);
    expect(shown.body.included).toHaveLength(1);
    expect(shown.body.included[0]).toMatchObject({
      id: release.versionId,
      type: 'registry-provider-versions',
      attributes: { version: '1.0.0', 'shasums-uploaded': true, 'shasums-sig-uploaded': true },
      relationships: {
        platforms: { data: [{ id: release.platformId, type: 'registry-provider-platforms' }] },
      },
    });
    const listed = await owner.api
      .get(`${collection()}?q=${name}&include=registry-provider-versions`)
      .expect(200);
    expect(listed.body.data[0].relationships['registry-provider-versions'].data).toEqual(
      shown.body.data.relationships['registry-provider-versions'].data,
    );
    expect(listed.body.included.map((r: { id: string }) => r.id)).toEqual([release.versionId]);
  });

  it.each([
    [
      'an unknown registry name',
      (name: string) => `/api/v2/organizations/ORG/registry-providers/other/ORG/${name}`,
    ],
    [
      'a private namespace other than the organization',
      (name: string) => providerBase('ORG', name, 'private', 'else'),
    ],
    ['the wrong registry', (name: string) => providerBase('ORG', name, 'public')],
    ['an unknown name', () => providerBase('ORG', 'missing')],
    ['an unknown organization', (name: string) => providerBase('no-such-org', name)],
  ])('answers 404 for %s', async (_, path) => {
    const name = unique('exists');
    await createProvider(owner, org, name);
    const res = await owner.api.get(path(name).replace(/ORG/g, org)).expect(404);
    expect(res.body).toEqual({ errors: [{ status: '404', title: 'not found' }] });
  });

  it('lets every member read, but only owners and manage-providers teams create and delete', async () => {
    const name = unique('perm');
    await createProvider(owner, org, name);
    const reader = await memberWith(t, admin, owner, org, []);
    const manager = await memberWith(t, admin, owner, org, ['manage-providers']);
    const outsider = await createUser(t, admin);

    const read = await reader.api.get(providerBase(org, name)).expect(200);
    expect(read.body.data.attributes.permissions).toEqual({ 'can-delete': false });
    await reader.api.get(collection()).expect(200);
    await reader.api
      .post(collection(), body({ name: unique('r'), namespace: org, 'registry-name': 'private' }))
      .expect(404);
    await reader.api.delete(providerBase(org, name)).expect(404);

    await outsider.api.get(collection()).expect(404);
    await outsider.api.get(providerBase(org, name)).expect(404);

    const created = await manager.api
      .post(collection(), body({ name: unique('m'), namespace: org, 'registry-name': 'private' }))
      .expect(201);
    expect(created.body.data.attributes.permissions).toEqual({ 'can-delete': true });
    await manager.api.delete(providerBase(org, name)).expect(204);
  });

  it('deletes a provider with its versions, platforms and every stored file', async () => {
    const name = unique('gone');
    const base = providerBase(org, name);
    const providerId = await createProvider(owner, org, name);
    await publish(owner, base, name, '1.0.0', key);
    const dl = await owner.api
      .get(`/api/registry/v1/providers/${org}/${name}/1.0.0/download/linux/amd64`)
      .expect(200);
    const blobDir = join(t.config.dataDir, 'blobs', 'registry', providerId);
    expect(existsSync(blobDir)).toBe(true);

    const res = await owner.api.delete(base).expect(204);
    expect(res.text).toBe('');
    await owner.api.get(base).expect(404);
    await owner.api.get(`${base}/versions/1.0.0`).expect(404);
    await fetchLink(dl.body.download_url).expect(404);
    await fetchLink(dl.body.shasums_url, 'head').expect(404);
    expect(existsSync(blobDir)).toBe(false);
    await createProvider(owner, org, name);
    expect((await owner.api.get(`${base}/versions`).expect(200)).body.data).toEqual([]);
  });
});
