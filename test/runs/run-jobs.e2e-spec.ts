import { Clock } from '../../src/common/clock';
import { RunTimeoutsService } from '../../src/runs/run-timeouts.service';
import { agentCall, createAgentToken, createPool } from '../agent-pools/helpers';
import { Actor, bootstrapAdmin, createOrganization, createWorkspace } from '../helpers/fixtures';
import { startApp, TestApp } from '../helpers/test-app';
import {
  claimJob,
  createRun,
  executor,
  MovableClock,
  PLANNED_WITH_CHANGES,
  registeredExecutor,
  runStatus,
  uploadedVersion,
} from './run-fixtures';

jest.setTimeout(120_000);

const TIMEOUT_SECONDS = 300;

describe('job claims, heartbeats and timeouts', () => {
  let t: TestApp;
  let admin: Actor;
  let org: string;
  const clock = new MovableClock();

  beforeAll(async () => {
    t = await startApp({ EXECUTOR_TIMEOUT: String(TIMEOUT_SECONDS) }, [{ provide: Clock, useValue: clock }]);
    admin = await bootstrapAdmin(t);
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    org = await createOrganization(admin);
  });

  it('hands each job to exactly one of 50 agents claiming at once', async () => {
    const ws = await createWorkspace(admin, org);
    await uploadedVersion(t, admin, ws);
    const runs = [];
    for (let i = 0; i < 10; i++) runs.push((await createRun(admin, ws, { 'plan-only': true })).id);
    const pool = await createPool(admin, org, 'claimers');
    const { secret } = await createAgentToken(admin, pool);
    const agents = [];
    for (let i = 0; i < 50; i++) agents.push(await registeredExecutor(t, secret));

    const answers = await Promise.all(agents.map((a) => a.claim()));
    const claimed = answers.filter((r) => r.status === 200);
    expect(answers.filter((r) => r.status !== 200 && r.status !== 204)).toEqual([]);
    expect(claimed).toHaveLength(10);
    expect(new Set(claimed.map((r) => r.body.job.id)).size).toBe(10);
    expect(new Set(claimed.map((r) => r.body.job['run-id']))).toEqual(new Set(runs));
    for (const id of runs) expect(await runStatus(admin, id)).toBe('planning');
    await agents[0].claim().expect(204);
  });

  it("serves a pool only its organization's unassigned jobs, and only when organization-scoped", async () => {
    const ws = await createWorkspace(admin, org);
    await uploadedVersion(t, admin, ws);
    await createRun(admin, ws);
    const scopedOff = await createPool(admin, org, 'narrow', { 'organization-scoped': false });
    const narrow = await registeredExecutor(t, (await createAgentToken(admin, scopedOff)).secret);
    await narrow.claim().expect(204);
    const elsewhere = await executor(t, admin, await createOrganization(admin));
    await elsewhere.claim().expect(204);
    const mine = await executor(t, admin, org);
    await mine.claim().expect(200);
  });

  it('shows an agent busy while it holds a job and idle once it reported, in the list and alone', async () => {
    const ws = await createWorkspace(admin, org);
    await uploadedVersion(t, admin, ws);
    await createRun(admin, ws);
    const ex = await executor(t, admin, org);
    const other = await registeredExecutor(t, ex.secret);
    const statusOf = async () => {
      const alone = await admin.api.get(`/api/v2/agents/${ex.agentId}`).expect(200);
      const pool = alone.body.data.relationships['agent-pool'].data.id;
      const list = await admin.api.get(`/api/v2/agent-pools/${pool}/agents`).expect(200);
      const listed = Object.fromEntries(
        list.body.data.map((a: { id: string; attributes: { status: string } }) => [a.id, a.attributes.status]),
      );
      expect(listed[ex.agentId]).toBe(alone.body.data.attributes.status);
      return { mine: listed[ex.agentId], other: listed[other.agentId] };
    };

    expect(await statusOf()).toEqual({ mine: 'idle', other: 'idle' });
    const job = await claimJob(ex);
    expect(await statusOf()).toEqual({ mine: 'busy', other: 'idle' });
    await admin.api.delete(`/api/v2/agents/${ex.agentId}`).expect(412);
    await ex.finish(job.id, PLANNED_WITH_CHANGES).expect(204);
    expect(await statusOf()).toEqual({ mine: 'idle', other: 'idle' });
  });

  it('refuses user tokens and missing agent headers on the job routes', async () => {
    await agentCall(t, '/jobs/claim', admin.token, 'agent-0000000000000000').send({}).expect(401);
    const ex = await executor(t, admin, org);
    await agentCall(t, '/jobs/claim', ex.secret).send({}).expect(401);
    await admin.api.post('/api/v2/agent/jobs/claim').expect(401);
  });

  it('errors a job and its run once the executor stopped heartbeating, exactly once across sweepers', async () => {
    const sweeper = t.app.get(RunTimeoutsService);
    // The jobs earlier tests left claimed time out first, so the counts below are this test's.
    clock.advance((TIMEOUT_SECONDS + 1) * 1000);
    await sweeper.sweep();
    const ws = await createWorkspace(admin, org);
    await uploadedVersion(t, admin, ws);
    const run = await createRun(admin, ws);
    const next = await createRun(admin, ws);
    const ex = await executor(t, admin, org);
    const job = await claimJob(ex);

    clock.advance((TIMEOUT_SECONDS - 10) * 1000);
    await ex.heartbeat(job.id).expect(200);
    clock.advance((TIMEOUT_SECONDS - 10) * 1000);
    expect(await sweeper.sweep()).toBe(0);
    expect(await runStatus(admin, run.id)).toBe('planning');

    clock.advance(20 * 1000);
    const taken = await Promise.all([sweeper.sweep(), sweeper.sweep(), sweeper.sweep()]);
    expect(taken.reduce((a, b) => a + b, 0)).toBe(1);
    const errored = await admin.api.get(`/api/v2/runs/${run.id}`).expect(200);
    expect(errored.body.data.attributes).toMatchObject({
      status: 'errored',
      'error-message': `the executor stopped reporting for ${TIMEOUT_SECONDS} s`,
    });
    const plan = await admin.api.get(`/api/v2/plans/${run.planId}`).expect(200);
    expect(plan.body.data.attributes).toMatchObject({
      status: 'errored',
      'error-message': `the executor stopped reporting for ${TIMEOUT_SECONDS} s`,
    });
    expect(await runStatus(admin, next.id)).toBe('plan_queued');
    expect((await ex.heartbeat(job.id).expect(200)).body).toEqual({ status: 'canceled' });
    const late = await ex.finish(job.id, PLANNED_WITH_CHANGES).expect(409);
    expect(late.body.errors[0].detail).toBe('The job is errored: it no longer takes a report');
  });

  it('force-cancels a canceled run whose executor did not stop, once the cool-off passed', async () => {
    const ws = await createWorkspace(admin, org);
    await uploadedVersion(t, admin, ws);
    const run = await createRun(admin, ws);
    const ex = await executor(t, admin, org);
    const job = await claimJob(ex);
    await admin.api.post(`/api/v2/runs/${run.id}/actions/cancel`).expect(202);
    await admin.api.post(`/api/v2/runs/${run.id}/actions/force-cancel`).expect(409);
    clock.advance(11_000);
    const ready = await admin.api.get(`/api/v2/runs/${run.id}`).expect(200);
    expect(ready.body.data.attributes.actions['is-force-cancelable']).toBe(true);
    await admin.api.post(`/api/v2/runs/${run.id}/actions/force-cancel`).expect(202);
    const ended = await admin.api.get(`/api/v2/runs/${run.id}`).expect(200);
    expect(ended.body.data.attributes).toMatchObject({
      status: 'force_canceled',
      'status-timestamps': { 'force-canceled-at': expect.any(String) },
    });
    await ex.finish(job.id, PLANNED_WITH_CHANGES).expect(409);
  });
});
