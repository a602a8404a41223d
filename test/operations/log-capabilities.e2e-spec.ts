import { request as httpRequest } from 'node:http';
import { Readable } from 'node:stream';
import { QueryFailedError } from 'typeorm';
import { LOG_DESTINATION } from '../../src/observability/http-logging';
import { ProviderProtocolService } from '../../src/registry/protocol/provider-protocol.service';
import { PURPOSE } from '../../src/registry/registry-links';
import { BlobStore } from '../../src/storage/blob-store';
import { SignedLinks } from '../../src/storage/signed-links';
import { UploadRegistry } from '../../src/storage/upload-registry';
import { cutOffDatabase } from '../helpers/database-outage';
import { Actor, bootstrapAdmin } from '../helpers/fixtures';
import { LogCapture } from '../helpers/log-capture';
import { send } from '../helpers/raw-http';
import { startApp, TestApp, usesMysql } from '../helpers/test-app';
import {
  registerTestUploads,
  TEST_UPLOAD_PURPOSE,
  TestUploads,
  testUploadKey,
} from '../helpers/test-uploads';

jest.setTimeout(60_000);

const DOWNLOAD_BYTES = 8 * 1024 * 1024;

async function until(what: string, check: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Sends half of a declared body, then drops the connection. */
function abortUpload(t: TestApp, path: string): void {
  const url = new URL(t.origin);
  const req = httpRequest({
    host: url.hostname,
    port: url.port,
    method: 'PUT',
    path,
    agent: false,
    headers: { 'Content-Type': 'application/octet-stream', 'Content-Length': String(2 * 1024 * 1024) },
  });
  req.on('error', () => undefined);
  req.write(Buffer.alloc(1024 * 1024, 1), () => setTimeout(() => req.destroy(), 50));
}

/** Reads the first bytes of a download, then closes the connection as curl and wget often do. */
function abortDownload(t: TestApp, path: string): Promise<number> {
  const url = new URL(t.origin);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: url.hostname, port: url.port, path, agent: false }, (res) => {
      res.once('data', () => {
        req.destroy();
        resolve(res.statusCode ?? 0);
      });
    });
    req.on('error', (err) => (req.destroyed ? undefined : reject(err)));
    req.end();
  });
}

