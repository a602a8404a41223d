import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import https from 'node:https';
import type { TLSSocket } from 'node:tls';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '../../src/config/app-config';
import { readTlsFiles } from '../../src/http/tls';
import { SelfSigned, selfSigned } from '../helpers/self-signed';
import { ServerProcess } from '../helpers/server-process';

jest.setTimeout(120_000);

interface Answer {
  status: number;
  /** The common name of the certificate the server presented on this connection. */
  served: string;
  /** Whether the request went over a connection an earlier request opened. */
  reused: boolean;
}

function get(port: number, agent: https.Agent): Promise<Answer> {
  return new Promise((ok, fail) => {
    const req = https.get({ host: '127.0.0.1', port, path: '/healthz', agent }, (res) => {
      const socket = res.socket as TLSSocket;
      const served = String(socket.getPeerCertificate().subject.CN);
      res.resume();
      res.on('end', () => ok({ status: res.statusCode ?? 0, served, reused: req.reusedSocket }));
    });
    req.on('error', fail);
  });
}

describe('HTTPS served by Plinth (TLS_CERT_FILE, TLS_KEY_FILE)', () => {
  let dir: string;
  let first: SelfSigned;
  let second: SelfSigned;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'plinth-tls-'));
    first = selfSigned(dir, 'plinth-first');
    second = selfSigned(dir, 'plinth-second');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reads a certificate with its key, and names the variable of a file it cannot use', () => {
    const files = (certFile: string, keyFile: string) => () => readTlsFiles({ certFile, keyFile });
    expect(files(first.certFile, first.keyFile)().cert.toString()).toBe(first.cert);
    const missing = join(dir, 'missing.crt');
    expect(files(missing, first.keyFile)).toThrow(
      new ConfigError(`TLS_CERT_FILE names a file that cannot be read (ENOENT): ${missing}`),
    );
    expect(files(first.keyFile, first.keyFile)).toThrow(
      new ConfigError(`TLS_CERT_FILE does not hold a PEM certificate: ${first.keyFile}`),
    );
    expect(files(first.certFile, first.certFile)).toThrow(
      new ConfigError(`TLS_KEY_FILE does not hold an unencrypted PEM private key: ${first.certFile}`),
    );
    expect(files(first.certFile, second.keyFile)).toThrow(
      new ConfigError('TLS_KEY_FILE is not the private key of the certificate in TLS_CERT_FILE'),
    );
  });

  it('does not start on a certificate file it cannot read, and says which variable to fix', async () => {
    const missing = join(dir, 'nowhere.crt');
    const server = await ServerProcess.start('src/main.ts', {
      TLS_CERT_FILE: missing,
      TLS_KEY_FILE: first.keyFile,
    });
    try {
      const { code } = await server.exited;
      expect(code).toBe(1);
      const last = JSON.parse(server.lines.filter((l) => l.trim() !== '').at(-1)!) as Record<string, unknown>;
      expect(last).toMatchObject({
        level: 60,
        msg: `Plinth did not start because its configuration is invalid: TLS_CERT_FILE names a file that cannot be read (ENOENT): ${missing}.`,
      });
    } finally {
      await server.dispose();
    }
  });

  it('serves HTTPS, and on SIGHUP serves the new certificate to new connections while open ones go on', async () => {
    const cert = join(dir, 'live.crt');
    const key = join(dir, 'live.key');
    copyFileSync(first.certFile, cert);
    copyFileSync(first.keyFile, key);
    const server = await ServerProcess.start('src/main.ts', { TLS_CERT_FILE: cert, TLS_KEY_FILE: key });
    const trusting = () => new https.Agent({ ca: [first.cert, second.cert] });
    const kept = new https.Agent({ ca: [first.cert, second.cert], keepAlive: true, maxSockets: 1 });
    try {
      await server.waitForLine(/listening on https:\/\/127\.0\.0\.1:/);
      expect(await get(server.port, kept)).toEqual({ status: 200, served: 'plinth-first', reused: false });

      copyFileSync(second.certFile, cert);
      copyFileSync(second.keyFile, key);
      server.child.kill('SIGHUP');
      await server.waitForLine(/TLS certificate reloaded \(CN=plinth-second/);
      expect(await get(server.port, kept)).toEqual({ status: 200, served: 'plinth-first', reused: true });
      expect(await get(server.port, trusting())).toEqual({
        status: 200,
        served: 'plinth-second',
        reused: false,
      });

      writeFileSync(cert, 'not a certificate');
      server.child.kill('SIGHUP');
      await server.waitForLine(
        /TLS certificate not reloaded, the current one stays in use: TLS_CERT_FILE does not hold/,
      );
      expect(await get(server.port, trusting())).toEqual({
        status: 200,
        served: 'plinth-second',
        reused: false,
      });
      expect(server.child.exitCode).toBeNull();
    } finally {
      kept.destroy();
      await server.dispose();
    }
  });

  it('with several workers, the primary passes SIGHUP on and every worker reloads', async () => {
    const cert = join(dir, 'workers.crt');
    const key = join(dir, 'workers.key');
    copyFileSync(first.certFile, cert);
    copyFileSync(first.keyFile, key);
    const server = await ServerProcess.start('src/main.ts', {
      TLS_CERT_FILE: cert,
      TLS_KEY_FILE: key,
      WEB_CONCURRENCY: '2',
    });
    const fresh = () => new https.Agent({ ca: [first.cert, second.cert] });
    try {
      await server.waitForLine(/started 2 workers/);
      const listening = () => server.lines.filter((l) => /listening on https:/.test(l)).length;
      for (let i = 0; i < 400 && listening() < 2; i++) await sleep(50);
      expect(listening()).toBe(2);
      expect((await get(server.port, fresh())).served).toBe('plinth-first');
      copyFileSync(second.certFile, cert);
      copyFileSync(second.keyFile, key);
      server.child.kill('SIGHUP');
      const reloaded = () =>
        server.lines.filter((l) => /TLS certificate reloaded \(CN=plinth-second/.test(l)).length;
      for (let i = 0; i < 200 && reloaded() < 2; i++) await sleep(50);
      expect(reloaded()).toBe(2);
      for (let i = 0; i < 6; i++) expect((await get(server.port, fresh())).served).toBe('plinth-second');
      expect(server.child.exitCode).toBeNull();
    } finally {
      await server.dispose();
    }
  });
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
