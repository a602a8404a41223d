import { gzipSync } from 'node:zlib';
import request from 'supertest';
import { Actor, bootstrapAdmin, createOrganization, ISO_OFFSET } from '../helpers/fixtures';
import { tarBytes, tarGz } from '../helpers/tarball';
import { startApp, TestApp } from '../helpers/test-app';
import { createPolicySet } from './policy-fixtures';

jest.setTimeout(60_000);

/**
 * Boots the app with `env` for the enclosing describe; `expectErrored(archive, reason)` uploads the
 * archive to a fresh version and checks the 422 and the version's `errored` state and reason.
 */
function withApp(env: Record<string, string>) {
  let t: TestApp;
  let admin: Actor;
  let org: string;

  beforeAll(async () => {
    t = await startApp(env);
    admin = await bootstrapAdmin(t);
    org = await createOrganization(admin);
  });
  afterAll(() => t.close());

  return async (archive: Buffer, reason: string) => {
    const set = await createPolicySet(admin, org);
    const created = await admin.api.post(`/api/v2/policy-sets/${set.id}/versions`).expect(201);
    const res = await request(t.origin)
      .put(new URL(created.body.data.links.upload).pathname)
      .set('Content-Type', 'application/octet-stream')
      .send(archive)
      .expect(422);
    expect(res.body.errors).toEqual([
      { status: '422', title: 'invalid attribute', detail: `The archive was refused: ${reason}` },
    ]);
    const shown = await admin.api.get(`/api/v2/policy-set-versions/${created.body.data.id}`).expect(200);
    expect(shown.body.data.attributes).toEqual({
      source: 'tfe-api',
      status: 'errored',
      error: reason,
      'status-timestamps': {
        'ingressing-at': expect.stringMatching(ISO_OFFSET),
        'errored-at': expect.stringMatching(ISO_OFFSET),
      },
      'created-at': expect.any(String),
      'updated-at': expect.any(String),
    });
    expect(shown.body.data.links.upload).toBeUndefined();
  };
}

/** A valid policy archive followed by `mib` MiB of zeros: kilobytes of gzip. */
const zeroBomb = (mib: number) =>
  gzipSync(
    Buffer.concat([
      tarBytes([{ path: 'main.sentinel', body: 'main = rule { true }' }]),
      Buffer.alloc(mib << 20),
    ]),
  );

describe('policy set version archives past the inspection caps', () => {
  const expectErrored = withApp({
    MAX_POLICY_ARCHIVE_EXPANDED_BYTES: '1000000',
    MAX_POLICY_ARCHIVE_ENTRIES: '5',
  });

  it('marks a zero bomb errored at the expanded-size cap', async () => {
    const bomb = gzipSync(
      Buffer.concat([
        tarBytes([{ path: 'main.sentinel', body: 'main = rule { true }' }]),
        Buffer.alloc(16 << 20),
      ]),
    );
    expect(bomb.length).toBeLessThan(20_000);
    await expectErrored(bomb, 'the archive expands to more than 1000000 bytes (the expanded-size cap)');
  });

  it('marks an archive with too many entries errored at the entry-count cap', async () => {
    const many = tarGz(Array.from({ length: 6 }, (_, i) => ({ path: `p${i}.sentinel`, body: 'x' })));
    await expectErrored(many, 'the archive has more than 5 entries (the entry-count cap)');
  });

  it('marks an archive whose links escape through an earlier link errored', async () => {
    const archive = tarGz([
      { path: 'main.sentinel', body: 'main = rule { true }' },
      { path: 'a', type: 'SymbolicLink', linkpath: '.' },
      { path: 'a/b', type: 'SymbolicLink', linkpath: '..' },
    ]);
    await expectErrored(archive, 'link a/b points outside the archive');
  });

  it('marks an archive with a second gzip member errored', async () => {
    const archive = Buffer.concat([
      tarGz([{ path: 'main.sentinel', body: 'main = rule { true }' }]),
      tarGz([{ path: 'hidden.sentinel', body: 'main = rule { false }' }]),
    ]);
    await expectErrored(archive, 'the archive has data after its end-of-archive marker');
  });

  it('marks an empty but valid tar.gz errored for having no regular file', async () => {
    await expectErrored(tarGz([]), 'the archive contains no regular file');
  });
});

describe('policy set version archives past the inspection time cap', () => {
  // 1 ms cannot hold a worker's round trip, let alone inflating 64 MiB: the cap trips every time.
  const expectErrored = withApp({ POLICY_ARCHIVE_INSPECTION_TIMEOUT_MS: '1' });

  it('marks the version errored at the inspection time cap', async () => {
    await expectErrored(
      zeroBomb(64),
      'inspecting the archive took longer than 1 ms (the inspection time cap)',
    );
  });
});
