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
import { createProvider, createVersion, providerBase } from './registry-helpers';

const UPLOAD_LINK = /^http:\/\/127\.0\.0\.1:\d+\/uploads\/[\w-]+\.[\w-]+$/;
const KEY_ID = '34365D9472D7468F';

describe('registry provider versions', () => {
  let t: TestApp;
  let admin: Actor;
  let owner: Actor;
  let org: string;

  beforeAll(async () => {
    ({ t, admin, owner, org } = await startWithOwnedOrganization());
  });
  afterAll(() => t.close());

  async function freshProvider(): Promise<{ name: string; base: string; id: string }> {
    const name = unique('prov');
    const id = await createProvider(owner, org, name);
    return { name, base: providerBase(org, name), id };
  }

  const versionBody = (attributes: Record<string, unknown>, type?: unknown) => ({
    data: { ...(type === undefined ? {} : { type }), attributes },
  });
  const valid = { version: '1.0.0', 'key-id': KEY_ID, protocols: ['5.0', '6.0'] };

  it('creates a version with the contract shape: permissions, flags, relationships and upload links', async () => {
    const { base, id } = await freshProvider();
    const res = await owner.api
      .post(`${base}/versions`, versionBody(valid, 'registry-provider-versions'))
      .expect(201);
    expect(res.headers['content-type']).toMatch(/^application\/vnd\.api\+json/);
    expect(res.body).toEqual({
      data: {
        id: expect.stringMatching(idOf('provver')),
        type: 'registry-provider-versions',
        attributes: {
          version: '1.0.0',
          'created-at': expect.stringMatching(ISO_MILLIS),
          'updated-at': expect.stringMatching(ISO_MILLIS),
          'key-id': KEY_ID,
          protocols: ['5.0', '6.0'],
          permissions: { 'can-delete': true, 'can-upload-asset': true },
          'shasums-uploaded': false,
          'shasums-sig-uploaded': false,
        },
        relationships: {
          'registry-provider': { data: { id, type: 'registry-providers' } },
          platforms: { data: [], links: { related: `${base}/versions/1.0.0/platforms` } },
        },
        links: {
          self: `${base}/versions/1.0.0`,
          'shasums-upload': expect.stringMatching(UPLOAD_LINK),
          'shasums-sig-upload': expect.stringMatching(UPLOAD_LINK),
        },
      },
    });
    expect(res.headers.location).toBe(`${base}/versions/1.0.0`);
    const shown = await owner.api.get(res.headers.location).expect(200);
    expect(shown.body).toEqual(res.body);
  });

  it.each([
    ['no type', undefined],
    ['an empty type', ''],
    ['a null type', null],
  ])('accepts a body with %s, as official clients send it', async (_, type) => {
    const { base } = await freshProvider();
    await owner.api.post(`${base}/versions`, versionBody(valid, type)).expect(201);
  });

  it('refuses a body of another type', async () => {
    const { base } = await freshProvider();
    const res = await owner.api
      .post(`${base}/versions`, versionBody(valid, 'registry-providers'))
      .expect(409);
    expect(res.body.errors).toEqual([
      {
        status: '409',
        title: 'conflict',
        detail: 'Type must be registry-provider-versions',
        source: { pointer: '/data/type' },
      },
    ]);
  });

  it('reports every missing attribute at once', async () => {
    const { base } = await freshProvider();
    const res = await owner.api
      .post(`${base}/versions`, versionBody({}, 'registry-provider-versions'))
      .expect(422);
    expect(res.body.errors).toEqual(
      [
        ['version', "Version can't be blank"],
        ['key-id', "Key id can't be blank"],
        ['protocols', "Protocols can't be blank"],
      ].map(([field, detail]) => ({
        status: '422',
        title: 'invalid attribute',
        detail,
        source: { pointer: `/data/attributes/${field}` },
      })),
    );
  });

  it.each([
    [{ version: 'one' }, 'Version is not a valid semantic version'],
    [{ version: '1.0' }, 'Version is not a valid semantic version'],
    [{ version: 'v1.0.0' }, 'Version is not a valid semantic version'],
    [{ version: ' 1.0.0' }, 'Version is not a valid semantic version'],
    [{ version: 100 }, 'Version must be a string'],
    [{ 'key-id': '' }, "Key id can't be blank"],
    [{ 'key-id': 5 }, 'Key id must be a string'],
    [{ protocols: [] }, "Protocols can't be blank"],
    [{ protocols: '5.0' }, 'Protocols must be an array of strings'],
    [{ protocols: [5] }, 'Protocols must be an array of strings'],
    [{ protocols: ['5.0', '7.0'] }, 'Protocols must contain only 4.0, 5.0, 6.0'],
    [{ protocols: ['5.1'] }, 'Protocols must contain only 4.0, 5.0, 6.0'],
  ])('refuses %j with "%s"', async (override, detail) => {
    const { base } = await freshProvider();
    const res = await owner.api.post(`${base}/versions`, versionBody({ ...valid, ...override })).expect(422);
    expect(res.body.errors.map((e: { detail: string }) => e.detail)).toEqual([detail]);
  });

  it('accepts pre-release and build versions and keeps protocols in canonical order without repeats', async () => {
    const { base } = await freshProvider();
    const pre = await owner.api
      .post(
        `${base}/versions`,
        versionBody({ ...valid, version: '2.0.0-beta.1', protocols: ['6.0', '5.0', '6.0'] }),
      )
      .expect(201);
    expect(pre.body.data.attributes.protocols).toEqual(['5.0', '6.0']);
    await owner.api.post(`${base}/versions`, versionBody({ ...valid, version: '2.0.0+build.7' })).expect(201);
    await owner.api.get(`${base}/versions/2.0.0-beta.1`).expect(200);
  });

  it('refuses a version that already exists for the provider', async () => {
    const { base } = await freshProvider();
    await createVersion(owner, base, '1.0.0', KEY_ID);
    const res = await owner.api.post(`${base}/versions`, versionBody(valid)).expect(422);
    expect(res.body.errors).toEqual([
      {
        status: '422',
        title: 'invalid attribute',
        code: 'VERSION_TAKEN',
        detail: 'Version has already been taken',
        source: { pointer: '/data/attributes/version' },
      },
    ]);
    const other = await freshProvider();
    await createVersion(owner, other.base, '1.0.0', KEY_ID);
  });

  it('keeps exactly one row when 20 identical creates race', async () => {
    const { base } = await freshProvider();
    const results = await Promise.all(
      Array.from({ length: 20 }, () => owner.api.post(`${base}/versions`, versionBody(valid))),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([201, ...Array<number>(19).fill(422)]);
    for (const r of results.filter((x) => x.status === 422)) {
      expect(r.body.errors[0]).toMatchObject({
        code: 'VERSION_TAKEN',
        detail: 'Version has already been taken',
      });
    }
    const list = await owner.api.get(`${base}/versions`).expect(200);
    expect(list.body.meta.pagination['total-count']).toBe(1);
  });

  it('lists versions with and without the trailing slash, paginated', async () => {
    const { base } = await freshProvider();
    for (const v of ['1.0.0', '1.1.0', '2.0.0']) await createVersion(owner, base, v, KEY_ID);
    const res = await owner.api.get(`${base}/versions?page%5Bsize%5D=2`).expect(200);
    expect(res.body.data.map((v: { attributes: { version: string } }) => v.attributes.version)).toEqual([
      '1.0.0',
      '1.1.0',
    ]);
    expect(res.body.data[0].type).toBe('registry-provider-versions');
    expectPagination(res.body, { current: 1, size: 2, prev: null, next: 2, pages: 2, count: 3 });
    const slash = await owner.api.get(`${base}/versions/?page%5Bnumber%5D=2&page%5Bsize%5D=2`).expect(200);
    expect(slash.body.data.map((v: { attributes: { version: string } }) => v.attributes.version)).toEqual([
      '2.0.0',
    ]);
    expectPagination(slash.body, { current: 2, size: 2, prev: 1, next: null, pages: 2, count: 3 });
    const created = await owner.api
      .post(`${base}/versions/`, versionBody({ ...valid, version: '3.0.0' }))
      .expect(201);
    expect(created.body.data.attributes.version).toBe('3.0.0');
    await owner.api.get(`${base}/versions?page%5Bsize%5D=101`).expect(422);
  });

  it('answers 404 for an unknown version, provider or organization', async () => {
    const { base } = await freshProvider();
    for (const path of [
      `${base}/versions/9.9.9`,
      `${providerBase(org, 'missing')}/versions`,
      `${providerBase('no-such-org', 'x')}/versions`,
      `${providerBase(org, 'x', 'private', 'other-namespace')}/versions`,
      `/api/v2/organizations/${org}/registry-providers/other/${org}/x/versions`,
    ]) {
      const res = await owner.api.get(path).expect(404);
      expect(res.body).toEqual({ errors: [{ status: '404', title: 'not found' }] });
    }
    await owner.api.delete(`${base}/versions/9.9.9`).expect(404);
  });

  it('answers 403 on every version and platform route of a public provider', async () => {
    const name = unique('public');
    await createProvider(owner, org, name, 'public', 'hashicorp');
    const base = providerBase(org, name, 'public', 'hashicorp');
    const platform = { os: 'linux', arch: 'amd64', shasum: 'a'.repeat(64), filename: 'f.zip' };
    const requests = [
      owner.api.post(`${base}/versions`, versionBody(valid)),
      owner.api.get(`${base}/versions`),
      owner.api.get(`${base}/versions/`),
      owner.api.get(`${base}/versions/1.0.0`),
      owner.api.delete(`${base}/versions/1.0.0`),
      owner.api.post(`${base}/versions/1.0.0/platforms`, { data: { attributes: platform } }),
      owner.api.get(`${base}/versions/1.0.0/platforms`),
      owner.api.get(`${base}/versions/1.0.0/platforms/linux/amd64`),
      owner.api.delete(`${base}/versions/1.0.0/platforms/linux/amd64`),
    ];
    for (const res of await Promise.all(requests)) {
      expect(res.status).toBe(403);
      expect(res.body).toEqual({
        errors: [
          {
            status: '403',
            title: 'forbidden',
            detail: 'versions and platforms are not available for public providers',
          },
        ],
      });
    }
    const reader = await memberWith(t, admin, owner, org, []);
    await reader.api.get(`${base}/versions`).expect(403);
    const outsider = await createUser(t, admin);
    await outsider.api.get(`${base}/versions`).expect(404);
  });

  it('hides versions of another organization behind 404, even from its own owners', async () => {
    const { base } = await freshProvider();
    await createVersion(owner, base, '1.0.0', KEY_ID);
    const otherOwner = await createUser(t, admin);
    await createOrganization(otherOwner);
    await otherOwner.api.get(`${base}/versions`).expect(404);
    await otherOwner.api.get(`${base}/versions/1.0.0`).expect(404);
    await otherOwner.api.post(`${base}/versions`, versionBody({ ...valid, version: '2.0.0' })).expect(404);
    await otherOwner.api.delete(`${base}/versions/1.0.0`).expect(404);
    await owner.api.get(`${base}/versions/1.0.0`).expect(200);
  });

  it('lets members read with no rights shown, and lets only owners and manage-providers teams write', async () => {
    const { base } = await freshProvider();
    await createVersion(owner, base, '1.0.0', KEY_ID);
    const reader = await memberWith(t, admin, owner, org, ['manage-workspaces']);
    const manager = await memberWith(t, admin, owner, org, ['manage-providers']);

    const read = await reader.api.get(`${base}/versions/1.0.0`).expect(200);
    expect(read.body.data.attributes.permissions).toEqual({ 'can-delete': false, 'can-upload-asset': false });
    // Upload links are capabilities: a reader who may not upload is not handed them.
    expect(read.body.data.links).toEqual({ self: `${base}/versions/1.0.0` });
    const listed = await reader.api.get(`${base}/versions`).expect(200);
    expect(listed.body.data[0].attributes.permissions).toEqual({
      'can-delete': false,
      'can-upload-asset': false,
    });
    await reader.api.post(`${base}/versions`, versionBody({ ...valid, version: '2.0.0' })).expect(404);
    await reader.api.delete(`${base}/versions/1.0.0`).expect(404);

    const created = await manager.api
      .post(`${base}/versions`, versionBody({ ...valid, version: '2.0.0' }))
      .expect(201);
    expect(created.body.data.attributes.permissions).toEqual({
      'can-delete': true,
      'can-upload-asset': true,
    });
    await manager.api.delete(`${base}/versions/2.0.0`).expect(204);
  });

  it('deletes a version with 204 and frees its number', async () => {
    const { base } = await freshProvider();
    await createVersion(owner, base, '1.0.0', KEY_ID);
    const res = await owner.api.delete(`${base}/versions/1.0.0`).expect(204);
    expect(res.text).toBe('');
    await owner.api.get(`${base}/versions/1.0.0`).expect(404);
    await createVersion(owner, base, '1.0.0', KEY_ID);
  });
});
