import { existsSync, readdirSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import request from 'supertest';
import {
  Actor,
  bootstrapAdmin,
  createOrganization,
  createUser,
  unique,
  startWithOwnedOrganization,
} from '../helpers/fixtures';
import { startApp, TestApp } from '../helpers/test-app';
import {
  createKey,
  createPlatform,
  createProvider,
  createVersion,
  fakeZip,
  fetchLink,
  generateSigningKey,
  providerBase,
  put,
  sha256,
  shasumsOf,
  signDetached,
  SigningKey,
} from './registry-helpers';

const SIGNED_LINK = /^http:\/\/127\.0\.0\.1:\d+\/uploads\/[\w-]+\.[\w-]+$/;

/** Every file stored under a directory, recursively (the filesystem blob store's layout). */
function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? filesUnder(join(dir, e.name)) : [join(dir, e.name)],
  );
}

describe('registry uploads and downloads', () => {
  let t: TestApp;
  let owner: Actor;
  let org: string;
  let key: SigningKey;

  beforeAll(async () => {
    ({ t, owner, org } = await startWithOwnedOrganization());
    key = await generateSigningKey();
    await createKey(owner, org, key);
  });
  afterAll(() => t.close());

  async function freshVersion(keyId = key.keyId) {
    const name = unique('up');
    const providerId = await createProvider(owner, org, name);
    const base = providerBase(org, name);
    const version = await createVersion(owner, base, '1.0.0', keyId);
    const filename = `terraform-provider-${name}_1.0.0_linux_amd64.zip`;
    const binary = fakeZip(name);
    const sums = shasumsOf({ [filename]: binary });
    const versionDir = join(t.config.dataDir, 'blobs', 'registry', providerId, version.id);
    return { name, base, version, filename, binary, sums, versionDir, show: `${base}/versions/1.0.0` };
  }

  it('switches the version links from upload to download file by file, and serves the exact bytes', async () => {
    const v = await freshVersion();
    const res = await put(v.version.links['shasums-upload'], v.sums).expect(200);
    expect(res.text).toBe('');
    const afterSums = await owner.api.get(v.show).expect(200);
    expect(afterSums.body.data.attributes).toMatchObject({
      'shasums-uploaded': true,
      'shasums-sig-uploaded': false,
    });
    expect(afterSums.body.data.links).toEqual({
      self: v.show,
      'shasums-download': expect.stringMatching(SIGNED_LINK),
      'shasums-sig-upload': expect.stringMatching(SIGNED_LINK),
    });

    const signature = await signDetached(v.sums, key, true);
    await put(v.version.links['shasums-sig-upload'], signature).expect(200);
    const afterBoth = await owner.api.get(v.show).expect(200);
    expect(afterBoth.body.data.attributes).toMatchObject({
      'shasums-uploaded': true,
      'shasums-sig-uploaded': true,
    });
    expect(Object.keys(afterBoth.body.data.links).sort()).toEqual([
      'self',
      'shasums-download',
      'shasums-sig-download',
    ]);

    const sums = await fetchLink(afterBoth.body.data.links['shasums-download']).expect(200);
    expect(Buffer.compare(sums.body as Buffer, v.sums)).toBe(0);
    const sig = await fetchLink(afterBoth.body.data.links['shasums-sig-download']).expect(200);
    expect(Buffer.compare(sig.body as Buffer, signature)).toBe(0);
    const head = await fetchLink(afterBoth.body.data.links['shasums-sig-download'], 'head').expect(200);
    expect(head.headers['content-length']).toBe(String(signature.length));
    expect(head.headers['content-disposition']).toBe(
      `attachment; filename="terraform-provider-${v.name}_1.0.0_SHA256SUMS.sig"`,
    );
  });

  it('switches the platform link once its binary is uploaded', async () => {
    const v = await freshVersion();
    const platform = await createPlatform(owner, v.base, '1.0.0', {
      os: 'darwin',
      arch: 'arm64',
      shasum: sha256(v.binary).toUpperCase(),
      filename: v.filename,
    });
    await put(platform.links['provider-binary-upload'], v.binary).expect(200);
    const shown = await owner.api.get(`${v.show}/platforms/darwin/arm64`).expect(200);
    expect(shown.body.data.attributes['provider-binary-uploaded']).toBe(true);
    expect(shown.body.data.links).toEqual({
      self: `${v.show}/platforms/darwin/arm64`,
      'provider-binary-download': expect.stringMatching(SIGNED_LINK),
    });
    const got = await fetchLink(shown.body.data.links['provider-binary-download']).expect(200);
    expect(Buffer.compare(got.body as Buffer, v.binary)).toBe(0);
    const head = await fetchLink(shown.body.data.links['provider-binary-download'], 'head').expect(200);
    expect(head.headers['content-length']).toBe(String(v.binary.length));
    expect(head.text).toBeUndefined();
  });

  it('answers a reused link with 409 and keeps the first upload', async () => {
    const v = await freshVersion();
    await put(v.version.links['shasums-upload'], v.sums).expect(200);
    const res = await put(
      v.version.links['shasums-upload'],
      shasumsOf({ 'other.zip': Buffer.from('x') }),
    ).expect(409);
    expect(res.body).toEqual({
      errors: [
        {
          status: '409',
          title: 'conflict',
          code: 'SHASUMS_ALREADY_UPLOADED',
          detail: 'SHA256SUMS has already been uploaded for this version',
        },
      ],
    });
    const shown = await owner.api.get(v.show).expect(200);
    const got = await fetchLink(shown.body.data.links['shasums-download']).expect(200);
    expect(Buffer.compare(got.body as Buffer, v.sums)).toBe(0);
    expect(filesUnder(v.versionDir)).toHaveLength(1);

    const platform = await createPlatform(owner, v.base, '1.0.0', {
      os: 'linux',
      arch: 'amd64',
      shasum: sha256(v.binary),
      filename: v.filename,
    });
    await put(platform.links['provider-binary-upload'], v.binary).expect(200);
    await put(platform.links['provider-binary-upload'], v.binary).expect(409);
    const signature = await signDetached(v.sums, key);
    await put(v.version.links['shasums-sig-upload'], signature).expect(200);
    await put(v.version.links['shasums-sig-upload'], signature).expect(409);
  });

  it('accepts one of two racing uploads to the same link and refuses the other without overwriting', async () => {
    const v = await freshVersion();
    const other = shasumsOf({ 'another.zip': Buffer.from('another') });
    const results = await Promise.all([
      put(v.version.links['shasums-upload'], v.sums),
      put(v.version.links['shasums-upload'], other),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    const winner = results[0].status === 200 ? v.sums : other;
    const shown = await owner.api.get(v.show).expect(200);
    const got = await fetchLink(shown.body.data.links['shasums-download']).expect(200);
    expect(Buffer.compare(got.body as Buffer, winner)).toBe(0);
    expect(filesUnder(v.versionDir)).toHaveLength(1);
  });

  it.each([
    ['prose', Buffer.from('hello world\n')],
    ['a truncated hash', Buffer.from(`${'a'.repeat(40)}  file.zip\n`)],
    ['an empty file', Buffer.alloc(0)],
  ])('refuses a SHA256SUMS that is %s with 422, keeping nothing', async (_, body) => {
    const v = await freshVersion();
    const res = await put(v.version.links['shasums-upload'], body).expect(422);
    expect(res.body.errors[0]).toMatchObject({ status: '422', title: 'invalid attribute' });
    expect(res.body.errors[0].detail).toMatch(/^SHA256SUMS /);
    expect(filesUnder(v.versionDir)).toEqual([]);
    expect((await owner.api.get(v.show).expect(200)).body.data.attributes['shasums-uploaded']).toBe(false);
    await put(v.version.links['shasums-upload'], v.sums).expect(200);
  });

  it('refuses a signature that is not an OpenPGP signature', async () => {
    const v = await freshVersion();
    const res = await put(v.version.links['shasums-sig-upload'], Buffer.from('signed, trust me')).expect(422);
    expect(res.body.errors[0].detail).toBe('The signature is not an OpenPGP detached signature');
    expect(filesUnder(v.versionDir)).toEqual([]);
  });

  it('refuses a binary whose SHA-256 differs from the platform shasum, keeping nothing', async () => {
    const v = await freshVersion();
    const platform = await createPlatform(owner, v.base, '1.0.0', {
      os: 'linux',
      arch: 'amd64',
      shasum: sha256(v.binary),
      filename: v.filename,
    });
    const res = await put(platform.links['provider-binary-upload'], Buffer.from('tampered')).expect(422);
    expect(res.body.errors[0].detail).toBe(
      `The binary's SHA-256 (${sha256(Buffer.from('tampered'))}) does not match the platform's shasum`,
    );
    expect(filesUnder(v.versionDir)).toEqual([]);
    await put(platform.links['provider-binary-upload'], v.binary).expect(200);
  });

  it('verifies the pair when SHA256SUMS arrives after its signature, refusing the SHA256SUMS on a mismatch', async () => {
    const v = await freshVersion();
    await put(v.version.links['shasums-sig-upload'], await signDetached(v.sums, key)).expect(200);
    const tampered = shasumsOf({ [v.filename]: Buffer.from('something else') });
    const res = await put(v.version.links['shasums-upload'], tampered).expect(422);
    expect(res.body.errors[0].detail).toBe(
      `The signature does not verify SHA256SUMS with the key ${key.keyId}`,
    );
    const shown = await owner.api.get(v.show).expect(200);
    expect(shown.body.data.attributes).toMatchObject({
      'shasums-uploaded': false,
      'shasums-sig-uploaded': true,
    });
    await put(v.version.links['shasums-upload'], v.sums).expect(200);
  });

  it('checks the pair when SHA256SUMS and its signature race: a good pair is accepted and verified', async () => {
    const v = await freshVersion();
    const results = await Promise.all([
      put(v.version.links['shasums-upload'], v.sums),
      put(v.version.links['shasums-sig-upload'], await signDetached(v.sums, key)),
    ]);
    expect(results.map((r) => r.status)).toEqual([200, 200]);
    const shown = await owner.api.get(v.show).expect(200);
    expect(shown.body.data.attributes).toMatchObject({
      'shasums-uploaded': true,
      'shasums-sig-uploaded': true,
    });
  });

  it('checks the pair when SHA256SUMS and its signature race: of a bad pair, the one arriving second is refused', async () => {
    const v = await freshVersion();
    const stranger = await generateSigningKey('racer');
    const results = await Promise.all([
      put(v.version.links['shasums-upload'], v.sums),
      put(v.version.links['shasums-sig-upload'], await signDetached(v.sums, stranger)),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 422]);
    const shown = await owner.api.get(v.show).expect(200);
    const flags = [
      shown.body.data.attributes['shasums-uploaded'],
      shown.body.data.attributes['shasums-sig-uploaded'],
    ];
    expect(flags.filter(Boolean)).toHaveLength(1);
    expect(filesUnder(v.versionDir)).toHaveLength(1);
  });

  it('accepts any signature file when the namespace does not store the named key', async () => {
    const v = await freshVersion('0123456789ABCDEF');
    const stranger = await generateSigningKey('stranger');
    await put(v.version.links['shasums-upload'], v.sums).expect(200);
    await put(v.version.links['shasums-sig-upload'], await signDetached(v.sums, stranger)).expect(200);
  });

  it('needs no Authorization header and ignores one that is sent', async () => {
    const v = await freshVersion();
    const url = new URL(v.version.links['shasums-upload']);
    await request(url.origin)
      .put(url.pathname)
      .set('Authorization', 'Bearer not-a-token')
      .send(v.sums)
      .expect(200);
  });

  it('answers a forged or unknown link with 404', async () => {
    const v = await freshVersion();
    const link = v.version.links['shasums-upload'];
    await put(`${link.slice(0, -4)}AAAA`, v.sums).expect(404);
    await owner.api.delete(v.show).expect(204);
    await put(link, v.sums).expect(404);
  });

  describe('with small size limits', () => {
    let small: TestApp;
    let smallOwner: Actor;
    let smallOrg: string;

    beforeAll(async () => {
      small = await startApp({
        MAX_SHASUMS_BYTES: '200',
        MAX_SIGNATURE_BYTES: '100',
        MAX_PROVIDER_BINARY_BYTES: '1000',
      });
      const smallAdmin = await bootstrapAdmin(small);
      smallOwner = await createUser(small, smallAdmin);
      smallOrg = await createOrganization(smallOwner);
    });
    afterAll(() => small.close());

    it('refuses oversized files with 413 and keeps nothing', async () => {
      const name = unique('big');
      await createProvider(smallOwner, smallOrg, name);
      const base = providerBase(smallOrg, name);
      const version = await createVersion(smallOwner, base, '1.0.0', key.keyId);
      const binary = Buffer.alloc(1001, 1);
      const platform = await createPlatform(smallOwner, base, '1.0.0', {
        os: 'linux',
        arch: 'amd64',
        shasum: sha256(binary),
        filename: 'big.zip',
      });
      const cases: [string, Buffer][] = [
        [version.links['shasums-upload'], Buffer.alloc(201, 0x61)],
        [version.links['shasums-sig-upload'], Buffer.alloc(101, 1)],
        [platform.links['provider-binary-upload'], binary],
      ];
      for (const [link, bytes] of cases) {
        const res = await put(link, bytes).expect(413);
        expect(res.body.errors[0]).toMatchObject({ status: '413', title: 'payload too large' });
      }
      const shown = await smallOwner.api.get(`${base}/versions/1.0.0`).expect(200);
      expect(shown.body.data.attributes).toMatchObject({
        'shasums-uploaded': false,
        'shasums-sig-uploaded': false,
      });
      const plat = await smallOwner.api.get(`${base}/versions/1.0.0/platforms/linux/amd64`).expect(200);
      expect(plat.body.data.attributes['provider-binary-uploaded']).toBe(false);
      expect(filesUnder(join(small.config.dataDir, 'blobs', 'registry'))).toEqual([]);
    });

    it('refuses a body streamed without Content-Length once it passes the cap', async () => {
      const name = unique('chunked');
      await createProvider(smallOwner, smallOrg, name);
      const base = providerBase(smallOrg, name);
      const version = await createVersion(smallOwner, base, '1.0.0', key.keyId);
      const url = new URL(version.links['shasums-upload']);
      const status = await new Promise<number>((resolve, reject) => {
        const req = httpRequest(
          { host: url.hostname, port: url.port, path: url.pathname, method: 'PUT' },
          (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          },
        );
        req.on('error', reject);
        for (let i = 0; i < 5; i++) req.write(Buffer.alloc(100, 0x61));
        req.end();
      });
      expect(status).toBe(413);
      expect(filesUnder(join(small.config.dataDir, 'blobs', 'registry'))).toEqual([]);
    });
  });
});
