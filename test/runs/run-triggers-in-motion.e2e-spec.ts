import { Actor, bootstrapAdmin, createOrganization, createWorkspace, idOf } from '../helpers/fixtures';
import { startApp, TestApp } from '../helpers/test-app';
import { createTrigger } from '../run-triggers/helpers';
import {
  claimJob,
  createRun,
  executor,
  Executor,
  PLANNED_WITH_CHANGES,
  runStatus,
  uploadedVersion,
} from './run-fixtures';

jest.setTimeout(60_000);

describe('run triggers in motion', () => {
  let t: TestApp;
  let admin: Actor;
  let org: string;
  let ex: Executor;

  beforeAll(async () => {
    t = await startApp();
    admin = await bootstrapAdmin(t);
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    org = await createOrganization(admin);
    ex = await executor(t, admin, org);
  });

  /** Plans and applies the run the executor claims next; returns the apply job's id. */
  async function driveToApplied(runId: string): Promise<string> {
    const plan = await claimJob(ex);
    expect(plan.runId).toBe(runId);
    await ex.finish(plan.id, PLANNED_WITH_CHANGES).expect(204);
    await admin.api.post(`/api/v2/runs/${runId}/actions/apply`).expect(202);
    const apply = await claimJob(ex);
    return apply.id;
  }

  const runsOf = async (ws: string) =>
    (await admin.api.get(`/api/v2/workspaces/${ws}/runs`).expect(200)).body.data as {
      id: string;
      attributes: Record<string, unknown>;
      relationships: Record<string, { data: { id: string } | null }>;
    }[];

  it('queues one run in each destination once the source run is applied, however often the report arrives', async () => {
    const source = await createWorkspace(admin, org);
    const dest = await createWorkspace(admin, org);
    const bare = await createWorkspace(admin, org);
    await uploadedVersion(t, admin, source);
    const destCv = await uploadedVersion(t, admin, dest);
    const toDest = await createTrigger(admin, dest, source);
    const toBare = await createTrigger(admin, bare, source);
    const run = await createRun(admin, source);
    const applyJob = await driveToApplied(run.id);
    expect(await runsOf(dest)).toEqual([]);

    const report = { status: 'finished', 'resource-additions': 1 };
    const answers = await Promise.all([1, 2, 3].map(() => ex.finish(applyJob, report)));
    expect(answers.map((r) => r.status)).toEqual([204, 204, 204]);
    await ex.finish(applyJob, report).expect(204);
    expect(await runStatus(admin, run.id)).toBe('applied');

    const triggered = await runsOf(dest);
    expect(triggered).toHaveLength(1);
    expect(triggered[0].attributes).toMatchObject({
      status: 'plan_queued',
      source: 'tfe-run-trigger',
      'trigger-reason': 'run-trigger',
      'auto-apply': false,
      message: expect.stringContaining(run.id),
    });
    expect(triggered[0].relationships['triggering-run']).toEqual({ data: { id: run.id, type: 'runs' } });
    expect(triggered[0].relationships['configuration-version'].data).toEqual({
      id: destCv,
      type: 'configuration-versions',
    });
    expect(await runsOf(bare)).toEqual([]);

    const shown = await admin.api.get(`/api/v2/runs/${run.id}`).expect(200);
    expect(shown.body.data.attributes['run-trigger-outcomes']).toEqual([
      { 'run-trigger-id': toDest, 'workspace-id': dest, 'run-id': triggered[0].id, reason: null },
      {
        'run-trigger-id': toBare,
        'workspace-id': bare,
        'run-id': null,
        reason: 'The workspace has no uploaded configuration version: no run was queued',
      },
    ]);
  });

  it('lets triggered runs apply on their own only where auto-apply-run-trigger is on', async () => {
    const source = await createWorkspace(admin, org);
    const dest = await createWorkspace(admin, org);
    await admin.api
      .patch(`/api/v2/workspaces/${dest}`, {
        data: { type: 'workspaces', attributes: { 'auto-apply': false, 'auto-apply-run-trigger': true } },
      })
      .expect(200);
    await uploadedVersion(t, admin, source);
    await uploadedVersion(t, admin, dest);
    await createTrigger(admin, dest, source);
    const run = await createRun(admin, source);
    await ex.finish(await driveToApplied(run.id), { status: 'finished' }).expect(204);
    const [triggered] = await runsOf(dest);
    expect(triggered.attributes['auto-apply']).toBe(true);
    const plan = await claimJob(ex);
    expect(plan.runId).toBe(triggered.id);
    await ex.finish(plan.id, PLANNED_WITH_CHANGES).expect(204);
    expect(await runStatus(admin, triggered.id)).toBe('apply_queued');
  });

  it('queues nothing for a run that errored or was discarded', async () => {
    const source = await createWorkspace(admin, org);
    const dest = await createWorkspace(admin, org);
    await uploadedVersion(t, admin, source);
    await uploadedVersion(t, admin, dest);
    await createTrigger(admin, dest, source);
    const run = await createRun(admin, source);
    await ex.finish(await driveToApplied(run.id), { status: 'errored', 'error-message': 'x' }).expect(204);
    const discarded = await createRun(admin, source);
    await ex.finish((await claimJob(ex)).id, PLANNED_WITH_CHANGES).expect(204);
    await admin.api.post(`/api/v2/runs/${discarded.id}/actions/discard`).expect(202);
    expect(await runsOf(dest)).toEqual([]);
  });

  it('deleting a workspace ends its queue and its jobs; triggered runs elsewhere stay readable', async () => {
    const source = await createWorkspace(admin, org);
    const dest = await createWorkspace(admin, org);
    await uploadedVersion(t, admin, source);
    await uploadedVersion(t, admin, dest);
    await createTrigger(admin, dest, source);
    const run = await createRun(admin, source);
    await ex.finish(await driveToApplied(run.id), { status: 'finished' }).expect(204);
    const pending = await createRun(admin, source);
    const [triggered] = await runsOf(dest);

    await admin.api.delete(`/api/v2/workspaces/${source}`).expect(204);
    await admin.api.get(`/api/v2/runs/${pending.id}`).expect(404);
    const kept = await admin.api.get(`/api/v2/runs/${triggered.id}`).expect(200);
    expect(kept.body.data.relationships['triggering-run'].data).toEqual({ id: run.id, type: 'runs' });
    // The destination's own plan job is the only work left.
    const next = await claimJob(ex);
    expect(next.runId).toBe(triggered.id);
    await ex.claim().expect(204);
    expect(pending.id).toMatch(idOf('run'));
  });
});
