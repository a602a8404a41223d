import { Readable } from 'node:stream';
import { DataSource } from 'typeorm';
import { BlobStore } from '../../src/storage/blob-store';
import { UploadLeaseEntity } from '../../src/storage/entities/upload-lease.entity';
import { UploadSweeper } from '../../src/storage/upload-sweeper';
import { Actor, bootstrapAdmin, createOrganization, unique } from '../helpers/fixtures';
import { startPartialUpload, until } from '../helpers/partial-upload';
import { MINIMAL_POLICY_ARCHIVE as ARCHIVE } from '../helpers/tarball';
import { startApp, TestApp } from '../helpers/test-app';

jest.setTimeout(60_000);

describe('upload leases and the sweep', () => {
  let t: TestApp;
  let admin: Actor;
  let org: string;

  beforeAll(async () => {
    t = await startApp({ UPLOAD_LEASE_SECONDS: '1' });
    admin = await bootstrapAdmin(t);
    org = await createOrganization(admin);
  });
  afterAll(() => t.close());

  const leases = () => t.app.get(DataSource).getRepository(UploadLeaseEntity);
  const status = async (id: string) =>
    (await admin.api.get(`/api/v2/policy-set-versions/${id}`).expect(200)).body.data.attributes
      .status as string;

  it('never sweeps an upload in progress, however long it runs past its first lease', async () => {
    const set = await admin.api
      .post(`/api/v2/organizations/${org}/policy-sets`, {
        data: { type: 'policy-sets', attributes: { name: unique('set') } },
      })
      .expect(201);
    const version = (await admin.api.post(`/api/v2/policy-sets/${set.body.data.id}/versions`).expect(201))
      .body.data as { id: string; links: { upload: string } };
    const half = Math.floor(ARCHIVE.length / 2);
    const upload = startPartialUpload(
      t.origin,
      version.links.upload,
      ARCHIVE.length,
      ARCHIVE.subarray(0, half),
    );
    await until('the upload holds its lease', async () =>
      (await status(version.id)) === 'ingressing' ? true : undefined,
    );
    const [lease] = await leases().find({ where: { resourceId: version.id } });
    // Another node's sweep sees only the database: once the first expiry has passed, the renewed lease
    // is what keeps the upload its own.
    await until('the first expiry has passed', async () =>
      Date.now() > lease.expiresAt.getTime() + 500 ? true : undefined,
    );
    await t.app.get(UploadSweeper).sweep();

    expect(await status(version.id)).toBe('ingressing');
    expect(await leases().countBy({ id: lease.id })).toBe(1);
    expect(await upload.finish(ARCHIVE.subarray(half))).toEqual({ status: 200, body: undefined });
    expect(await status(version.id)).toBe('ready');
    expect(await leases().countBy({ resourceId: version.id })).toBe(0);
  });

  it('deletes the blob of an upload whose process died after storing it, before recording it', async () => {
    const blobs = t.app.get(BlobStore);
    const key = `registry/prov-${unique('x')}/provver-gone/shasums-orphan`;
    await blobs.put(key, Readable.from([Buffer.from('abc  file.zip\n')]), { maxBytes: 100 });
    const now = Date.now();
    await leases().insert({
      id: unique('lease').slice(0, 32),
      purpose: 'provider-shasums-upload',
      resourceId: 'provver-gone',
      blobKey: key,
      owner: 'a-process-that-died',
      expiresAt: new Date(now - 1000),
      createdAt: new Date(now - 5000),
    });

    await t.app.get(UploadSweeper).sweep();

    expect(await blobs.stat(key)).toBeNull();
    expect(await leases().countBy({ blobKey: key })).toBe(0);
  });
});
