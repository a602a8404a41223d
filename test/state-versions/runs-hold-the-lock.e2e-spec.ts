import request from 'supertest';
import { Clock } from '../../src/common/clock';
import { RunTimeoutsService } from '../../src/runs/run-timeouts.service';
import { Actor, bootstrapAdmin, createOrganization, createWorkspace, idOf } from '../helpers/fixtures';
import { startApp, TestApp } from '../helpers/test-app';
import {
  claimJob,
  createRun,
  executor,
  Executor,
  MovableClock,
  PLANNED_WITH_CHANGES,
  putLink,
  runStatus,
  uploadedVersion,
} from '../runs/run-fixtures';
import { createBody, lock, newLineage, pushState, stateFile, unlock } from './state-fixtures';

jest.setTimeout(90_000);

const NO_CHANGES = {
  ...PLANNED_WITH_CHANGES,
  'has-changes': false,
  'resource-additions': 0,
  'resource-changes': 0,
};
const LOCKED_BY_RUN = 'This workspace is locked by Run: only the holder of its lock may upload state';

/**
 * A run that may apply holds its workspace's lock from the start of its plan to its end, whatever
 * the end; an executor reads the current state through its job's claim and hands the state its
 * apply left back through a signed upload.
 */
describe('runs hold the workspace lock and hand state over', () => {
  let t: TestApp;
  let admin: Actor;
  let org: string;
  let ex: Executor;
  const clock = new MovableClock();

  beforeAll(async () => {
    t = await startApp({ EXECUTOR_TIMEOUT: '60' }, [{ provide: Clock, useValue: clock }]);
    admin = await bootstrapAdmin(t);
    // The timeout sweep runs by hand, at the time the moved clock says.
    t.app.get(RunTimeoutsService).onApplicationShutdown();
  });
  afterAll(() => t.close());
  // An organization per test: its organization-scoped pool sees only that test's jobs.
  beforeEach(async () => {
    org = await createOrganization(admin);
    ex = await executor(t, admin, org);
  });

  const workspace = async (id: string) =>
    (await admin.api.get(`/api/v2/workspaces/${id}`).expect(200)).body.data;

  async function expectHeldBy(ws: string, runId: string): Promise<void> {
    const data = await workspace(ws);
    expect(data.attributes.locked).toBe(true);
    expect(data.relationships['locked-by']).toEqual({ data: { id: runId, type: 'runs' } });
  }

  async function expectUnlocked(ws: string): Promise<void> {
    const data = await workspace(ws);
    expect(data.attributes.locked).toBe(false);
    expect(data.relationships['locked-by']).toEqual({ data: null });
  }

  /** A user's writes refused while the run holds the lock, in the words the clients tell apart. */
  async function expectUsersRefused(ws: string): Promise<void> {
    const pushed = await admin.api
      .post(
        `/api/v2/workspaces/${ws}/state-versions`,
        createBody(stateFile({ serial: 50, lineage: newLineage() })),
      )
      .expect(409);
    expect(pushed.body.errors[0].detail).toBe(LOCKED_BY_RUN);
    const unlocked = await admin.api.post(`/api/v2/workspaces/${ws}/actions/unlock`).expect(409);
    expect(unlocked.body.errors[0].detail).toBe('The workspace is locked by Run');
    await admin.api.post(`/api/v2/workspaces/${ws}/actions/lock`).expect(409);
  }

  async function newWorkspace(): Promise<string> {
    const ws = await createWorkspace(admin, org);
    await uploadedVersion(t, admin, ws);
    return ws;
  }

  it('locks from the start of the plan, hands the state over, and unlocks when the apply ends', async () => {
    const ws = await newWorkspace();
    const run = await createRun(admin, ws);
    expect(run.status).toBe('plan_queued');
    await expectHeldBy(ws, run.id);
    await expectUsersRefused(ws);

    // The plan reads the current state (none yet) and is given nothing to upload.
    const plan = await claimJob(ex);
    expect(plan.kind).toBe('plan');
    expect(plan.links.state).toBeNull();
    expect(plan.links).not.toHaveProperty('state-upload');
    await ex.finish(plan.id, PLANNED_WITH_CHANGES).expect(204);
    expect(await runStatus(admin, run.id)).toBe('planned');
    await expectHeldBy(ws, run.id);
    await expectUsersRefused(ws);

    await admin.api.post(`/api/v2/runs/${run.id}/actions/apply`).expect(202);
    const apply = await claimJob(ex);
    expect(apply.kind).toBe('apply');
    expect(apply.links.state).toBeNull();
    expect(apply.links['state-upload']).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/uploads\//);

    const lineage = newLineage();
    const applied = stateFile({ serial: 1, lineage, nulls: 2, outputs: { ip: { value: '10.0.0.1' } } });
    await putLink(t, apply.links['state-upload'], applied).expect(200);
    // The executor tries again (its answer was lost): the same state is the same version.
    await putLink(t, apply.links['state-upload'], applied).expect(200);
    const versions = await admin.api
      .get(
        `/api/v2/state-versions?filter[organization][name]=${org}&filter[workspace][name]=${(await workspace(ws)).attributes.name}`,
      )
      .expect(200);
    expect(versions.body.data).toHaveLength(1);
    const [version] = versions.body.data;
    expect(version).toMatchObject({
      id: expect.stringMatching(idOf('sv')),
      attributes: {
        status: 'finalized',
        serial: 1,
        size: applied.length,
        'resources-processed': true,
        'hosted-state-upload-url': null,
      },
      relationships: {
        run: { data: { id: run.id, type: 'runs' } },
        'created-by': { data: null },
      },
    });
    const current = await admin.api.get(`/api/v2/workspaces/${ws}/current-state-version`).expect(200);
    expect(current.body.data.id).toBe(version.id);
    const shown = await workspace(ws);
    expect(shown.attributes['resource-count']).toBe(2);
    expect(shown.relationships['current-state-version']).toEqual({
      data: { id: version.id, type: 'state-versions' },
    });
    // Another state (a later serial of another lineage) from the same run is checked like any write.
    const stray = await putLink(
      t,
      apply.links['state-upload'],
      stateFile({ serial: 9, lineage: newLineage() }),
    );
    expect(stray.status).toBe(409);
    expect(stray.body.errors[0].detail).toMatch(/^The lineage provided in the state file does not match/);
    const junk = await putLink(t, apply.links['state-upload'], Buffer.from('not a state'));
    expect(junk.status).toBe(422);

    await ex.finish(apply.id, { status: 'finished', 'resource-additions': 2 }).expect(204);
    expect(await runStatus(admin, run.id)).toBe('applied');
    await expectUnlocked(ws);

    // The next run's jobs read the state the apply left, through their own signed links.
    const next = await createRun(admin, ws);
    await expectHeldBy(ws, next.id);
    const nextPlan = await claimJob(ex);
    expect(nextPlan.links.state).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/uploads\//);
    const got = await request(t.origin).get(new URL(nextPlan.links.state).pathname).buffer(true).expect(200);
    expect(got.headers['content-length']).toBe(String(applied.length));
    expect(Buffer.from(got.body as Buffer).equals(applied)).toBe(true);
    await ex.finish(nextPlan.id, NO_CHANGES).expect(204);
    expect(await runStatus(admin, next.id)).toBe('planned_and_finished');
    await expectUnlocked(ws);
  });

  it('leaves speculative runs out of the lock, and keeps runs waiting behind a user lock', async () => {
    const ws = await newWorkspace();
    const speculative = await createRun(admin, ws, { 'plan-only': true });
    expect(speculative.status).toBe('plan_queued');
    await expectUnlocked(ws);
    // A user may still write state while a speculative plan runs.
    await pushState(admin, ws, stateFile({ serial: 1, lineage: newLineage() }));

    await lock(admin, ws);
    const waiting = await createRun(admin, ws);
    expect(waiting.status).toBe('pending');
    const held = await workspace(ws);
    expect(held.relationships['locked-by']).toEqual({ data: { id: admin.userId, type: 'users' } });
    // The user's unlock starts the waiting run, which takes the lock in the same transaction.
    const unlocked = await admin.api.post(`/api/v2/workspaces/${ws}/actions/unlock`).expect(200);
    expect(unlocked.body.data.relationships['locked-by']).toEqual({ data: { id: waiting.id, type: 'runs' } });
    expect(await runStatus(admin, waiting.id)).toBe('plan_queued');
  });

  it('hands the lock to the next run in the queue when a run ends, and releases it on every end', async () => {
    const ws = await newWorkspace();
    // Errored plan.
    const first = await createRun(admin, ws);
    const second = await createRun(admin, ws);
    expect(second.status).toBe('pending');
    await expectHeldBy(ws, first.id);
    const firstPlan = await claimJob(ex);
    await ex.finish(firstPlan.id, { status: 'errored', 'error-message': 'boom' }).expect(204);
    expect(await runStatus(admin, first.id)).toBe('errored');
    // The queue started the next run, which holds the lock now.
    expect(await runStatus(admin, second.id)).toBe('plan_queued');
    await expectHeldBy(ws, second.id);

    // Canceled while queued.
    await admin.api.post(`/api/v2/runs/${second.id}/actions/cancel`).expect(202);
    expect(await runStatus(admin, second.id)).toBe('canceled');
    await expectUnlocked(ws);

    // Discarded after its plan.
    const third = await createRun(admin, ws);
    await ex.finish((await claimJob(ex)).id, PLANNED_WITH_CHANGES).expect(204);
    await expectHeldBy(ws, third.id);
    await admin.api.post(`/api/v2/runs/${third.id}/actions/discard`).expect(202);
    await expectUnlocked(ws);

    // Canceled while planning: the executor stops and reports.
    const fourth = await createRun(admin, ws);
    const fourthPlan = await claimJob(ex);
    await admin.api.post(`/api/v2/runs/${fourth.id}/actions/cancel`).expect(202);
    await expectHeldBy(ws, fourth.id);
    await ex.finish(fourthPlan.id, { status: 'errored', 'error-message': 'stopped' }).expect(204);
    expect(await runStatus(admin, fourth.id)).toBe('canceled');
    await expectUnlocked(ws);

    // Force-canceled while applying.
    const fifth = await createRun(admin, ws, { 'auto-apply': true });
    await ex.finish((await claimJob(ex)).id, PLANNED_WITH_CHANGES).expect(204);
    const fifthApply = await claimJob(ex);
    expect(fifthApply.kind).toBe('apply');
    await admin.api.post(`/api/v2/runs/${fifth.id}/actions/cancel`).expect(202);
    clock.advance(11_000);
    await admin.api.post(`/api/v2/runs/${fifth.id}/actions/force-cancel`).expect(202);
    expect(await runStatus(admin, fifth.id)).toBe('force_canceled');
    await expectUnlocked(ws);
    // The stopped apply's state still arrives afterwards: nobody holds the lock, so it is kept.
    const left = stateFile({ serial: 1, lineage: newLineage(), nulls: 1 });
    await putLink(t, fifthApply.links['state-upload'], left).expect(200);
    const current = await admin.api.get(`/api/v2/workspaces/${ws}/current-state-version`).expect(200);
    expect(current.body.data.relationships.run.data.id).toBe(fifth.id);
    expect(current.body.data.attributes.serial).toBe(1);
    // Once a user holds the lock, a late state from a run that ended is refused.
    await lock(admin, ws);
    const late = await putLink(
      t,
      fifthApply.links['state-upload'],
      stateFile({ serial: 2, lineage: newLineage() }),
    );
    expect(late.status).toBe(409);
    expect(late.body.errors[0].detail).toBe(
      'This workspace is locked by User: only the holder of its lock may upload state',
    );
    await unlock(admin, ws);

    // Timed out: its executor went quiet past EXECUTOR_TIMEOUT.
    const sixth = await createRun(admin, ws);
    await claimJob(ex);
    await expectHeldBy(ws, sixth.id);
    clock.advance(61_000);
    expect(await t.app.get(RunTimeoutsService).sweep()).toBe(1);
    expect(await runStatus(admin, sixth.id)).toBe('errored');
    await expectUnlocked(ws);
    await pushState(admin, ws, stateFile({ serial: 5, lineage: newLineage() }), true);
  });

  it('lets the run whose lock an administrator forced open finish without taking a user lock with it', async () => {
    const ws = await newWorkspace();
    const run = await createRun(admin, ws);
    const plan = await claimJob(ex);
    await admin.api.post(`/api/v2/workspaces/${ws}/actions/force-unlock`).expect(200);
    await expectUnlocked(ws);
    await lock(admin, ws);
    await ex.finish(plan.id, { status: 'errored', 'error-message': 'boom' }).expect(204);
    expect(await runStatus(admin, run.id)).toBe('errored');
    // The run's end released only its own lock: the user's stays.
    const held = await workspace(ws);
    expect(held.relationships['locked-by']).toEqual({ data: { id: admin.userId, type: 'users' } });
    const state = stateFile({ serial: 1, lineage: newLineage() });
    const pushed = await admin.api
      .post(`/api/v2/workspaces/${ws}/state-versions`, createBody(state))
      .expect(201);
    expect(pushed.body.data.attributes).toMatchObject({ status: 'finalized', serial: 1 });
    await unlock(admin, ws);
  });
});
