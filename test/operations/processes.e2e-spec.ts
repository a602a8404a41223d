import { request } from 'node:http';
import { connect } from 'node:net';
import { send } from '../helpers/raw-http';
import { unsupportedNodeLine } from '../../src/config/node-support';
import { ServerProcess } from '../helpers/server-process';
import { TEST_UPLOAD_MAX_BYTES } from '../helpers/test-uploads';

jest.setTimeout(120_000);

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

function refusesConnections(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.on('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.on('error', (err: NodeJS.ErrnoException) => resolve(err.code === 'ECONNREFUSED'));
  });
}

/** A fresh connection per request, so a cluster's primary spreads them over its workers. */
async function get(origin: string, path: string): Promise<{ status: number; text: string }> {
  const res = await fetch(`${origin}${path}`, { headers: { Connection: 'close' } });
  return { status: res.status, text: await res.text() };
}

describe('a server process', () => {
  let server: ServerProcess;

  afterEach(() => server?.dispose());

  it('on SIGTERM stops accepting, finishes the upload in flight, closes the database and exits with 0', async () => {
    server = await ServerProcess.start('test/helpers/serve.ts');
    const ready = JSON.parse(await server.waitForLine(/"ready":true/)) as { uploadPath: string };
    const total = 2 * 1024 * 1024;
    expect(total).toBeLessThan(TEST_UPLOAD_MAX_BYTES);

    const upload = request({
      host: '127.0.0.1',
      port: server.port,
      method: 'PUT',
      path: ready.uploadPath,
      agent: false,
      headers: { 'Content-Length': String(total), 'Content-Type': 'application/octet-stream' },
    });
    const response = new Promise<{ status: number; connection?: string }>((resolve, reject) => {
      upload.on('response', (res) => {
        res.resume();
        resolve({ status: res.statusCode ?? 0, connection: res.headers.connection });
      });
      upload.on('error', reject);
    });
    upload.write(Buffer.alloc(total / 2, 7));
    await pause(300);

    server.child.kill('SIGTERM');
    let refused = false;
    for (let i = 0; i < 100 && !refused; i++) {
      refused = await refusesConnections(server.port);
      if (!refused) await pause(20);
    }
    expect(refused).toBe(true);
    expect(server.child.exitCode).toBeNull();

    upload.end(Buffer.alloc(total / 2, 8));
    expect(await response).toEqual({ status: 200, connection: 'close' });
    expect(await server.exited).toEqual({ code: 0, signal: null });
  });

  it('with WEB_CONCURRENCY=2 runs two workers on one port, migrates once, shares one rate budget, replaces a crashed worker and stops on SIGTERM', async () => {
    server = await ServerProcess.start('src/main.ts', { WEB_CONCURRENCY: '2', RATE_LIMIT_PER_SECOND: '5' });
    await server.ready();
    await server.waitForLine(/started 2 workers/);
    let workers: number[] = [];
    for (let i = 0; i < 100 && workers.length < 2; i++) {
      workers = server.children();
      if (workers.length < 2) await pause(100);
    }
    expect(workers).toHaveLength(2);
    // Both workers must have booted before the scrape below can count on them.
    for (let i = 0; i < 100 && server.lines.filter((l) => /successfully started/.test(l)).length < 2; i++)
      await pause(100);

    const migrations = server.lines.filter((l) => /database migrations up to date/.test(l));
    expect(migrations).toHaveLength(1);
    expect(server.lines.filter((l) => /No administrator yet/.test(l))).toHaveLength(1);
    // Said once by the primary, never by the workers; only where this Node.js line is unsupported.
    expect(server.lines.filter((l) => /Node\.js v[\d.]+ is not supported/.test(l))).toHaveLength(
      unsupportedNodeLine(process.version) ? 1 : 0,
    );

    // Each request on a fresh connection from its own address: spread over both workers, never limited.
    const from = (i: number) => `127.0.2.${i + 1}`;
    const pings = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        send(server.origin, { path: '/api/v2/ping', localAddress: from(i) }),
      ),
    );
    expect(new Set(pings.map((p) => p.status))).toEqual(new Set([204]));
    const iacts = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        send(server.origin, { path: '/admin/retrieve-iact', localAddress: from(i + 50) }),
      ),
    );
    expect(iacts.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(new Set(iacts.map((r) => r.text)).size).toBe(1);

    // One address over both workers: the primary keeps the count, so the budget is per machine.
    const burst = await Promise.all(
      Array.from({ length: 8 }, () =>
        send(server.origin, { path: '/api/v2/ping', localAddress: '127.0.3.1' }),
      ),
    );
    expect(burst.map((r) => r.status).sort()).toEqual([204, 204, 204, 204, 204, 429, 429, 429]);

    const metrics = (await get(server.origin, '/metrics')).text;
    const pingCount = metrics
      .split('\n')
      .find((l) => l.startsWith('http_requests_total{method="GET",route="/api/v2/ping",status="204"}'));
    expect(pingCount?.split(' ')[1]).toBe('25');

    const [victim] = workers;
    process.kill(victim, 'SIGKILL');
    let replaced: number[] = [];
    for (let i = 0; i < 200; i++) {
      replaced = server.children();
      if (replaced.length === 2 && !replaced.includes(victim)) break;
      await pause(100);
    }
    expect(replaced).toHaveLength(2);
    expect(replaced).not.toContain(victim);
    await server.waitForLine(new RegExp(`worker ${victim} exited \\(SIGKILL\\)`));
    const after = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        send(server.origin, { path: '/api/v2/ping', localAddress: from(i + 100) }),
      ),
    );
    expect(new Set(after.map((p) => p.status))).toEqual(new Set([204]));

    server.child.kill('SIGTERM');
    expect(await server.exited).toEqual({ code: 0, signal: null });
    expect(server.children()).toEqual([]);
  });
});
