import { Clock } from '../../src/common/clock';
import { UNKNOWN_AFTER_MS } from '../../src/runs/protocol/agent-context';
import { FORCE_CANCEL_COOL_OFF_MS } from '../../src/runs/run-rules';
import { RunTimeoutsService } from '../../src/runs/run-timeouts.service';
import { Actor, bootstrapAdmin, createOrganization, createWorkspace } from '../helpers/fixtures';
import { startApp, TestApp } from '../helpers/test-app';
import { claimJob, createRun, executor, MovableClock, uploadedVersion } from '../runs/run-fixtures';

jest.setTimeout(90_000);

/**
 * Some answers change with the time alone, without any write: the response cache must not give
 * them after the moment they change, however long it would keep them otherwise. The clock is the
 * server's Clock, moved by the test; the response cache keeps answers for a minute here, so only
 * the time an answer carries can end it.
 */
describe('answers that change with the time', () => {
  let t: TestApp;
  let admin: Actor;
  let org: string;
  const clock = new MovableClock();

  beforeAll(async () => {
    t = await startApp({ CACHE_TTL_MS: '60000', EXECUTOR_TIMEOUT: '3600' }, [
      { provide: Clock, useValue: clock },
    ]);
    admin = await bootstrapAdmin(t);
    // Nothing times out behind the test's back while its clock moves.
    t.app.get(RunTimeoutsService).onApplicationShutdown();
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    org = await createOrganization(admin);
  });

  it("offers a run's force-cancel once its cool-off has passed, though nothing was written", async () => {
    const ex = await executor(t, admin, org);
    const ws = await createWorkspace(admin, org);
    await uploadedVersion(t, admin, ws);
    const run = await createRun(admin, ws);
    expect((await claimJob(ex)).runId).toBe(run.id);
    await admin.api.post(`/api/v2/runs/${run.id}/actions/cancel`).expect(202);

    const actions = async () =>
      (await admin.api.get(`/api/v2/runs/${run.id}`).expect(200)).body.data.attributes;
    const before = await actions();
    expect(before.status).toBe('planning');
    expect(before.actions).toEqual({
      'is-cancelable': false,
      'is-confirmable': false,
      'is-discardable': false,
      'is-force-cancelable': false,
    });
    // The same answer again, from memory.
    expect((await actions()).actions['is-force-cancelable']).toBe(false);

    clock.advance(FORCE_CANCEL_COOL_OFF_MS);
    const after = await actions();
    expect(after.status).toBe('planning');
    expect(after.actions).toEqual({ ...before.actions, 'is-force-cancelable': true });
    expect(after['force-cancel-available-at']).toBe(before['force-cancel-available-at']);
  });

  it('tells an agent that stopped calling in as unknown, though nothing was written', async () => {
    const ex = await executor(t, admin, org);
    const agent = async () =>
      (await admin.api.get(`/api/v2/agents/${ex.agentId}`).expect(200)).body.data.attributes;
    const idle = await agent();
    expect(idle.status).toBe('idle');
    expect((await agent()).status).toBe('idle');

    clock.advance(UNKNOWN_AFTER_MS + 1_000);
    expect(await agent()).toEqual({ ...idle, status: 'unknown' });
  });
});
