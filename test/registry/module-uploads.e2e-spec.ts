import { Readable } from 'node:stream';
import { DataSource } from 'typeorm';
import { BlobStore } from '../../src/storage/blob-store';
import { UploadLeaseEntity } from '../../src/storage/entities/upload-lease.entity';
import { UploadSweeper } from '../../src/storage/upload-sweeper';
import { Actor, bootstrapAdmin, createOrganization, unique } from '../helpers/fixtures';
import { startPartialUpload, until } from '../helpers/partial-upload';
import { startApp, TestApp } from '../helpers/test-app';
import {
  blobsExist,
  createModule,
  createModuleVersion,
  moduleArchive,
  moduleBase,
  moduleBlobDir,
  moduleProvider,
} from './module-helpers';
import { put } from './registry-helpers';

jest.setTimeout(60_000);

describe('module archive uploads: races, interruptions and the sweep', () => {
  let t: TestApp;
  let owner: Actor;
  let org: string;

  beforeAll(async () => {
    t = await startApp({ UPLOAD_LEASE_SECONDS: '1' });
    owner = await bootstrapAdmin(t);
    org = await createOrganization(owner);
  });
  afterAll(() => t.close());

  const leases = () => t.app.get(DataSource).getRepository(UploadLeaseEntity);

  async function freshVersion() {
    const name = unique('up');
    const provider = moduleProvider();
    const moduleId = await createModule(owner, org, name, provider);
    const base = moduleBase(org, name, provider);
    const version = await createModuleVersion(owner, base, '1.0.0');
    const status = async () =>
      (await owner.api.get(`${base}/version?module_version=1.0.0`).expect(200)).body.data.attributes
        .status as string;
    return { moduleId, base, version, status };
  }

  it('ends two racing uploads to one link as one 200 and one 409, keeping one archive', async () => {
    const { moduleId, version, status } = await freshVersion();
    const results = await Promise.all([
      put(version.upload, moduleArchive({ 'main.tf': '# a\n' })),
      put(version.upload, moduleArchive({ 'main.tf': '# b\n' })),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(await status()).toBe('ok');
    await until('the loser has cleaned up', async () =>
      leases()
        .countBy({ resourceId: version.id })
        .then((n) => (n === 0 ? true : undefined)),
    );
    expect(blobsExist(moduleBlobDir(t, moduleId, version.id))).toBe(true);
  });

  it('answers 404 to an upload whose version was deleted while it streamed, and keeps nothing', async () => {
    const { moduleId, base, version, status } = await freshVersion();
    await createModuleVersion(owner, base, '2.0.0');
    const archive = moduleArchive();
    const half = Math.floor(archive.length / 2);
    const upload = startPartialUpload(t.origin, version.upload, archive.length, archive.subarray(0, half));
    await until('the upload is under way', async () =>
      (await status()) === 'reg_ingressing' ? true : undefined,
    );
    await owner.api.delete(`${base}/1.0.0`).expect(204);
    const answer = await upload.finish(archive.subarray(half));
    expect(answer.status).toBe(404);
    expect(blobsExist(moduleBlobDir(t, moduleId, version.id))).toBe(false);
    expect(await leases().countBy({ resourceId: version.id })).toBe(0);
  });

  it('puts a version whose upload died with its process back to pending, its link usable again', async () => {
    const { moduleId, version, status } = await freshVersion();
    // What a process that died mid-upload leaves: the version taken, its blob stored, an expired lease.
    const key = `registry/${moduleId}/${version.id}/archive-orphan.tar.gz`;
    await t.app.get(BlobStore).put(key, Readable.from([moduleArchive()]), { maxBytes: 1 << 20 });
    await t.app
      .get(DataSource)
      .query(`UPDATE registry_module_versions SET status = 'reg_ingressing' WHERE id = ?`, [version.id]);
    const now = Date.now();
    await leases().insert({
      id: unique('lease').replace(/-/g, '').slice(0, 32),
      purpose: 'module-archive-upload',
      resourceId: version.id,
      blobKey: key,
      owner: 'a-process-that-died',
      expiresAt: new Date(now - 1000),
      createdAt: new Date(now - 5000),
    });
    // The background sweep may get there first; either way the expired lease is handled once.
    await t.app.get(UploadSweeper).sweep();

    expect(await status()).toBe('pending');
    expect(await t.app.get(BlobStore).stat(key)).toBeNull();
    expect(await leases().countBy({ resourceId: version.id })).toBe(0);
    await put(version.upload, moduleArchive()).expect(200);
    expect(await status()).toBe('ok');
  });
});
