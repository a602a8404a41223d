import { join } from 'node:path';
import { Actor, bootstrapAdmin, createOrganization, unique } from '../helpers/fixtures';
import { filesIn, startPartialUpload, until } from '../helpers/partial-upload';
import { startS3, TestS3 } from '../helpers/s3-server';
import { startApp, TestApp } from '../helpers/test-app';
import {
  createKey,
  createPlatform,
  createProvider,
  createVersion,
  fakeZip,
  generateSigningKey,
  providerBase,
  sha256,
  SigningKey,
} from '../registry/registry-helpers';

jest.setTimeout(60_000);

const DECLARED = 256 * 1024;
const HALF = DECLARED / 2;

const upload = (t: TestApp, link: string) =>
  startPartialUpload(t.origin, link, DECLARED, Buffer.alloc(HALF, 1));
const rest = Buffer.alloc(DECLARED - HALF, 2);

const NOT_FOUND = { status: 404, body: { errors: [{ status: '404', title: 'not found' }] } };

describe.each(['filesystem', 's3'])('deleting what an upload is for while it streams (%s)', (driver) => {
  let s3: TestS3 | undefined;
  let t: TestApp;
  let admin: Actor;
  let org: string;
  let key: SigningKey;
  let dataDir: string;
  /** Every stored file or object. */
  let stored: () => Promise<string[]>;

  beforeAll(async () => {
    if (driver === 's3') {
      s3 = await startS3();
      // The S3 driver reads its credentials the way the AWS SDK does, from the environment.
      Object.assign(process.env, s3.env);
    }
    t = await startApp(s3?.env ?? {});
    admin = await bootstrapAdmin(t);
    org = await createOrganization(admin);
    key = await generateSigningKey();
    await createKey(admin, org, key);
    dataDir = t.config.dataDir;
    stored = s3 ? () => s3!.keys() : async () => filesIn(join(dataDir, 'blobs'));
  });
  afterAll(async () => {
    await t.close();
    await s3?.close();
  });

  /** Waits until the server writes the upload's temporary file. */
  const writing = () =>
    until(
      'the server is writing the upload',
      async () => filesIn(dataDir).some((f) => f.endsWith('.partial')) || undefined,
    );

  async function release() {
    const name = unique('del');
    await createProvider(admin, org, name);
    const base = providerBase(org, name);
    const version = await createVersion(admin, base, '1.0.0', key.keyId);
    const binary = fakeZip(name);
    const platform = await createPlatform(admin, base, '1.0.0', {
      os: 'linux',
      arch: 'amd64',
      shasum: sha256(binary),
      filename: `terraform-provider-${name}_1.0.0_linux_amd64.zip`,
    });
    return { base, version, platform };
  }

  it('answers 404 to a policy set archive whose set was deleted, and keeps no file', async () => {
    const set = await admin.api
      .post(`/api/v2/organizations/${org}/policy-sets`, {
        data: { type: 'policy-sets', attributes: { name: unique('set') } },
      })
      .expect(201);
    const setId = set.body.data.id as string;
    const version = await admin.api.post(`/api/v2/policy-sets/${setId}/versions`).expect(201);
    const pending = upload(t, version.body.data.links.upload);
    await writing();

    await admin.api.delete(`/api/v2/policy-sets/${setId}`).expect(204);

    expect(await pending.finish(rest)).toEqual(NOT_FOUND);
    expect(await stored()).toEqual([]);
    expect(filesIn(dataDir).filter((f) => f.endsWith('.partial'))).toEqual([]);
  });

  it('answers 404 to a SHA256SUMS upload whose provider version was deleted, and keeps no file', async () => {
    const r = await release();
    const pending = upload(t, r.version.links['shasums-upload']);
    await writing();

    await admin.api.delete(`${r.base}/versions/1.0.0`).expect(204);

    expect(await pending.finish(rest)).toEqual(NOT_FOUND);
    expect(await stored()).toEqual([]);
    expect(filesIn(dataDir).filter((f) => f.endsWith('.partial'))).toEqual([]);
  });

  it('answers 404 to a binary upload whose platform was deleted, and keeps no file', async () => {
    const r = await release();
    const pending = upload(t, r.platform.links['provider-binary-upload']);
    await writing();

    await admin.api.delete(`${r.base}/versions/1.0.0/platforms/linux/amd64`).expect(204);

    expect(await pending.finish(rest)).toEqual(NOT_FOUND);
    expect(await stored()).toEqual([]);
    expect(filesIn(dataDir).filter((f) => f.endsWith('.partial'))).toEqual([]);
  });

  it('answers 404 to a binary upload whose provider was deleted, and keeps no file', async () => {
    const r = await release();
    const pending = upload(t, r.platform.links['provider-binary-upload']);
    await writing();

    await admin.api.delete(r.base).expect(204);

    expect(await pending.finish(rest)).toEqual(NOT_FOUND);
    expect(await stored()).toEqual([]);
    expect(filesIn(dataDir).filter((f) => f.endsWith('.partial'))).toEqual([]);
  });
});
