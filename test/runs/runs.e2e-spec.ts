import {
  Actor,
  bootstrapAdmin,
  createOrganization,
  createWorkspace,
  expectPagination,
  grantWorkspace,
  idOf,
  ISO_MILLIS,
  ISO_OFFSET,
  memberWith,
} from '../helpers/fixtures';
import { errorsOf } from '../helpers/shapes';
import { startApp, TestApp } from '../helpers/test-app';
import {
  DEFAULT_RUN_OPTIONS_WIRE,
  createRun,
  createVersion,
  OWNER_RUN_PERMISSIONS,
  runBody,
  runStatus,
  uploadedVersion,
} from './run-fixtures';

jest.setTimeout(60_000);

describe('runs: create, read, queue, lock', () => {
  let t: TestApp;
  let admin: Actor;
  let org: string;

  beforeAll(async () => {
    t = await startApp();
    admin = await bootstrapAdmin(t);
    org = await createOrganization(admin);
  });
  afterAll(() => t.close());

  it('queues a run on the newest uploaded configuration version, in the shape a strict client reads', async () => {
    const ws = await createWorkspace(admin, org);
    await uploadedVersion(t, admin, ws);
    const newest = await uploadedVersion(t, admin, ws);
    await createVersion(admin, ws, { 'auto-queue-runs': false });
    const res = await admin.api.post('/api/v2/runs', runBody(ws, { message: 'first' })).expect(201);
    const data = res.body.data;
    expect(data).toEqual({
      id: expect.stringMatching(idOf('run')),
      type: 'runs',
      attributes: {
        status: 'plan_queued',
        'status-timestamps': {
          'plan-queueable-at': expect.stringMatching(ISO_OFFSET),
          'plan-queued-at': expect.stringMatching(ISO_OFFSET),
        },
        message: 'first',
        source: 'tfe-api',
        'trigger-reason': 'manual',
        'is-destroy': false,
        'plan-only': false,
        'auto-apply': false,
        ...DEFAULT_RUN_OPTIONS_WIRE,
        'has-changes': false,
        variables: [],
        'error-message': null,
        'canceled-at': null,
        'created-at': expect.stringMatching(ISO_MILLIS),
        actions: {
          'is-cancelable': true,
          'is-confirmable': false,
          'is-discardable': false,
          'is-force-cancelable': false,
        },
        permissions: OWNER_RUN_PERMISSIONS,
        'run-trigger-outcomes': [],
      },
      relationships: {
        workspace: { data: { id: ws, type: 'workspaces' } },
        'configuration-version': { data: { id: newest, type: 'configuration-versions' } },
        'created-by': { data: { id: admin.userId, type: 'users' } },
        plan: { data: { id: expect.stringMatching(idOf('plan')), type: 'plans' } },
        apply: { data: { id: expect.stringMatching(idOf('apply')), type: 'applies' } },
        'triggering-run': { data: null },
        'policy-checks': { data: [] },
        'task-stages': { data: [] },
        'cost-estimate': { data: null },
      },
      links: { self: `/api/v2/runs/${data.id}` },
    });
    const shown = await admin.api.get(`/api/v2/runs/${data.id}`).expect(200);
    expect(shown.body.data).toEqual(data);

    const plan = await admin.api.get(`/api/v2/plans/${data.relationships.plan.data.id}`).expect(200);
    expect(plan.body.data).toEqual({
      id: data.relationships.plan.data.id,
      type: 'plans',
      attributes: {
        status: 'queued',
        'status-timestamps': { 'queued-at': expect.stringMatching(ISO_OFFSET) },
        'has-changes': null,
        'resource-additions': 0,
        'resource-changes': 0,
        'resource-destructions': 0,
        'resource-imports': 0,
        // Absolute and signed from the start: a reader may follow the log before it has a byte.
        'log-read-url': expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/uploads\/[\w-]+\.[\w-]+$/),
        'error-message': null,
        'execution-details': { mode: 'agent', 'agent-id': null, 'agent-pool-id': null },
      },
      relationships: { run: { data: { id: data.id, type: 'runs' } } },
      links: {
        self: `/api/v2/plans/${data.relationships.plan.data.id}`,
        'json-output': `/api/v2/plans/${data.relationships.plan.data.id}/json-output`,
      },
    });
    const apply = await admin.api.get(`/api/v2/applies/${data.relationships.apply.data.id}`).expect(200);
    expect(apply.body.data.attributes).toMatchObject({ status: 'pending', 'status-timestamps': {} });
    expect(apply.body.data.attributes).not.toHaveProperty('has-changes');
    await admin.api.get(`/api/v2/plans/${data.relationships.plan.data.id}/json-output`).expect(204);
    await admin.api.get(`/api/v2/plans/${data.relationships.apply.data.id}`).expect(404);
  });

  it('refuses a run without a usable configuration version with 422', async () => {
    const ws = await createWorkspace(admin, org);
    const none = await admin.api.post('/api/v2/runs', runBody(ws)).expect(422);
    expect(none.body.errors).toEqual([
      {
        status: '422',
        title: 'invalid attribute',
        detail: 'The workspace has no uploaded configuration version',
        source: { pointer: '/data/relationships/configuration-version' },
      },
    ]);
    const pending = await createVersion(admin, ws, { 'auto-queue-runs': false });
    const res = await admin.api.post('/api/v2/runs', runBody(ws, {}, pending.id)).expect(422);
    expect(res.body.errors[0].detail).toBe('Configuration version is pending, not uploaded');
    const other = await createWorkspace(admin, org);
    const foreign = await uploadedVersion(t, admin, other);
    await admin.api.post('/api/v2/runs', runBody(ws, {}, foreign)).expect(422);
    await admin.api.post('/api/v2/runs', runBody(ws, { 'is-destroy': 'yes' })).expect(422);
    await admin.api.post('/api/v2/runs', { data: { type: 'runs', attributes: {} } }).expect(422);
  });

  it('keeps one run that may apply past pending per workspace; plan-only runs do not wait', async () => {
    const ws = await createWorkspace(admin, org);
    await uploadedVersion(t, admin, ws);
    const first = await createRun(admin, ws);
    const second = await createRun(admin, ws);
    const third = await createRun(admin, ws);
    const speculative = await createRun(admin, ws, { 'plan-only': true });
    expect([first.status, second.status, third.status, speculative.status]).toEqual([
      'plan_queued',
      'pending',
      'pending',
      'plan_queued',
    ]);
    // The first ends: the second moves up, the third keeps waiting.
    await admin.api.post(`/api/v2/runs/${first.id}/actions/cancel`).expect(202);
    expect(await runStatus(admin, first.id)).toBe('canceled');
    expect(await runStatus(admin, second.id)).toBe('plan_queued');
    expect(await runStatus(admin, third.id)).toBe('pending');
    // A waiting run can be canceled too, which frees nothing.
    await admin.api.post(`/api/v2/runs/${third.id}/actions/cancel`).expect(202);
    const canceled = await admin.api.get(`/api/v2/runs/${third.id}`).expect(200);
    expect(canceled.body.data.attributes).toMatchObject({
      status: 'canceled',
      'canceled-at': expect.stringMatching(ISO_MILLIS),
      'status-timestamps': { 'canceled-at': expect.stringMatching(ISO_OFFSET) },
      actions: { 'is-cancelable': false },
    });
    const plan = await admin.api.get(`/api/v2/plans/${first.planId}`).expect(200);
    expect(plan.body.data.attributes.status).toBe('canceled');
  });

  it('answers an action the run is not ready for with a 409 JSON:API error', async () => {
    const ws = await createWorkspace(admin, org);
    await uploadedVersion(t, admin, ws);
    const run = await createRun(admin, ws);
    const res = await admin.api.post(`/api/v2/runs/${run.id}/actions/apply`, { comment: 'go' }).expect(409);
    expect(res.body).toEqual({
      errors: [
        {
          status: '409',
          title: 'conflict',
          code: 'RUN_NOT_CONFIRMABLE',
          detail: 'The run cannot be applied: it is plan_queued, not paused for confirmation',
        },
      ],
    });
    const codeOf = async (action: string) =>
      (
        (await admin.api.post(`/api/v2/runs/${run.id}/actions/${action}`).expect(409)).body as {
          errors: { code?: string }[];
        }
      ).errors.map((e) => e.code);
    expect(await codeOf('discard')).toEqual(['RUN_NOT_DISCARDABLE']);
    expect(await codeOf('force-cancel')).toEqual(['RUN_NOT_FORCE_CANCELABLE']);
    await admin.api.post(`/api/v2/runs/${run.id}/actions/cancel`).expect(202);
    expect(await codeOf('cancel')).toEqual(['RUN_NOT_CANCELABLE']);
    await admin.api.post('/api/v2/runs/run-0000000000000000/actions/cancel').expect(404);
  });

  it("lists a workspace's runs newest first, filtered by status, with includes", async () => {
    const ws = await createWorkspace(admin, org);
    const cv = await uploadedVersion(t, admin, ws);
    const a = await createRun(admin, ws);
    const b = await createRun(admin, ws);
    const c = await createRun(admin, ws, { 'plan-only': true });
    const all = await admin.api.get(`/api/v2/workspaces/${ws}/runs?page%5Bsize%5D=2`).expect(200);
    expect(all.body.data.map((r: { id: string }) => r.id)).toEqual([c.id, b.id]);
    expectPagination(all.body, { current: 1, size: 2, prev: null, next: 2, pages: 2, count: 3 });
    const pending = await admin.api
      .get(`/api/v2/workspaces/${ws}/runs?filter%5Bstatus%5D=pending`)
      .expect(200);
    expect(pending.body.data.map((r: { id: string }) => r.id)).toEqual([b.id]);
    const both = await admin.api
      .get(`/api/v2/workspaces/${ws}/runs?filter%5Bstatus%5D=pending,plan_queued`)
      .expect(200);
    expect(both.body.meta.pagination['total-count']).toBe(3);
    const bad = await admin.api.get(`/api/v2/workspaces/${ws}/runs?filter%5Bstatus%5D=nonsense`).expect(400);
    expect(bad.body.errors[0].source).toEqual({ parameter: 'filter[status]' });

    const included = await admin.api
      .get(`/api/v2/runs/${a.id}?include=workspace,configuration_version,created_by,plan,apply`)
      .expect(200);
    const types = included.body.included.map((r: { type: string; id: string }) => `${r.type}:${r.id}`).sort();
    expect(types).toEqual(
      [
        `applies:${a.applyId}`,
        `configuration-versions:${cv}`,
        `plans:${a.planId}`,
        `users:${admin.userId}`,
        `workspaces:${ws}`,
      ].sort(),
    );
    const listIncluded = await admin.api.get(`/api/v2/workspaces/${ws}/runs?include=workspace`).expect(200);
    expect(listIncluded.body.included).toHaveLength(1);
    const unknown = await admin.api.get(`/api/v2/runs/${a.id}?include=policy-checks`).expect(400);
    expect(unknown.body.errors[0].source).toEqual({ parameter: 'include' });
  });

  it('starts nothing in a locked workspace until its holder unlocks it', async () => {
    const ws = await createWorkspace(admin, org);
    await uploadedVersion(t, admin, ws);
    const locked = await admin.api
      .post(`/api/v2/workspaces/${ws}/actions/lock`, { reason: 'maintenance' })
      .expect(200);
    expect(locked.body.data.attributes.locked).toBe(true);
    expect(locked.body.data.relationships['locked-by']).toEqual({
      data: { id: admin.userId, type: 'users' },
    });
    const again = await admin.api.post(`/api/v2/workspaces/${ws}/actions/lock`).expect(409);
    expect(again.body).toEqual(
      errorsOf(409, { code: 'WORKSPACE_ALREADY_LOCKED', detail: 'The workspace is already locked' }),
    );
    const run = await createRun(admin, ws);
    expect(run.status).toBe('pending');
    const speculative = await createRun(admin, ws, { 'plan-only': true });
    expect(speculative.status).toBe('plan_queued');

    const writer = await memberWith(t, admin, admin, org);
    await grantWorkspace(admin, writer.teamId, ws, 'write');
    const refused = await writer.api.post(`/api/v2/workspaces/${ws}/actions/unlock`).expect(409);
    expect(refused.body.errors[0]).toMatchObject({
      code: 'WORKSPACE_LOCKED_BY_ANOTHER',
      detail: 'The workspace is locked by User',
    });

    // The unlock starts the waiting run, which takes the lock in the same transaction.
    const unlocked = await admin.api.post(`/api/v2/workspaces/${ws}/actions/unlock`).expect(200);
    expect(unlocked.body.data.attributes.locked).toBe(true);
    expect(unlocked.body.data.relationships['locked-by']).toEqual({ data: { id: run.id, type: 'runs' } });
    expect(await runStatus(admin, run.id)).toBe('plan_queued');
    const byRun = await admin.api.post(`/api/v2/workspaces/${ws}/actions/unlock`).expect(409);
    expect(byRun.body).toEqual(
      errorsOf(409, { code: 'WORKSPACE_LOCKED_BY_ANOTHER', detail: 'The workspace is locked by Run' }),
    );
    await admin.api.post(`/api/v2/runs/${run.id}/actions/cancel`).expect(202);
    const shown = await admin.api.get(`/api/v2/workspaces/${ws}`).expect(200);
    expect(shown.body.data.attributes.locked).toBe(false);
    expect(shown.body.data.relationships['locked-by']).toEqual({ data: null });
    const notLocked = await admin.api.post(`/api/v2/workspaces/${ws}/actions/unlock`).expect(409);
    expect(notLocked.body).toEqual(
      errorsOf(409, { code: 'WORKSPACE_NOT_LOCKED', detail: 'The workspace is already unlocked' }),
    );
  });

  it('reads with read, queues with plan, cancels with write, and hides runs from everyone else', async () => {
    const ws = await createWorkspace(admin, org);
    await uploadedVersion(t, admin, ws);
    const run = await createRun(admin, ws);
    const levels = { read: 'read', plan: 'plan', write: 'write' } as const;
    const actors: Record<string, Actor & { teamId: string }> = {};
    for (const [name, level] of Object.entries(levels)) {
      actors[name] = await memberWith(t, admin, admin, org);
      await grantWorkspace(admin, actors[name].teamId, ws, level);
    }
    const stranger = await memberWith(t, admin, admin, org);

    const read = await actors.read.api.get(`/api/v2/runs/${run.id}`).expect(200);
    expect(read.body.data.attributes.permissions).toMatchObject({
      'can-apply': false,
      'can-cancel': false,
      'can-discard': false,
      'can-force-cancel': false,
    });
    await actors.read.api.get(`/api/v2/plans/${run.planId}`).expect(200);
    await actors.read.api.get(`/api/v2/workspaces/${ws}/runs`).expect(200);
    await actors.read.api.post('/api/v2/runs', runBody(ws)).expect(404);
    await actors.read.api.post(`/api/v2/workspaces/${ws}/actions/lock`).expect(404);
    await actors.read.api.get(`/api/v2/plans/${run.planId}/json-output`).expect(404);

    const queued = await actors.plan.api.post('/api/v2/runs', runBody(ws)).expect(201);
    expect(queued.body.data.relationships['created-by'].data.id).toBe(actors.plan.userId);
    await actors.plan.api.post(`/api/v2/runs/${run.id}/actions/cancel`).expect(404);

    const write = await actors.write.api.get(`/api/v2/runs/${run.id}`).expect(200);
    expect(write.body.data.attributes.permissions).toMatchObject({
      'can-cancel': true,
      'can-force-cancel': false,
    });
    await actors.write.api.post(`/api/v2/runs/${run.id}/actions/cancel`).expect(202);

    await stranger.api.get(`/api/v2/runs/${run.id}`).expect(404);
    await stranger.api.get(`/api/v2/plans/${run.planId}`).expect(404);
    await stranger.api.get(`/api/v2/applies/${run.applyId}`).expect(404);
    await stranger.api.get(`/api/v2/workspaces/${ws}/runs`).expect(404);
    await stranger.api.post('/api/v2/runs', runBody(ws)).expect(404);
    await stranger.api.post(`/api/v2/runs/${queued.body.data.id}/actions/cancel`).expect(404);
  });
});
