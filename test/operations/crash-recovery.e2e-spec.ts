import { rmSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import { Actor, bootstrapAdmin, createOrganization, idOf, ISO_MILLIS, unique } from '../helpers/fixtures';
import { filesIn, startPartialUpload, until } from '../helpers/partial-upload';
import { startS3, TestS3 } from '../helpers/s3-server';
import { ServerProcess } from '../helpers/server-process';
import { MINIMAL_POLICY_ARCHIVE as ARCHIVE } from '../helpers/tarball';
import { client, createMysqlDatabase, usesMysql } from '../helpers/test-app';
import {
  createKey,
  createPlatform,
  createProvider,
  createVersion,
  fakeZip,
  generateSigningKey,
  providerBase,
  sha256,
  shasumsOf,
} from '../registry/registry-helpers';

jest.setTimeout(400_000);

const VERSIONS = 20;
const DECLARED = 256 * 1024;
const SENT = 64 * 1024;

const putTo = (origin: string, link: string, body: Buffer) =>
  request(origin).put(new URL(link).pathname).set('Content-Type', 'application/octet-stream').send(body);

interface Driver {
  name: string;
  env(): Record<string, string>;
  /** Where the driver keeps unfinished puts, relative to DATA_DIR. */
  temporaryDir: string;
  /** Every stored object's key. */
  keys(dataDir: string): Promise<string[]>;
}

let s3: TestS3;

const drivers: Driver[] = [
  {
    name: 'filesystem',
    env: () => ({}),
    temporaryDir: join('blobs', '.uploading'),
    keys: async (dataDir) => filesIn(join(dataDir, 'blobs')),
  },
  { name: 's3', env: () => s3.env, temporaryDir: 'spool', keys: () => s3.keys() },
];

beforeAll(async () => {
  s3 = await startS3();
});
afterAll(() => s3.close());

describe.each(drivers)('kill -9 during uploads, then a restart ($name)', (driver) => {
  const processes: ServerProcess[] = [];
  let dropDatabase: (() => Promise<void>) | undefined;

  afterAll(async () => {
    for (const p of processes) await p.kill();
    if (processes[0]) rmSync(processes[0].dataDir, { recursive: true, force: true });
    await dropDatabase?.();
  });

  it('gives every interrupted version its link back, keeps registry links working and leaves no temporary file', async () => {
    const env: Record<string, string> = { ...driver.env(), UPLOAD_LEASE_SECONDS: '1', LOG_LEVEL: 'warn' };
    if (usesMysql()) {
      const db = await createMysqlDatabase();
      dropDatabase = db.drop;
      env.DATABASE_URL = db.url;
    }
    const first = await ServerProcess.start('src/main.ts', env);
    processes.push(first);
    // The first start on a fresh MariaDB database runs every migration.
    await first.ready(150_000);

    const admin: Actor = await bootstrapAdmin(first);
    const org = await createOrganization(admin);
    const set = await admin.api
      .post(`/api/v2/organizations/${org}/policy-sets`, {
        data: { type: 'policy-sets', attributes: { name: unique('set') } },
      })
      .expect(201);
    const setId = set.body.data.id as string;
    const versions: { id: string; links: { upload: string } }[] = [];
    for (let i = 0; i < VERSIONS; i++) {
      versions.push((await admin.api.post(`/api/v2/policy-sets/${setId}/versions`).expect(201)).body.data);
    }

    const key = await generateSigningKey();
    await createKey(admin, org, key);
    const name = unique('crash');
    await createProvider(admin, org, name);
    const base = providerBase(org, name);
    const providerVersion = await createVersion(admin, base, '1.0.0', key.keyId);
    const filename = `terraform-provider-${name}_1.0.0_linux_amd64.zip`;
    const binary = fakeZip(name);
    const platform = await createPlatform(admin, base, '1.0.0', {
      os: 'linux',
      arch: 'amd64',
      shasum: sha256(binary),
      filename,
    });

    const links = [
      ...versions.map((v) => v.links.upload),
      providerVersion.links['shasums-upload'],
      platform.links['provider-binary-upload'],
    ];
    const stalled = links.map((link) =>
      startPartialUpload(first.origin, link, DECLARED, Buffer.alloc(SENT, 1)),
    );
    const temporary = join(first.dataDir, driver.temporaryDir);
    await until('every upload is being written', async () =>
      filesIn(temporary).length === links.length ? true : undefined,
    );
    const listVersions = async (api: Actor['api']) =>
      (await api.get(`/api/v2/policy-sets/${setId}/versions?page[size]=100`).expect(200)).body.data as {
        attributes: { status: string };
      }[];
    expect((await listVersions(admin.api)).map((v) => v.attributes.status)).toEqual(
      Array(VERSIONS).fill('ingressing'),
    );

    await first.kill();
    for (const upload of stalled) upload.abort();
    expect(filesIn(temporary)).toHaveLength(links.length);

    const second = await ServerProcess.start(
      'src/main.ts',
      { ...env, UPLOAD_TIMEOUT_SECONDS: '1' },
      first.dataDir,
    );
    processes.push(second);
    await second.ready(150_000);
    const api = client(second, admin.token);

    await until('every interrupted version waits for its archive again', async () =>
      (await listVersions(api)).every((v) => v.attributes.status === 'pending') ? true : undefined,
    );
    await until('the temporary files are gone', async () =>
      filesIn(temporary).length === 0 ? true : undefined,
    );

    for (const v of versions) {
      const shown = await api.get(`/api/v2/policy-set-versions/${v.id}`).expect(200);
      expect(shown.body).toEqual({
        data: {
          id: v.id,
          type: 'policy-set-versions',
          attributes: {
            source: 'tfe-api',
            status: 'pending',
            'status-timestamps': {},
            error: null,
            'created-at': expect.stringMatching(ISO_MILLIS),
            'updated-at': expect.stringMatching(ISO_MILLIS),
          },
          relationships: { 'policy-set': { data: { id: setId, type: 'policy-sets' } } },
          links: {
            self: `/api/v2/policy-set-versions/${v.id}`,
            upload: expect.stringMatching(/\/uploads\//),
          },
        },
      });
      expect(shown.body.data.id).toMatch(idOf('polsetver'));
      // The link handed out before the crash works again, as does the fresh one.
      await putTo(second.origin, v.links.upload, ARCHIVE).expect(200);
      const ready = await api.get(`/api/v2/policy-set-versions/${v.id}`).expect(200);
      expect(ready.body.data.attributes.status).toBe('ready');
    }

    await putTo(
      second.origin,
      providerVersion.links['shasums-upload'],
      shasumsOf({ [filename]: binary }),
    ).expect(200);
    await putTo(second.origin, platform.links['provider-binary-upload'], binary).expect(200);
    const stored = await driver.keys(first.dataDir);
    expect(stored.filter((k) => k.startsWith('registry/'))).toEqual([
      expect.stringMatching(/^registry\/prov-\w+\/provver-\w+\/provpltfrm-\w+\/binary-\w+$/),
      expect.stringMatching(/^registry\/prov-\w+\/provver-\w+\/shasums-\w+$/),
    ]);
    expect(stored.filter((k) => k.startsWith('policy-sets/'))).toHaveLength(VERSIONS);
    expect(filesIn(temporary)).toEqual([]);
  });
});
