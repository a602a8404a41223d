import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { createHash } from 'node:crypto';
import { AddressInfo } from 'node:net';
import { BlobStore } from './blob-store';
import { FsBlobStore } from './fs-blob-store';
import { S3BlobStore } from './s3-blob-store';

// s3rver ships no types; it is a local S3-compatible server used only by this test.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const S3rver = require('s3rver') as new (options: Record<string, unknown>) => {
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
};

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks);
}

function sha(buf: Buffer): string {
  return createHash('sha256').update(buf).digest('hex');
}

interface Driver {
  name: string;
  /** The driver's unfinished puts. */
  temporaryFiles(): string[];
  setup(): Promise<BlobStore>;
  teardown(): Promise<void>;
}

const dirs: string[] = [];
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'plinth-blobs-'));
  dirs.push(d);
  return d;
};

let fsRoot = '';
let spoolDir = '';
const listDir = (dir: string) => (existsSync(dir) ? readdirSync(dir) : []);

async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
}

let s3server: { close(): Promise<void> } | undefined;
let s3store: S3BlobStore | undefined;

const drivers: Driver[] = [
  {
    name: 'filesystem',
    temporaryFiles: () => listDir(join(fsRoot, '.uploading')),
    setup: async () => new FsBlobStore((fsRoot = tempDir())),
    teardown: async () => undefined,
  },
  {
    name: 's3 (local S3-compatible server)',
    temporaryFiles: () => listDir(spoolDir),
    setup: async () => {
      const server = new S3rver({
        port: 0,
        address: '127.0.0.1',
        silent: true,
        directory: tempDir(),
        configureBuckets: [{ name: 'plinth-test', configs: [] }],
      });
      const address = await server.run();
      s3server = server;
      s3store = new S3BlobStore({
        bucket: 'plinth-test',
        region: 'us-east-1',
        endpoint: `http://127.0.0.1:${address.port}`,
        forcePathStyle: true,
        spoolDir: (spoolDir = tempDir()),
        credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
      });
      return s3store;
    },
    teardown: async () => {
      s3store?.destroy();
      await s3server?.close();
    },
  },
];

afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe.each(drivers)('BlobStore conformance: $name', (driver) => {
  let store: BlobStore;

  beforeAll(async () => {
    store = await driver.setup();
  });
  afterAll(() => driver.teardown());

  it('stores bytes and reports their size and SHA-256', async () => {
    const body = Buffer.from('hello plinth\n'.repeat(1000));
    const stored = await store.put('a/b/file.bin', Readable.from([body]), { maxBytes: 1e6 });
    expect(stored).toEqual({ size: body.length, sha256: sha(body) });
    expect(await store.stat('a/b/file.bin')).toEqual({ size: body.length });
    expect(await readAll(await store.get('a/b/file.bin'))).toEqual(body);
  });

  it('reads a byte range of an object, multi-byte characters cut where asked', async () => {
    const body = Buffer.from('héllo wörld ✓\n');
    await store.put('r/range', Readable.from([body]), { maxBytes: 100 });
    expect(await readAll(await store.get('r/range', { start: 2, end: 9 }))).toEqual(body.subarray(2, 9));
    expect(await readAll(await store.get('r/range', { start: 9, end: 1000 }))).toEqual(body.subarray(9));
    expect(await readAll(await store.get('r/range', { start: 4, end: 4 }))).toEqual(Buffer.alloc(0));
  });

  it('replaces an object atomically on a second put', async () => {
    await store.put('x/replace', Readable.from([Buffer.from('one')]), { maxBytes: 100 });
    await store.put('x/replace', Readable.from([Buffer.from('two!')]), { maxBytes: 100 });
    expect((await readAll(await store.get('x/replace'))).toString()).toBe('two!');
  });

  it('refuses an oversized body and keeps nothing', async () => {
    const chunks = [Buffer.alloc(600), Buffer.alloc(600)];
    await expect(store.put('x/big', Readable.from(chunks), { maxBytes: 1000 })).rejects.toMatchObject({
      kind: 'too-large',
    });
    expect(await store.stat('x/big')).toBeNull();
  });

  it('says null for a missing object and deletes idempotently', async () => {
    expect(await store.stat('nope/none')).toBeNull();
    await store.delete('nope/none');
    await store.put('d/one', Readable.from([Buffer.from('1')]), { maxBytes: 10 });
    await store.delete('d/one');
    expect(await store.stat('d/one')).toBeNull();
  });

  it('deletes everything under a prefix and nothing else', async () => {
    await store.put('p/v1/a', Readable.from([Buffer.from('a')]), { maxBytes: 10 });
    await store.put('p/v1/sub/b', Readable.from([Buffer.from('b')]), { maxBytes: 10 });
    await store.put('p/v10/c', Readable.from([Buffer.from('c')]), { maxBytes: 10 });
    await store.deletePrefix('p/v1');
    expect(await store.stat('p/v1/a')).toBeNull();
    expect(await store.stat('p/v1/sub/b')).toBeNull();
    expect(await store.stat('p/v10/c')).toEqual({ size: 1 });
  });

  it('sweeps the temporary file of a put last written before the cutoff, and only that', async () => {
    const slow = new PassThrough();
    slow.write(Buffer.alloc(1024, 1));
    const kept = store.put('t/kept', slow, { maxBytes: 1e6 });
    await until(() => driver.temporaryFiles().length === 1);
    await store.sweepTemporary(new Date(Date.now() - 60_000));
    expect(driver.temporaryFiles()).toHaveLength(1);
    slow.end(Buffer.alloc(1024, 2));
    expect(await kept).toMatchObject({ size: 2048 });

    const stalled = new PassThrough();
    stalled.write(Buffer.alloc(1024, 1));
    const swept = store.put('t/swept', stalled, { maxBytes: 1e6 }).catch(() => undefined);
    await until(() => driver.temporaryFiles().length === 1);
    await store.sweepTemporary(new Date(Date.now() + 60_000));
    expect(driver.temporaryFiles()).toEqual([]);
    stalled.destroy(new Error('the client went away'));
    await swept;
    expect(await store.stat('t/swept')).toBeNull();
  });

  it('refuses keys that could escape the store', async () => {
    await expect(store.put('../evil', Readable.from([Buffer.from('x')]), { maxBytes: 10 })).rejects.toThrow(
      /unsafe/,
    );
    await expect(
      store.put('.uploading/x', Readable.from([Buffer.from('x')]), { maxBytes: 10 }),
    ).rejects.toThrow(/unsafe/);
  });
});
