import request from 'supertest';
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
  createKey,
  createProvider,
  fetchLink,
  generateSigningKey,
  providerBase,
  publish,
  put,
  sha256,
  signDetached,
  SigningKey,
} from './registry-helpers';

describe('provider registry protocol (consumer side)', () => {
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

  const versionsPath = (name: string, namespace = org) =>
    `/api/registry/v1/providers/${namespace}/${name}/versions`;
  const downloadPath = (name: string, version: string, os = 'linux', arch = 'amd64') =>
    `/api/registry/v1/providers/${org}/${name}/${version}/download/${os}/${arch}`;

  it('advertises the registry and the API in the public discovery document', async () => {
    const res = await request(t.origin).get('/.well-known/terraform.json').expect(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body).toEqual({
      'login.v1': expect.objectContaining({ client: 'terraform-cli' }),
      'modules.v1': '/api/registry/v1/modules/',
      'providers.v1': '/api/registry/v1/providers/',
      'tfe.v2': '/api/v2/',
      'tfe.v2.1': '/api/v2/',
      'tfe.v2.2': '/api/v2/',
    });
  });

  it('serves a fully published version end to end: listed, described, and its files fetchable byte for byte', async () => {
    const name = unique('aws');
    const base = providerBase(org, name);
    await createProvider(owner, org, name);
    const release = await publish(owner, base, name, '1.2.3', key);

    const list = await owner.api.get(versionsPath(name)).expect(200);
    expect(list.headers['content-type']).toMatch(/^application\/json/);
    expect(list.body).toEqual({
      versions: [
        { version: '1.2.3', protocols: ['5.0', '6.0'], platforms: [{ os: 'linux', arch: 'amd64' }] },
      ],
    });

    const dl = await owner.api.get(downloadPath(name, '1.2.3')).expect(200);
    expect(dl.body).toEqual({
      protocols: ['5.0', '6.0'],
      os: 'linux',
      arch: 'amd64',
      filename: release.filename,
      download_url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/uploads\/[\w-]+\.[\w-]+$/),
      shasums_url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/uploads\//),
      shasums_signature_url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/uploads\//),
      shasum: sha256(release.binary),
      signing_keys: { gpg_public_keys: [{ key_id: key.keyId, ascii_armor: key.publicKey }] },
    });

    const files: [string, Buffer, string][] = [
      [dl.body.download_url, release.binary, 'application/zip'],
      [dl.body.shasums_url, release.sums, 'text/plain; charset=utf-8'],
      [dl.body.shasums_signature_url, release.signature, 'application/octet-stream'],
    ];
    for (const [link, bytes, type] of files) {
      const got = await fetchLink(link).expect(200);
      expect(Buffer.compare(got.body as Buffer, bytes)).toBe(0);
      expect(got.headers['content-type']).toBe(type);
      const head = await fetchLink(link, 'head').expect(200);
      expect(head.headers['content-length']).toBe(String(bytes.length));
      expect(head.headers['content-type']).toBe(type);
    }
    const named = await fetchLink(dl.body.download_url, 'head').expect(200);
    expect(named.headers['content-disposition']).toBe(`attachment; filename="${release.filename}"`);
  });

  it('leaves out a version whose binary does not match its platform shasum (the upload is refused)', async () => {
    const name = unique('wrongsum');
    const base = providerBase(org, name);
    await createProvider(owner, org, name);
    await publish(owner, base, name, '1.0.0', key, { binary: false });
    const platform = await owner.api.get(`${base}/versions/1.0.0/platforms/linux/amd64`).expect(200);
    await put(platform.body.data.links['provider-binary-upload'], Buffer.from('not the archive')).expect(422);
    const after = await owner.api.get(`${base}/versions/1.0.0/platforms/linux/amd64`).expect(200);
    expect(after.body.data.attributes['provider-binary-uploaded']).toBe(false);
    expect((await owner.api.get(versionsPath(name)).expect(200)).body).toEqual({ versions: [] });
    await owner.api.get(downloadPath(name, '1.0.0')).expect(404);
  });

  it('leaves out a version whose SHA256SUMS lists another checksum for the binary', async () => {
    const name = unique('mismatch');
    const base = providerBase(org, name);
    await createProvider(owner, org, name);
    const filename = `terraform-provider-${name}_2.0.0_linux_amd64.zip`;
    const binary = Buffer.from('the real archive');
    const sums = Buffer.from(`${'0'.repeat(64)}  ${filename}\n`);
    const version = await owner.api
      .post(`${base}/versions`, {
        data: {
          type: 'registry-provider-versions',
          attributes: { version: '2.0.0', 'key-id': key.keyId, protocols: ['5.0'] },
        },
      })
      .expect(201);
    await put(version.body.data.links['shasums-upload'], sums).expect(200);
    await put(version.body.data.links['shasums-sig-upload'], await signDetached(sums, key)).expect(200);
    const platform = await owner.api
      .post(`${base}/versions/2.0.0/platforms`, {
        data: {
          type: 'registry-provider-platforms',
          attributes: { os: 'linux', arch: 'amd64', shasum: sha256(binary), filename },
        },
      })
      .expect(201);
    await put(platform.body.data.links['provider-binary-upload'], binary).expect(200);
    expect((await owner.api.get(versionsPath(name)).expect(200)).body).toEqual({ versions: [] });
  });

  it('leaves out a version whose signature was made by another key (the upload is refused)', async () => {
    const name = unique('badsig');
    const base = providerBase(org, name);
    await createProvider(owner, org, name);
    const stranger = await generateSigningKey('stranger');
    const release = await publish(owner, base, name, '1.0.0', key, { signature: false, signWith: stranger });
    const version = await owner.api.get(`${base}/versions/1.0.0`).expect(200);
    const res = await put(version.body.data.links['shasums-sig-upload'], release.signature).expect(422);
    expect(res.body.errors[0].detail).toBe(
      `The signature does not verify SHA256SUMS with the key ${key.keyId}`,
    );
    const after = await owner.api.get(`${base}/versions/1.0.0`).expect(200);
    expect(after.body.data.attributes['shasums-sig-uploaded']).toBe(false);
    expect((await owner.api.get(versionsPath(name)).expect(200)).body).toEqual({ versions: [] });
  });

  it('leaves out a version whose platform binary was never uploaded', async () => {
    const name = unique('nobinary');
    await createProvider(owner, org, name);
    await publish(owner, providerBase(org, name), name, '1.0.0', key, { binary: false });
    expect((await owner.api.get(versionsPath(name)).expect(200)).body).toEqual({ versions: [] });
    await owner.api.get(downloadPath(name, '1.0.0')).expect(404);
  });

  it('leaves out a version missing its signature, and lists it once the signature arrives', async () => {
    const name = unique('late');
    const base = providerBase(org, name);
    await createProvider(owner, org, name);
    const release = await publish(owner, base, name, '3.0.0', key, { signature: false });
    expect((await owner.api.get(versionsPath(name)).expect(200)).body).toEqual({ versions: [] });
    const version = await owner.api.get(`${base}/versions/3.0.0`).expect(200);
    await put(version.body.data.links['shasums-sig-upload'], release.signature).expect(200);
    expect((await owner.api.get(versionsPath(name)).expect(200)).body.versions).toHaveLength(1);
  });

  it('drops a listed version when a key that rejects its signature is stored, and lists it again once that key is gone', async () => {
    const other = await createOrganization(owner);
    const name = unique('rekey');
    const base = providerBase(other, name);
    await createProvider(owner, other, name);
    const [named, actualSigner] = await Promise.all([
      generateSigningKey('named'),
      generateSigningKey('actual'),
    ]);
    // The version names one key but its signature comes from another; with no key stored, nothing can tell.
    await publish(owner, base, name, '1.0.0', named, { signWith: actualSigner });
    const path = `/api/registry/v1/providers/${other}/${name}/versions`;
    const download = `/api/registry/v1/providers/${other}/${name}/1.0.0/download/linux/amd64`;
    expect((await owner.api.get(path).expect(200)).body.versions).toHaveLength(1);
    expect((await owner.api.get(download).expect(200)).body.signing_keys).toEqual({ gpg_public_keys: [] });

    await createKey(owner, other, named);
    expect((await owner.api.get(path).expect(200)).body).toEqual({ versions: [] });
    await owner.api.get(download).expect(404);

    await owner.api.delete(`/api/registry/private/v2/gpg-keys/${other}/${named.keyId}`).expect(204);
    expect((await owner.api.get(path).expect(200)).body.versions).toHaveLength(1);
  });

  it('answers a repeated read exactly as the first time (the second from the response cache)', async () => {
    const other = await createOrganization(owner);
    const name = unique('repeat');
    await createProvider(owner, other, name);
    const signer = await generateSigningKey('signer');
    await createKey(owner, other, signer);
    await publish(owner, providerBase(other, name), name, '1.0.0', signer);
    const path = `/api/registry/v1/providers/${other}/${name}`;
    for (const url of [`${path}/versions`, `${path}/1.0.0/download/linux/amd64`]) {
      const first = await owner.api.get(url).expect(200);
      const second = await owner.api.get(url).expect(200);
      expect(second.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(second.headers['content-type']).toBe(first.headers['content-type']);
      expect(second.text).toBe(first.text);
    }
  });

  it('keeps a listed version when the key stored later confirms its signature, and names that key', async () => {
    const other = await createOrganization(owner);
    const name = unique('confirm');
    await createProvider(owner, other, name);
    const signer = await generateSigningKey('signer');
    await publish(owner, providerBase(other, name), name, '1.0.0', signer);
    await createKey(owner, other, signer);
    const path = `/api/registry/v1/providers/${other}/${name}`;
    expect((await owner.api.get(`${path}/versions`).expect(200)).body.versions).toHaveLength(1);
    const dl = await owner.api.get(`${path}/1.0.0/download/linux/amd64`).expect(200);
    expect(dl.body.signing_keys).toEqual({
      gpg_public_keys: [{ key_id: signer.keyId, ascii_armor: signer.publicKey }],
    });
  });

  it('answers unknown providers, versions and platforms with the registry error shape', async () => {
    const name = unique('known');
    await createProvider(owner, org, name);
    for (const path of [
      versionsPath('nope'),
      versionsPath(name, 'no-such-org'),
      downloadPath(name, '9.9.9'),
      downloadPath('nope', '1.0.0'),
    ]) {
      const res = await owner.api.get(path).expect(404);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.body).toEqual({ errors: ['Not Found'] });
    }
  });

  it('answers a missing or invalid token with 401 in the registry error shape', async () => {
    const name = unique('auth');
    await createProvider(owner, org, name);
    const anonymous = await request(t.origin).get(versionsPath(name)).expect(401);
    expect(anonymous.body).toEqual({ errors: ['Unauthorized'] });
    const bad = await request(t.origin)
      .get(downloadPath(name, '1.0.0'))
      .set('Authorization', 'Bearer nope')
      .expect(401);
    expect(bad.body).toEqual({ errors: ['Unauthorized'] });
  });

  it('shows a namespace only to members of its organization', async () => {
    const name = unique('members');
    await createProvider(owner, org, name);
    await publish(owner, providerBase(org, name), name, '1.0.0', key);
    const reader = await memberWith(t, admin, owner, org, []);
    expect((await reader.api.get(versionsPath(name)).expect(200)).body.versions).toHaveLength(1);
    await reader.api.get(downloadPath(name, '1.0.0')).expect(200);
    const outsider = await createUser(t, admin);
    expect((await outsider.api.get(versionsPath(name)).expect(404)).body).toEqual({ errors: ['Not Found'] });
    await outsider.api.get(downloadPath(name, '1.0.0')).expect(404);
  });

  it('does not serve public providers through the protocol', async () => {
    const name = unique('curated');
    await createProvider(owner, org, name, 'public', 'hashicorp');
    await owner.api.get(`/api/registry/v1/providers/hashicorp/${name}/versions`).expect(404);
    await owner.api.get(versionsPath(name)).expect(404);
  });
});
