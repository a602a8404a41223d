import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Actor, bootstrapAdmin, createOrganization, createWorkspace } from '../helpers/fixtures';
import { tcpReachable } from '../helpers/reachable';
import { startApp, TestApp, usesMysql } from '../helpers/test-app';
import { claimedJob, waitersOn, waitingClaim } from './claim-wait-fixtures';
import { createRun, registeredExecutor, uploadedVersion } from './run-fixtures';
import { createAgentToken, createPool } from '../agent-pools/helpers';

jest.setTimeout(60_000);

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const redisUp = tcpReachable(REDIS_URL);
if (!redisUp) {
  process.stderr.write(
    `Skipping "waiting claims across nodes with Redis": nothing answers at ${REDIS_URL} (start Redis or set TEST_REDIS_URL).\n`,
  );
}

/**
 * Two servers on one database, as two nodes behind a load balancer: a job queued through one
 * wakes a claim waiting on the other.
 */
function acrossNodes(name: string, env: () => Record<string, string>) {
  describe(name, () => {
    let sqliteDir: string | undefined;
    let a: TestApp;
    let b: TestApp;
    let admin: Actor;

    beforeAll(async () => {
      if (!usesMysql()) sqliteDir = mkdtempSync(join(tmpdir(), 'plinth-claim-waits-'));
      const shared: Record<string, string> = sqliteDir
        ? { DATABASE_URL: `sqlite:${join(sqliteDir, 'shared.sqlite')}` }
        : {};
      a = await startApp({ ...shared, ...env() });
      b = await startApp({ ...env(), DATABASE_URL: a.config.databaseUrl });
      admin = await bootstrapAdmin(a);
    });
    afterAll(async () => {
      await b?.close();
      await a?.close();
      if (sqliteDir) rmSync(sqliteDir, { recursive: true, force: true });
    });

    it('wakes a claim waiting on one node when a run is queued on the other, and hands the job out once', async () => {
      const org = await createOrganization(admin);
      const ws = await createWorkspace(admin, org);
      await uploadedVersion(a, admin, ws);
      const pool = await createPool(admin, org, 'fleet');
      const { secret } = await createAgentToken(admin, pool);
      const onB = await Promise.all([0, 1, 2].map(() => registeredExecutor(b, secret)));
      const onA = await Promise.all([0, 1].map(() => registeredExecutor(a, secret)));
      const waiting = [
        ...onB.map((ex) => waitingClaim(b, ex, 3).then((r) => r)),
        ...onA.map((ex) => waitingClaim(a, ex, 3).then((r) => r)),
      ];
      await Promise.all([waitersOn(b, 3), waitersOn(a, 2)]);
      const run = await createRun(admin, ws, { 'plan-only': true });
      const answers = await Promise.all(waiting);
      expect(answers.filter((r) => r.status === 200).map((r) => r.body)).toEqual([
        claimedJob(run.id, ws, org),
      ]);
      expect(answers.filter((r) => r.status !== 200).map((r) => r.status)).toEqual([204, 204, 204, 204]);
    });

    it('wakes a claim waiting only on the other node', async () => {
      const org = await createOrganization(admin);
      const ws = await createWorkspace(admin, org);
      await uploadedVersion(a, admin, ws);
      const pool = await createPool(admin, org, 'fleet');
      const { secret } = await createAgentToken(admin, pool);
      const ex = await registeredExecutor(b, secret);
      const claim = waitingClaim(b, ex, 20).then((r) => r);
      await waitersOn(b, 1);
      const run = await createRun(admin, ws, { 'plan-only': true });
      const res = await claim;
      expect(res.status).toBe(200);
      expect(res.body).toEqual(claimedJob(run.id, ws, org));
    });
  });
}

acrossNodes('waiting claims across nodes without Redis (the shared check)', () => ({
  CLAIM_WAIT_CHECK_MS: '100',
}));

if (redisUp) {
  // One prefix for both nodes: they share the channel, and nothing of other suites' servers.
  const prefix = `plinth-e2e-${process.pid}-${Math.random().toString(36).slice(2, 8)}:`;
  acrossNodes('waiting claims across nodes with Redis', () => ({
    REDIS_URL,
    REDIS_KEY_PREFIX: prefix,
    // The backstop check would come only after the test: the other node hears of the job from Redis.
    CLAIM_WAIT_CHECK_MS: '60000',
  }));
}
