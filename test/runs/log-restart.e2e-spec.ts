import { rmSync } from 'node:fs';
import request from 'supertest';
import { agentCall } from '../agent-pools/helpers';
import { bootstrapAdmin, createOrganization, createWorkspace } from '../helpers/fixtures';
import { filesIn, until } from '../helpers/partial-upload';
import { startS3, TestS3 } from '../helpers/s3-server';
import { ServerProcess } from '../helpers/server-process';
import { client, createMysqlDatabase, TestApp, usesMysql } from '../helpers/test-app';
import { LogReader } from './log-reader';
import { claimJob, createRun, executor, PLANNED_WITH_CHANGES, uploadedVersion } from './run-fixtures';

jest.setTimeout(400_000);

const append = (origin: string, link: string, offset: number, body: Buffer) =>
  request(origin)
    .put(`${new URL(link).pathname}?offset=${offset}`)
    .set('Content-Type', 'application/octet-stream')
    .send(body);

const readAll = (origin: string, link: string) =>
  request(origin)
    .get(new URL(link).pathname)
    .buffer(true)
    .parse((res, done) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => done(null, Buffer.concat(chunks)));
    });

interface Driver {
  name: string;
  env(): Record<string, string>;
  /** Every stored object's key. */
  keys(dataDir: string): Promise<string[]>;
}

let s3: TestS3;

const drivers: Driver[] = [
  { name: 'filesystem', env: () => ({}), keys: async (dataDir) => filesIn(`${dataDir}/blobs`) },
  { name: 's3', env: () => s3.env, keys: () => s3.keys() },
];

beforeAll(async () => {
  s3 = await startS3();
});
afterAll(() => s3.close());

describe.each(drivers)('a run log across a kill -9 and a restart ($name)', (driver) => {
  const processes: ServerProcess[] = [];
  let dropDatabase: (() => Promise<void>) | undefined;

  afterAll(async () => {
    for (const p of processes) await p.kill();
    if (processes[0]) rmSync(processes[0].dataDir, { recursive: true, force: true });
    await dropDatabase?.();
  });

  it('keeps every acknowledged byte, goes on at the offset the executor has, and ends up in the blob store', async () => {
    const env: Record<string, string> = { ...driver.env(), LOG_LEVEL: 'warn' };
    if (usesMysql()) {
      const db = await createMysqlDatabase();
      dropDatabase = db.drop;
      env.DATABASE_URL = db.url;
    }
    const first = await ServerProcess.start('src/main.ts', env);
    processes.push(first);
    await first.ready(150_000);
    const admin = await bootstrapAdmin(first);
    const org = await createOrganization(admin);
    const ws = await createWorkspace(admin, org);
    const t1 = { origin: first.origin } as TestApp;
    const run = await createRun(admin, ws, {}, await uploadedVersion(t1, admin, ws));
    const ex = await executor(t1, admin, org);
    const job = await claimJob(ex);
    const before = Buffer.from('before the crash: héllo ✓\n');
    const after = Buffer.from('after the restart: wörld 😀\n');
    await append(first.origin, job.links.logs, 0, before).expect(200);

    await first.kill();
    const second = await ServerProcess.start('src/main.ts', env, first.dataDir);
    processes.push(second);
    await second.ready(150_000);
    const api = client(second, admin.token);

    // The executor did not hear the answer: it sends the chunk again, then goes on.
    await append(second.origin, job.links.logs, 0, before).expect(200);
    await append(second.origin, job.links.logs, before.length, after).expect(200);
    const plan = async () => (await api.get(`/api/v2/plans/${run.planId}`).expect(200)).body.data.attributes;
    const link = (await plan())['log-read-url'] as string;
    const log = Buffer.concat([before, after]);
    expect((await readAll(second.origin, link).expect(200)).body).toEqual(
      Buffer.concat([Buffer.from([2]), log]),
    );

    await agentCall({ origin: second.origin } as TestApp, `/jobs/${job.id}/finish`, ex.secret, ex.agentId)
      .send(PLANNED_WITH_CHANGES)
      .expect(204);
    const key = `runs/${run.id}/${run.planId}.log`;
    await until('the ended log is moved to the blob store', async () =>
      (await driver.keys(second.dataDir)).includes(key) ? true : undefined,
    );
    const framed = Buffer.concat([Buffer.from([2]), log, Buffer.from([3])]);
    expect((await readAll(second.origin, link).expect(200)).body).toEqual(framed);
    const reader = new LogReader(link, async () => (await plan()).status === 'finished');
    expect(await reader.readAll(16)).toEqual(log);
  });
});