describe('signed links in the logs', () => {
  let t: TestApp;
  let admin: Actor;
  let uploads: TestUploads;
  const logs = new LogCapture();
  const tokens: string[] = [];

  const link = (purpose: string, resourceId: string) => {
    const token = t.app.get(SignedLinks).token({
      purpose,
      resourceId,
      expiresAt: Math.floor(Date.now() / 1000) + 600,
    });
    tokens.push(token);
    return `/uploads/${token}`;
  };
  const aborted = () => logs.entries().filter((e) => e.msg === 'request aborted').length;

  beforeAll(async () => {
    t = await startApp({ LOG_LEVEL: 'trace' }, [{ provide: LOG_DESTINATION, useValue: logs }]);
    admin = await bootstrapAdmin(t);
    uploads = registerTestUploads(t.app);
    const registry = t.app.get(UploadRegistry);
    registry.registerUpload('test-explode', {
      maxBytes: () => 1024,
      receive: () => Promise.reject(new Error('the disk is on fire')),
    });
    registry.registerUpload('test-database-down', {
      maxBytes: () => 1024,
      receive: () =>
        Promise.reject(
          Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:3306'), { code: 'ECONNREFUSED' }),
        ),
    });
    registry.registerDownload('test-download', {
      locate: (id) =>
        Promise.resolve({
          key: testUploadKey(id),
          filename: 'big.bin',
          contentType: 'application/octet-stream',
        }),
    });
    await t.app.get(BlobStore).put(testUploadKey('big'), Readable.from([Buffer.alloc(DOWNLOAD_BYTES, 7)]), {
      maxBytes: DOWNLOAD_BYTES,
    });
  });
  afterAll(() => t.close());

  it('treats a client that closes a download early as no error: no error-level line and no stack', async () => {
    const before = logs.lines.length;
    const seen = aborted();
    expect(await abortDownload(t, link('test-download', 'big'))).toBe(200);
    await until('the download is logged', () => aborted() > seen);

    const lines = logs.entries().slice(before);
    expect(lines.filter((e) => (e.level as number) >= 50)).toEqual([]);
    expect(JSON.stringify(lines)).not.toContain('stack');
    expect(lines.find((e) => e.msg === 'request aborted')).toMatchObject({
      level: 40,
      req: { method: 'GET', url: '/uploads/[redacted]' },
    });
  });

  it('treats a client that drops an upload halfway the same way', async () => {
    const before = logs.lines.length;
    const seen = aborted();
    abortUpload(t, link(TEST_UPLOAD_PURPOSE, 'cut-off'));
    await until('the upload is given up', () => uploads.failed.has('cut-off') && aborted() > seen);

    const lines = logs.entries().slice(before);
    expect(lines.filter((e) => (e.level as number) >= 50)).toEqual([]);
    expect(JSON.stringify(lines)).not.toContain('stack');
  });

  it('never writes a working link to any line of a run with 500s, 503s, aborted transfers and registry failures', async () => {
    const exploded = await send(t.origin, { method: 'PUT', path: link('test-explode', 'r1'), body: 'x' });
    expect(exploded.status).toBe(500);
    const errorId = (JSON.parse(exploded.text) as { errors: { id: string }[] }).errors[0].id;

    const down = await send(t.origin, { method: 'PUT', path: link('test-database-down', 'r2'), body: 'x' });
    expect(down.status).toBe(503);

    let seen = aborted();
    abortUpload(t, link(TEST_UPLOAD_PURPOSE, 'cut'));
    await until('the aborted upload is logged', () => aborted() > seen);
    seen = aborted();
    await abortDownload(t, link('test-download', 'big'));
    await until('the aborted download is logged', () => aborted() > seen);

    // A failed query whose parameters and text quote a link, on a registry protocol route.
    const quoted = link(PURPOSE.binaryDownload, 'provpltfrm-x');
    const spy = jest
      .spyOn(ProviderProtocolService.prototype, 'listVersions')
      .mockRejectedValue(
        new QueryFailedError(
          `SELECT '${quoted}'`,
          [`https://up.example.com${quoted}`],
          new Error(`near '${quoted}'`),
        ),
      );
    const registry = await admin.api.get(`/api/registry/v1/providers/acme/aws/versions?u=${tokens.at(-1)}`);
    spy.mockRestore();
    expect(registry.status).toBe(500);
    expect(registry.body).toEqual({
      errors: [
        expect.stringMatching(/^an unexpected error occurred; quote [0-9a-f-]{36} when reporting it$/),
      ],
    });

    const entries = logs.entries();
    expect(entries).toContainEqual(
      expect.objectContaining({ level: 50, errorId, path: '/uploads/[redacted]', method: 'PUT' }),
    );
    expect(entries).toContainEqual(
      expect.objectContaining({ level: 40, msg: 'database unavailable during PUT /uploads/[redacted]' }),
    );
    expect(entries).toContainEqual(
      expect.objectContaining({
        level: 50,
        err: expect.objectContaining({ type: 'QueryFailedError', message: "near '/uploads/[redacted]'" }),
      }),
    );
    for (const token of tokens) {
      expect(logs.text).not.toContain(token);
      expect(logs.text).not.toContain(token.split('.')[1]);
    }
  });

  (usesMysql() ? it : it.skip)('keeps links out of the warning of a real database outage', async () => {
    const restore = await cutOffDatabase(t.app);
    try {
      const res = await send(t.origin, {
        path: link(PURPOSE.binaryDownload, 'provpltfrm-missing'),
        timeoutMs: 8000,
      });
      expect(res.status).toBe(503);
    } finally {
      restore();
    }
    const warning = logs.entries().find((e) => String(e.msg).startsWith('database unavailable during GET'));
    expect(warning?.msg).toBe('database unavailable during GET /uploads/[redacted]');
    for (const token of tokens) expect(logs.text).not.toContain(token.split('.')[1]);
  });
});
