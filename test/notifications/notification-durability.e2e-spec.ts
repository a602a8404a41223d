import { rmSync } from 'node:fs';
import { Actor, bootstrapAdmin, createOrganization, createWorkspace } from '../helpers/fixtures';
import { ServerProcess } from '../helpers/server-process';
import { createMysqlDatabase, usesMysql } from '../helpers/test-app';
import request from 'supertest';
import { CONFIG_ARCHIVE, createRun, createVersion } from '../runs/run-fixtures';
import { createConfiguration } from './notification-fixtures';
import { Receiver } from './receiver';

jest.setTimeout(300_000);

const ENV = {
  NOTIFICATION_ALLOWED_NETWORKS: '127.0.0.1/32',
  NOTIFICATION_POLL_MS: '50',
  NOTIFICATION_TIMEOUT_MS: '1000',
  NOTIFICATION_RETRY_BASE_MS: '50',
  NOTIFICATION_RETRY_MAX_MS: '200',
  LOG_LEVEL: 'warn',
  WEB_CONCURRENCY: '1',
};

async function until(check: () => boolean, ms = 60_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('notification delivery across processes', () => {
  const processes: ServerProcess[] = [];
  const receivers: Receiver[] = [];
  let dropDatabase: (() => Promise<void>) | undefined;
  let databaseEnv: Record<string, string> = {};

  beforeEach(async () => {
    databaseEnv = {};
    if (usesMysql()) {
      const db = await createMysqlDatabase();
      dropDatabase = db.drop;
      databaseEnv = { DATABASE_URL: db.url };
    }
  });
  afterEach(async () => {
    for (const p of processes.splice(0)) await p.kill();
    await Promise.all(receivers.splice(0).map((r) => r.stop()));
    await dropDatabase?.();
    dropDatabase = undefined;
  });

  async function setUp(first: ServerProcess, r: Receiver) {
    await first.ready(150_000);
    const admin: Actor = await bootstrapAdmin(first);
    const org = await createOrganization(admin);
    const ws = await createWorkspace(admin, org);
    const cv = await createVersion(admin, ws, { 'auto-queue-runs': false });
    await request(first.origin)
      .put(new URL(cv.uploadUrl).pathname)
      .set('Content-Type', 'application/octet-stream')
      .send(CONFIG_ARCHIVE)
      .expect(200);
    await createConfiguration(admin, ws, {
      name: 'durable',
      'destination-type': 'generic',
      enabled: true,
      url: r.url,
      triggers: ['run:created'],
    });
    return { admin, ws };
  }

  it('delivers every notification due at a kill -9 once the server is back', async () => {
    const r = await new Receiver().start();
    receivers.push(r);
    const first = await ServerProcess.start('src/main.ts', {
      ...ENV,
      ...databaseEnv,
      NOTIFICATION_CONCURRENCY: '2',
    });
    processes.push(first);
    const { admin, ws } = await setUp(first, r);
    // From now on the receiver holds every request open: claimed deliveries stay `sending`.
    r.reply(...Array<'hang'>(20).fill('hang'));
    const runs: string[] = [];
    for (let i = 0; i < 6; i++) runs.push((await createRun(admin, ws)).id);
    await until(() => r.received.length >= 3);
    await first.kill();
    const answeredBefore = r.received.length;

    // Hung requests were cut by the kill; from here the receiver answers 200.
    r.clearReplies();
    const second = await ServerProcess.start('src/main.ts', { ...ENV, ...databaseEnv }, first.dataDir);
    processes.push(second);
    await second.ready(150_000);
    await until(() => {
      const got = new Set(r.received.slice(answeredBefore).map((x) => x.body.run_id));
      return runs.every((id) => got.has(id));
    });
    const after = r.received.slice(answeredBefore);
    expect(new Set(after.map((x) => x.body.run_id))).toEqual(new Set(runs));
    // A delivery keeps its id across the restart: receivers can drop the repeats.
    const idsBefore = new Set(r.received.slice(1, answeredBefore).map((x) => x.headers['x-plinth-delivery']));
    const repeated = after.filter((x) => idsBefore.has(x.headers['x-plinth-delivery']));
    expect(repeated.length).toBe(idsBefore.size);
    rmSync(first.dataDir, { recursive: true, force: true });
  });

  it('sends each delivery once while two nodes share the outbox', async () => {
    const r = await new Receiver().start();
    receivers.push(r);
    const a = await ServerProcess.start('src/main.ts', { ...ENV, ...databaseEnv });
    processes.push(a);
    const { admin, ws } = await setUp(a, r);
    const b = await ServerProcess.start('src/main.ts', { ...ENV, ...databaseEnv }, a.dataDir);
    processes.push(b);
    await b.ready(150_000);
    const runs: string[] = [];
    for (let i = 0; i < 20; i++) runs.push((await createRun(admin, ws)).id);
    await until(() => r.received.length >= 21);
    // Every node polls every 50 ms; give them time to send a second copy if they were going to.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const perDelivery = new Map<string, number>();
    for (const x of r.received) {
      const id = String(x.headers['x-plinth-delivery']);
      perDelivery.set(id, (perDelivery.get(id) ?? 0) + 1);
    }
    expect(r.received).toHaveLength(21);
    expect(new Set(r.received.slice(1).map((x) => x.body.run_id))).toEqual(new Set(runs));
    expect([...perDelivery.values()].every((n) => n === 1)).toBe(true);
    rmSync(a.dataDir, { recursive: true, force: true });
  });
});
