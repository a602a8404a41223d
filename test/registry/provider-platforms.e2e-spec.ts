import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import {
  Actor,
  createUser,
  expectPagination,
  idOf,
  memberWith,
  unique,
  startWithOwnedOrganization,
} from '../helpers/fixtures';
import { TestApp } from '../helpers/test-app';
import {
  createKey,
  createPlatform,
  createProvider,
  createVersion,
  fakeZip,
  fetchLink,
  generateSigningKey,
  providerBase,
  publish,
  put,
  sha256,
  SigningKey,
} from './registry-helpers';

const UPLOAD_LINK = /^http:\/\/127\.0\.0\.1:\d+\/uploads\/[\w-]+\.[\w-]+$/;
const SHA = 'ab'.repeat(32);

describe('registry provider platforms', () => {
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

  /** A provider with version 1.0.0; returns the version's platforms path. */
  async function freshVersion(): Promise<{ base: string; platforms: string; versionId: string }> {
    const name = unique('prov');
    await createProvider(owner, org, name);
    const base = providerBase(org, name);
    const version = await createVersion(owner, base, '1.0.0', key.keyId);
    return { base, platforms: `${base}/versions/1.0.0/platforms`, versionId: version.id };
  }

  const platformBody = (attributes: Record<string, unknown>, type?: unknown) => ({
    data: { ...(type === undefined ? {} : { type }), attributes },
  });
  const linux = {
    os: 'linux',
    arch: 'amd64',
    shasum: SHA,
    filename: 'terraform-provider-x_1.0.0_linux_amd64.zip',
  };

  it('creates a platform with the contract shape and a binary upload link', async () => {
    const { platforms, versionId } = await freshVersion();
    const res = await owner.api
      .post(platforms, platformBody(linux, 'registry-provider-platforms'))
      .expect(201);
    expect(res.body).toEqual({
      data: {
        id: expect.stringMatching(idOf('provpltfrm')),
        type: 'registry-provider-platforms',
        attributes: {
          os: 'linux',
          arch: 'amd64',
          filename: linux.filename,
          shasum: SHA,
          permissions: { 'can-delete': true, 'can-upload-asset': true },
          'provider-binary-uploaded': false,
        },
        relationships: {
          'registry-provider-version': { data: { id: versionId, type: 'registry-provider-versions' } },
        },
        links: {
          self: `${platforms}/linux/amd64`,
          'provider-binary-upload': expect.stringMatching(UPLOAD_LINK),
        },
      },
    });
    expect(res.headers.location).toBe(`${platforms}/linux/amd64`);
    const shown = await owner.api.get(res.headers.location).expect(200);
    expect(shown.body).toEqual(res.body);
  });

  it.each([
    ['registry-provider-platforms', 'registry-provider-platforms'],
    ['registry-provider-version-platforms', 'registry-provider-version-platforms'],
    ['no type', undefined],
    ['an empty type', ''],
  ])('accepts %s as the body type', async (_, type) => {
    const { platforms } = await freshVersion();
    const res = await owner.api.post(platforms, platformBody(linux, type)).expect(201);
    expect(res.body.data.type).toBe('registry-provider-platforms');
  });

  it('refuses another body type', async () => {
    const { platforms } = await freshVersion();
    const res = await owner.api.post(platforms, platformBody(linux, 'platforms')).expect(409);
    expect(res.body.errors[0]).toEqual({
      status: '409',
      title: 'conflict',
      detail: 'Type must be registry-provider-platforms or registry-provider-version-platforms',
      source: { pointer: '/data/type' },
    });
  });

  it('reports every missing attribute at once', async () => {
    const { platforms } = await freshVersion();
    const res = await owner.api.post(platforms, platformBody({})).expect(422);
    expect(
      res.body.errors.map((e: { detail: string; source: { pointer: string } }) => [
        e.detail,
        e.source.pointer,
      ]),
    ).toEqual([
      ["Os can't be blank", '/data/attributes/os'],
      ["Arch can't be blank", '/data/attributes/arch'],
      ["Shasum can't be blank", '/data/attributes/shasum'],
      ["Filename can't be blank", '/data/attributes/filename'],
    ]);
  });

  it.each([
    ['an unknown os', { os: 'foo' }, 'Os is not included in the list'],
    ['a capitalised os', { os: 'Linux' }, 'Os is not included in the list'],
    ['an unknown arch', { arch: 'scrimbles' }, 'Arch is not included in the list'],
    ['a non-Go arch name', { arch: 'x86_64' }, 'Arch is not included in the list'],
    ['a number as os', { os: 3 }, 'Os must be a string'],
    [
      'a 256-character filename',
      { filename: 'f'.repeat(256) },
      'Filename is too long (maximum is 255 characters)',
    ],
  ])('refuses %s', async (_, override, detail) => {
    const { platforms } = await freshVersion();
    const res = await owner.api.post(platforms, platformBody({ ...linux, ...override })).expect(422);
    expect(res.body.errors.map((e: { detail: string }) => e.detail)).toEqual([detail]);
  });

  it.each([
    ['darwin', 'arm64'],
    ['windows', '386'],
    ['freebsd', 'arm'],
    ['openbsd', 'amd64'],
  ])('accepts the Go platform %s/%s', async (os, arch) => {
    const { platforms } = await freshVersion();
    await owner.api.post(platforms, platformBody({ ...linux, os, arch })).expect(201);
  });

  it('allows one platform per os and arch in a version', async () => {
    const { platforms } = await freshVersion();
    await owner.api.post(platforms, platformBody(linux)).expect(201);
    const res = await owner.api
      .post(platforms, platformBody({ ...linux, filename: 'other.zip' }))
      .expect(422);
    expect(res.body.errors).toEqual([
      {
        status: '422',
        title: 'invalid attribute',
        code: 'PLATFORM_TAKEN',
        detail: 'A platform for linux/amd64 already exists for this version',
        source: { pointer: '/data/attributes/os' },
      },
    ]);
    await owner.api.post(platforms, platformBody({ ...linux, arch: 'arm64' })).expect(201);
  });

  it('lists platforms paginated and shows them in the version relationship', async () => {
    const { base, platforms } = await freshVersion();
    const ids: string[] = [];
    for (const arch of ['amd64', 'arm64', '386']) {
      ids.push((await createPlatform(owner, base, '1.0.0', { ...linux, arch })).id);
    }
    const page = await owner.api.get(`${platforms}?page%5Bsize%5D=2`).expect(200);
    expect(page.body.data.map((p: { id: string }) => p.id)).toEqual(ids.slice(0, 2));
    expectPagination(page.body, { current: 1, size: 2, prev: null, next: 2, pages: 2, count: 3 });
    const version = await owner.api.get(`${base}/versions/1.0.0`).expect(200);
    expect(version.body.data.relationships.platforms.data).toEqual(
      ids.map((id) => ({ id, type: 'registry-provider-platforms' })),
    );
  });

  it('answers 404 for an unknown platform or version', async () => {
    const { base, platforms } = await freshVersion();
    await owner.api.get(`${platforms}/linux/amd64`).expect(404);
    await owner.api.get(`${base}/versions/2.0.0/platforms`).expect(404);
    await owner.api.post(`${base}/versions/2.0.0/platforms`, platformBody(linux)).expect(404);
    await owner.api.delete(`${platforms}/linux/amd64`).expect(404);
  });

  it('lets members read and only owners and manage-providers teams add and delete', async () => {
    const { platforms } = await freshVersion();
    await owner.api.post(platforms, platformBody(linux)).expect(201);
    const reader = await memberWith(t, admin, owner, org, []);
    const manager = await memberWith(t, admin, owner, org, ['manage-providers']);
    const outsider = await createUser(t, admin);

    const read = await reader.api.get(`${platforms}/linux/amd64`).expect(200);
    expect(read.body.data.attributes.permissions).toEqual({ 'can-delete': false, 'can-upload-asset': false });
    expect(read.body.data.links).toEqual({ self: `${platforms}/linux/amd64` });
    await reader.api.get(platforms).expect(200);
    await reader.api.post(platforms, platformBody({ ...linux, arch: 'arm64' })).expect(404);
    await reader.api.delete(`${platforms}/linux/amd64`).expect(404);
    await outsider.api.get(platforms).expect(404);

    await manager.api.post(platforms, platformBody({ ...linux, arch: 'arm64' })).expect(201);
    await manager.api.delete(`${platforms}/linux/arm64`).expect(204);
  });

  it('deletes a platform with its binary, and the version stops being usable without it', async () => {
    const name = unique('plat');
    const providerId = await createProvider(owner, org, name);
    const base = providerBase(org, name);
    const release = await publish(owner, base, name, '1.0.0', key);
    const consumer = `/api/registry/v1/providers/${org}/${name}/versions`;
    expect((await owner.api.get(consumer).expect(200)).body.versions).toHaveLength(1);
    const platform = await owner.api.get(`${base}/versions/1.0.0/platforms/linux/amd64`).expect(200);
    const download = platform.body.data.links['provider-binary-download'];
    await fetchLink(download).expect(200);

    await owner.api.delete(`${base}/versions/1.0.0/platforms/linux/amd64`).expect(204);
    await owner.api.get(`${base}/versions/1.0.0/platforms/linux/amd64`).expect(404);
    await fetchLink(download).expect(404);
    expect(
      existsSync(
        join(t.config.dataDir, 'blobs', 'registry', providerId, release.versionId, release.platformId),
      ),
    ).toBe(false);
    expect((await owner.api.get(consumer).expect(200)).body).toEqual({ versions: [] });
    const version = await owner.api.get(`${base}/versions/1.0.0`).expect(200);
    expect(version.body.data.relationships.platforms.data).toEqual([]);
  });

  it.each([
    [
      'characters above U+00FF',
      'provider_日本語.zip',
      `attachment; filename="provider_???.zip"; filename*=UTF-8''provider_%E6%97%A5%E6%9C%AC%E8%AA%9E.zip`,
    ],
    [
      'control characters',
      'provider\u0001\u007f.zip',
      `attachment; filename="provider??.zip"; filename*=UTF-8''provider%01%7F.zip`,
    ],
    ['a quote and Latin-1 letters', 'prövider"x.zip', `attachment; filename="prövider\\"x.zip"`],
  ])('serves a binary whose filename has %s, naming it per RFC 6266', async (_what, filename, header) => {
    const { base, platforms } = await freshVersion();
    const binary = fakeZip(filename);
    const created = await createPlatform(owner, base, '1.0.0', {
      os: 'linux',
      arch: 'amd64',
      shasum: sha256(binary),
      filename,
    });
    await put(created.links['provider-binary-upload'], binary).expect(200);
    const platform = await owner.api.get(`${platforms}/linux/amd64`).expect(200);
    expect(platform.body.data.attributes.filename).toBe(filename);
    const download = platform.body.data.links['provider-binary-download'];
    const got = await fetchLink(download).expect(200);
    expect(Buffer.compare(got.body as Buffer, binary)).toBe(0);
    expect(got.headers['content-disposition']).toBe(header);
    expect(got.headers['content-type']).toBe('application/zip');
    const head = await fetchLink(download, 'head').expect(200);
    expect(head.headers['content-disposition']).toBe(header);
  });

  it('deletes a version with its platforms and every stored file', async () => {
    const name = unique('vdel');
    const providerId = await createProvider(owner, org, name);
    const base = providerBase(org, name);
    const release = await publish(owner, base, name, '1.0.0', key);
    const versionDir = join(t.config.dataDir, 'blobs', 'registry', providerId, release.versionId);
    expect(readdirSync(versionDir).length).toBeGreaterThan(0);
    const version = await owner.api.get(`${base}/versions/1.0.0`).expect(200);

    await owner.api.delete(`${base}/versions/1.0.0`).expect(204);
    expect(existsSync(versionDir)).toBe(false);
    await owner.api.get(`${base}/versions/1.0.0/platforms`).expect(404);
    await fetchLink(version.body.data.links['shasums-download']).expect(404);
    expect(
      (await owner.api.get(`/api/registry/v1/providers/${org}/${name}/versions`).expect(200)).body,
    ).toEqual({
      versions: [],
    });
  });
});
