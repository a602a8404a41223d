/**
 * What recording one write in the audit trail costs the request that made it, in CPU: the
 * watcher's capture of an answered write (principal, route, resource, status) and the push
 * into the batch, measured in-process over many calls. The batched INSERT is paid once per
 * second (or per 200 events) off the request path; `npm run bench` with AUDIT_RETENTION_DAYS=0
 * and without measures the whole server (docs/benchmarks.md).
 *
 *   npx ts-node --transpile-only scripts/bench/audit-overhead.ts
 */
import 'reflect-metadata';
import type { Response } from 'express';
import { captureWrite } from '../../src/audit/audit.watcher';
import { AuditRecorder } from '../../src/audit/audit.recorder';
import type { AuditRepository } from '../../src/audit/audit.repository';
import { AppConfig } from '../../src/config/app-config';
import { requestContext } from '../../src/common/request-context';

const N = 200_000;
let stored = 0;
const repo = {
  insertMany: (events: unknown[]) => {
    stored += events.length;
    return Promise.resolve();
  },
} as unknown as AuditRepository;
const recorder = new AuditRecorder(
  repo,
  new AppConfig({ AUDIT_RETENTION_DAYS: '90', SIGNING_SECRET: 'x'.repeat(32) }),
);

type AuditedRequest = Parameters<typeof captureWrite>[0];

function request(): { req: AuditedRequest; res: Response } {
  const req = {
    method: 'POST',
    ip: '203.0.113.7',
    socket: {},
    params: { org: 'acme' },
    route: { path: '/api/v2/organizations/:org/workspaces' },
    baseUrl: '',
    user: {
      kind: 'user',
      tokenId: 'at-aaaaaaaaaaaaaaaa',
      userId: 'user-aaaaaaaaaaaaaaaa',
      username: 'alice',
      isSiteAdmin: false,
    },
  } as unknown as AuditedRequest;
  requestContext(req).writtenResource = { type: 'workspaces', id: 'ws-aaaaaaaaaaaaaaaa' };
  const res = {
    statusCode: 201,
    writableFinished: true,
    getHeader: () => 'req-0123456789',
  } as unknown as Response;
  return { req, res };
}

async function main(): Promise<void> {
  const inputs = Array.from({ length: 1000 }, request);
  for (let i = 0; i < 20_000; i++) recorder.record(captureWrite(inputs[i % 1000].req, inputs[i % 1000].res));
  await recorder.flush();
  const start = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < N; i++) recorder.record(captureWrite(inputs[i % 1000].req, inputs[i % 1000].res));
  const t1 = process.hrtime.bigint();
  const cpu = process.cpuUsage(start);
  await recorder.flush();
  const cpuUs = (cpu.user + cpu.system) / N;
  console.log(
    `${N} writes captured: ${(Number(t1 - t0) / 1000 / N).toFixed(2)} µs wall, ${cpuUs.toFixed(2)} µs CPU per write ` +
      `(stored ${stored} in batches)`,
  );
}

void main();
