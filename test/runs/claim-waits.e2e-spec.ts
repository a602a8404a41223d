import { request as httpRequest } from 'node:http';
import { createAgentToken, createPool } from '../agent-pools/helpers';
import { Actor, bootstrapAdmin, createOrganization, createWorkspace } from '../helpers/fixtures';
import { startApp, TestApp } from '../helpers/test-app';
import { claimedJob, waitersOn, waitingClaim } from './claim-wait-fixtures';
import { createRun, executor, registeredExecutor, uploadedVersion } from './run-fixtures';

jest.setTimeout(60_000);

describe('claims that wait for a job (long poll)', () => {
  let t: TestApp;
  let admin: Actor;
  let org: string;
  let ws: string;

  beforeAll(async () => {
    // No database check within a test's time: a waiting claim here learns of jobs only from the
    // transaction that queued them.
    t = await startApp({ CLAIM_WAIT_CHECK_MS: '60000' });
    admin = await bootstrapAdmin(t);
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    org = await createOrganization(admin);
    ws = await createWorkspace(admin, org);
    await uploadedVersion(t, admin, ws);
  });

  it('answers a waiting claim with the job as soon as a run is queued', async () => {
    const ex = await executor(t, admin, org);
    const claim = waitingClaim(t, ex, 30).then((r) => r);
    await waitersOn(t, 1);
    const run = await createRun(admin, ws, { 'plan-only': true });
    const res = await claim;
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body).toEqual(claimedJob(run.id, ws, org));
    await waitersOn(t, 0);
  });

  it('hands one job to exactly one of many waiting claims; the others wait on and end with a 204', async () => {
    const { secret } = await createAgentToken(admin, await createPool(admin, org, 'fleet'));
    const fleet = [];
    for (let i = 0; i < 12; i++) fleet.push(await registeredExecutor(t, secret));
    const waiting = fleet.map((ex) => waitingClaim(t, ex, 3).then((r) => r));
    await waitersOn(t, 12);
    const run = await createRun(admin, ws, { 'plan-only': true });
    const answers = await Promise.all(waiting);
    const claimed = answers.filter((r) => r.status === 200);
    expect(claimed.map((r) => r.body)).toEqual([claimedJob(run.id, ws, org)]);
    expect(answers.filter((r) => r.status !== 200).map((r) => [r.status, r.text])).toEqual(
      Array.from({ length: 11 }, () => [204, '']),
    );
  });

  it('answers at once without a wait, and with wait=0, as a poll', async () => {
    const ex = await executor(t, admin, org);
    const plain = await ex.claim();
    expect([plain.status, plain.text]).toEqual([204, '']);
    const zero = await waitingClaim(t, ex, 0);
    expect([zero.status, zero.text]).toEqual([204, '']);
  });

  it.each(['abc', '-1', '1.5', '31', '1e3'])(
    'refuses wait=%s with a 422 naming the parameter',
    async (wait) => {
      const ex = await executor(t, admin, org);
      const res = await waitingClaim(t, ex, wait);
      expect(res.status).toBe(422);
      expect(res.body).toEqual({
        errors: [
          {
            status: '422',
            title: 'invalid attribute',
            detail: 'wait must be a whole number of seconds from 0 to 30',
            source: { parameter: 'wait' },
          },
        ],
      });
    },
  );

  it('drops the wait of an executor that hung up, and claims no job for it', async () => {
    const ex = await executor(t, admin, org);
    const url = new URL(`${t.origin}/api/v2/agent/jobs/claim?wait=30`);
    const req = httpRequest(url, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${ex.secret}`,
        'X-Plinth-Agent': ex.agentId,
        'Content-Type': 'application/json',
      },
    });
    req.on('error', () => undefined);
    req.end('{}');
    await waitersOn(t, 1);
    req.destroy();
    await waitersOn(t, 0);
    const run = await createRun(admin, ws, { 'plan-only': true });
    const res = await ex.claim();
    expect(res.status).toBe(200);
    expect(res.body).toEqual(claimedJob(run.id, ws, org));
  });
});

describe('a waiting claim when the server stops', () => {
  it('is answered 204 at once', async () => {
    const t = await startApp({ SHUTDOWN_TIMEOUT_MS: '20000' });
    let closed = false;
    try {
      const admin = await bootstrapAdmin(t);
      const ex = await executor(t, admin, await createOrganization(admin));
      const claim = waitingClaim(t, ex, 30).then((r) => r);
      await waitersOn(t, 1);
      const closing = t.close();
      const res = await claim;
      expect([res.status, res.text]).toEqual([204, '']);
      await closing;
      closed = true;
    } finally {
      if (!closed) await t.close();
    }
  });
});
