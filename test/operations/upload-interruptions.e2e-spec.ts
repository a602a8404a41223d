import { ClientRequest, IncomingMessage, request } from 'node:http';
import { connect } from 'node:net';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { BlobStore } from '../../src/storage/blob-store';
import { startApp, TestApp } from '../helpers/test-app';
import { registerTestUploads, TestUploads, testUploadKey } from '../helpers/test-uploads';

jest.setTimeout(30_000);

const TOTAL = 1024 * 1024;
const HALF = TOTAL / 2;

async function until(what: string, check: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

function files(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) =>
    statSync(join(dir, f)).isFile(),
  );
}

/** Starts a PUT of TOTAL bytes and sends the first half; the caller decides how it ends. */
function startUpload(t: TestApp, path: string): { req: ClientRequest; response: Promise<IncomingMessage> } {
  const url = new URL(t.origin);
  const req = request({
    host: url.hostname,
    port: url.port,
    method: 'PUT',
    path,
    agent: false,
    headers: { 'Content-Type': 'application/octet-stream', 'Content-Length': String(TOTAL) },
  });
  const response = new Promise<IncomingMessage>((resolve, reject) => {
    req.on('response', resolve);
    req.on('error', reject);
  });
  req.write(Buffer.alloc(HALF, 1));
  return { req, response };
}

const refusesConnections = (t: TestApp) =>
  new Promise<boolean>((resolve) => {
    const url = new URL(t.origin);
    const socket = connect(Number(url.port), url.hostname);
    socket.on('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.on('error', (err: NodeJS.ErrnoException) => resolve(err.code === 'ECONNREFUSED'));
  });

describe('uploads that are interrupted', () => {
  it('leaves no blob, no temporary file and no flipped flag when the client disconnects halfway', async () => {
    const t = await startApp();
    try {
      const uploads = registerTestUploads(t.app);
      const blobsDir = join(t.config.dataDir, 'blobs');
      const { req, response } = startUpload(t, TestUploads.link(t.app, 'cut-off'));
      response.catch(() => undefined);
      await until('the server is writing the upload', () =>
        files(blobsDir).some((f) => f.endsWith('.partial')),
      );
      req.destroy();

      await until('the server gave up on the upload', () => uploads.failed.has('cut-off'));
      expect(uploads.uploaded.has('cut-off')).toBe(false);
      expect(await t.app.get(BlobStore).stat(testUploadKey('cut-off'))).toBeNull();
      expect(files(blobsDir)).toEqual([]);
    } finally {
      await t.close();
    }
  });

  it('lets a running upload finish when the app shuts down, while refusing new connections', async () => {
    const t = await startApp();
    const uploads = registerTestUploads(t.app);
    const blobsDir = join(t.config.dataDir, 'blobs');
    const { req, response } = startUpload(t, TestUploads.link(t.app, 'in-flight'));
    await until('the server is writing the upload', () =>
      files(blobsDir).some((f) => f.endsWith('.partial')),
    );

    const closing = t.close();
    let closed = false;
    void closing.then(() => (closed = true));
    let refused = false;
    for (let i = 0; i < 100 && !refused; i++) {
      refused = await refusesConnections(t);
      if (!refused) await new Promise((r) => setTimeout(r, 20));
    }
    expect(refused).toBe(true);
    expect(closed).toBe(false);

    req.end(Buffer.alloc(TOTAL - HALF, 2));
    const res = await response;
    expect(res.statusCode).toBe(200);
    expect(res.headers.connection).toBe('close');
    expect(uploads.uploaded.get('in-flight')).toEqual({
      size: TOTAL,
      sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    res.resume();
    await closing;
  });
});
