import request from 'supertest';
import {
  Actor,
  bootstrapAdmin,
  createOrganization,
  createWorkspace,
  grantWorkspace,
  idOf,
  ISO_OFFSET,
  memberWith,
} from '../helpers/fixtures';
import { startApp, TestApp } from '../helpers/test-app';
import {
  DEFAULT_RUN_OPTIONS_WIRE,
  claimJob,
  createRun,
  executor,
  Executor,
  PLANNED_WITH_CHANGES,
  putLink,
  runStatus,
  uploadedVersion,
  CONFIG_ARCHIVE,
} from './run-fixtures';

jest.setTimeout(60_000);

describe('the life of a run, driven through the executor protocol', () => {
  let t: TestApp;
  let admin: Actor;
  let org: string;
  let ex: Executor;

  beforeAll(async () => {
    t = await startApp();
    admin = await bootstrapAdmin(t);
  });
  afterAll(() => t.close());
  // An organization per test: its organization-scoped pool sees only that test's jobs.
  beforeEach(async () => {
    org = await createOrganization(admin);
    ex = await executor(t, admin, org);
  });

  it('plans, pauses for confirmation, applies, and records what the executor sent', async () => {
    const ws = await createWorkspace(admin, org);
    const cv = await uploadedVersion(t, admin, ws);
    const run = await createRun(admin, ws, { 'is-destroy': false });

    const claimed = await ex.claim().expect(200);
    expect(claimed.body).toEqual({
      job: {
        id: expect.stringMatching(idOf('job')),
        kind: 'plan',
        'run-id': run.id,
        'workspace-id': ws,
        'workspace-name': expect.any(String),
        organization: org,
        'is-destroy': false,
        'plan-only': false,
        ...DEFAULT_RUN_OPTIONS_WIRE,
        'heartbeat-interval-seconds': expect.any(Number),
        links: {
          configuration: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/uploads\//),
          logs: expect.stringMatching(/\/uploads\//),
          'plan-json': expect.stringMatching(/\/uploads\//),
          'plan-file': expect.stringMatching(/\/uploads\//),
          // The workspace has no state yet.
          state: null,
        },
        // The workspace has no variables.
        variables: [],
      },
    });
    const job = claimed.body.job;
    await ex.claim().expect(204);
    expect(await runStatus(admin, run.id)).toBe('planning');

    const archive = await request(t.origin)
      .get(new URL(job.links.configuration).pathname)
      .buffer(true)
      .expect(200);
    expect(Buffer.compare(archive.body as Buffer, CONFIG_ARCHIVE)).toBe(0);
    // Without an offset a PUT carries the log from its start (as executors that send it whole do):
    // what the log has already is acknowledged, the rest appended.
    await putLink(t, job.links.logs, 'Initializing...\n').expect(200);
    await putLink(t, job.links.logs, 'Initializing...\nPlan: 2 to add\n').expect(200);
    await putLink(t, job.links['plan-json'], JSON.stringify({ resource_changes: [] })).expect(200);
    await putLink(t, job.links['plan-file'], Buffer.from([1, 2, 3])).expect(200);
    expect((await ex.heartbeat(job.id).expect(200)).body).toEqual({ status: 'running' });
    await admin.api.get(`/api/v2/plans/${run.planId}/json-output`).expect(204);

    await ex.finish(job.id, PLANNED_WITH_CHANGES).expect(204);
    const planned = await admin.api.get(`/api/v2/runs/${run.id}`).expect(200);
    expect(planned.body.data.attributes).toMatchObject({
      status: 'planned',
      'has-changes': true,
      actions: { 'is-confirmable': true, 'is-discardable': true, 'is-cancelable': false },
      'status-timestamps': {
        'plan-queueable-at': expect.stringMatching(ISO_OFFSET),
        'plan-queued-at': expect.stringMatching(ISO_OFFSET),
        'planning-at': expect.stringMatching(ISO_OFFSET),
        'planned-at': expect.stringMatching(ISO_OFFSET),
      },
    });
    const plan = await admin.api.get(`/api/v2/plans/${run.planId}`).expect(200);
    expect(plan.body.data.attributes).toMatchObject({
      status: 'finished',
      'has-changes': true,
      'resource-additions': 2,
      'resource-changes': 1,
      'resource-destructions': 0,
      'execution-details': {
        mode: 'agent',
        'agent-id': ex.agentId,
        'agent-pool-id': expect.stringMatching(idOf('apool')),
      },
      'status-timestamps': {
        'queued-at': expect.stringMatching(ISO_OFFSET),
        'started-at': expect.stringMatching(ISO_OFFSET),
        'finished-at': expect.stringMatching(ISO_OFFSET),
      },
    });
    const log = await request(t.origin)
      .get(new URL(plan.body.data.attributes['log-read-url']).pathname)
      .expect(200);
    expect(log.headers['content-type']).toBe('text/plain');
    expect(log.text).toBe('\x02Initializing...\nPlan: 2 to add\n\x03');
    const output = await admin.api.get(`/api/v2/plans/${run.planId}/json-output`).expect(307);
    const json = await request(t.origin).get(new URL(output.headers.location).pathname).expect(200);
    expect(JSON.parse(json.text)).toEqual({ resource_changes: [] });
    // The plan job's links stop taking files once it has finished.
    await putLink(t, job.links.logs, 'late').expect(409);

    await admin.api.post(`/api/v2/runs/${run.id}/actions/apply`, { comment: 'ship it' }).expect(202);
    expect(await runStatus(admin, run.id)).toBe('apply_queued');
    const applyJob = await claimJob(ex);
    expect(applyJob.kind).toBe('apply');
    const planFile = await request(t.origin)
      .get(new URL(applyJob.links['plan-file']).pathname)
      .buffer(true)
      .expect(200);
    expect([...(planFile.body as Buffer)]).toEqual([1, 2, 3]);
    expect(await runStatus(admin, run.id)).toBe('applying');
    await ex.finish(applyJob.id, { status: 'finished', 'resource-additions': 2 }).expect(204);
    const applied = await admin.api.get(`/api/v2/runs/${run.id}?include=apply`).expect(200);
    expect(applied.body.data.attributes.status).toBe('applied');
    expect(applied.body.data.attributes['status-timestamps']).toHaveProperty('applied-at');
    expect(applied.body.included[0].attributes).toMatchObject({
      status: 'finished',
      'resource-additions': 2,
    });
    expect(cv).toMatch(idOf('cv'));
  });

  it('accepts the same report twice and refuses a different one', async () => {
    const ws = await createWorkspace(admin, org);
    await uploadedVersion(t, admin, ws);
    const run = await createRun(admin, ws);
    const job = await claimJob(ex);
    await ex.finish(job.id, PLANNED_WITH_CHANGES).expect(204);
    await ex.finish(job.id, PLANNED_WITH_CHANGES).expect(204);
    const other = await ex.finish(job.id, { status: 'errored', 'error-message': 'boom' }).expect(409);
    expect(other.body.errors[0]).toMatchObject({
      status: '409',
      detail: 'A different report was already recorded for this job',
    });
    expect(await runStatus(admin, run.id)).toBe('planned');
    const bad = await ex.finish(job.id, { status: 'done' }).expect(422);
    expect(bad.body.errors[0].source).toEqual({ pointer: '/data/attributes/status' });
  });

  it('hides jobs from agents that did not claim them', async () => {
    const ws = await createWorkspace(admin, org);
    await uploadedVersion(t, admin, ws);
    await createRun(admin, ws);
    const job = await claimJob(ex);
    const other = await executor(t, admin, org);
    await other.heartbeat(job.id).expect(404);
    await other.finish(job.id, PLANNED_WITH_CHANGES).expect(404);
    await ex.finish(job.id, { status: 'errored', 'error-message': 'provider crashed' }).expect(204);
  });

  it("errors the run with the executor's message, and starts the next one", async () => {
    const ws = await createWorkspace(admin, org);
    await uploadedVersion(t, admin, ws);
    const first = await createRun(admin, ws);
    const second = await createRun(admin, ws);
    const job = await claimJob(ex);
    await ex.finish(job.id, { status: 'errored', 'error-message': 'provider crashed' }).expect(204);
    const errored = await admin.api.get(`/api/v2/runs/${first.id}`).expect(200);
    expect(errored.body.data.attributes).toMatchObject({
      status: 'errored',
      'error-message': 'provider crashed',
    });
    expect(await runStatus(admin, second.id)).toBe('plan_queued');
  });

  it('finishes plans without changes and plan-only plans, and queues the apply with auto-apply', async () => {
    const ws = await createWorkspace(admin, org);
    await uploadedVersion(t, admin, ws);
    const nothing = await createRun(admin, ws);
    await ex.finish((await claimJob(ex)).id, { status: 'finished', 'has-changes': false }).expect(204);
    expect(await runStatus(admin, nothing.id)).toBe('planned_and_finished');
    const speculative = await createRun(admin, ws, { 'plan-only': true });
    await ex.finish((await claimJob(ex)).id, PLANNED_WITH_CHANGES).expect(204);
    expect(await runStatus(admin, speculative.id)).toBe('planned_and_finished');
    const auto = await createRun(admin, ws, { 'auto-apply': true });
    await ex.finish((await claimJob(ex)).id, PLANNED_WITH_CHANGES).expect(204);
    expect(await runStatus(admin, auto.id)).toBe('apply_queued');
    const apply = await claimJob(ex);
    expect(apply.kind).toBe('apply');
    await ex.finish(apply.id, { status: 'finished' }).expect(204);
    expect(await runStatus(admin, auto.id)).toBe('applied');
  });

  it("hands the run's options to both of its jobs: a saved plan with targets and replacements", async () => {
    const ws = await createWorkspace(admin, org);
    await uploadedVersion(t, admin, ws);
    const options = {
      refresh: false,
      'target-addrs': ['aws_instance.web', 'module.net.aws_subnet.a["b c"]'],
      'replace-addrs': ['aws_instance.web'],
      'allow-empty-apply': true,
      'allow-config-generation': true,
      'save-plan': true,
    };
    const run = await createRun(admin, ws, options);
    const plan = (await ex.claim().expect(200)).body.job;
    expect(plan).toMatchObject({
      kind: 'plan',
      'run-id': run.id,
      'is-destroy': false,
      'plan-only': false,
      'refresh-only': false,
      'terraform-version': null,
      ...options,
    });
    await ex.finish(plan.id, { status: 'finished', 'has-changes': false }).expect(204);
    expect(await runStatus(admin, run.id)).toBe('planned_and_saved');
    await admin.api.post(`/api/v2/runs/${run.id}/actions/apply`).expect(202);
    const apply = (await ex.claim().expect(200)).body.job;
    expect(apply).toMatchObject({ kind: 'apply', 'run-id': run.id, ...options });
  });

  it('discards a planned run and frees the queue', async () => {
    const ws = await createWorkspace(admin, org);
    await uploadedVersion(t, admin, ws);
    const first = await createRun(admin, ws);
    const second = await createRun(admin, ws);
    await ex.finish((await claimJob(ex)).id, PLANNED_WITH_CHANGES).expect(204);
    const writer = await memberWith(t, admin, admin, org);
    await grantWorkspace(admin, writer.teamId, ws, 'plan');
    await writer.api.post(`/api/v2/runs/${first.id}/actions/discard`).expect(404);
    await admin.api.post(`/api/v2/runs/${first.id}/actions/discard`).expect(202);
    expect(await runStatus(admin, first.id)).toBe('discarded');
    expect(await runStatus(admin, second.id)).toBe('plan_queued');
  });

  it('tells a running executor to stop after a cancel, and ends the run canceled when it reports', async () => {
    const ws = await createWorkspace(admin, org);
    await uploadedVersion(t, admin, ws);
    const run = await createRun(admin, ws);
    const job = await claimJob(ex);
    await admin.api.post(`/api/v2/runs/${run.id}/actions/cancel`).expect(202);
    const asked = await admin.api.get(`/api/v2/runs/${run.id}`).expect(200);
    expect(asked.body.data.attributes).toMatchObject({
      status: 'planning',
      'canceled-at': expect.any(String),
      'force-cancel-available-at': expect.any(String),
      actions: { 'is-cancelable': false, 'is-force-cancelable': false },
    });
    await admin.api.post(`/api/v2/runs/${run.id}/actions/cancel`).expect(409);
    // Too early: the cool-off has not passed.
    await admin.api.post(`/api/v2/runs/${run.id}/actions/force-cancel`).expect(409);
    expect((await ex.heartbeat(job.id).expect(200)).body).toEqual({ status: 'canceled' });
    await ex.finish(job.id, { status: 'errored', 'error-message': 'interrupted' }).expect(204);
    expect(await runStatus(admin, run.id)).toBe('canceled');
    const plan = await admin.api.get(`/api/v2/plans/${run.planId}`).expect(200);
    expect(plan.body.data.attributes.status).toBe('canceled');
  });

  it('never answers a read from before an executor report', async () => {
    const ws = await createWorkspace(admin, org);
    await uploadedVersion(t, admin, ws);
    const run = await createRun(admin, ws);
    const job = await claimJob(ex);
    // Read twice: the second answer may come from the response cache.
    for (let i = 0; i < 2; i++) expect(await runStatus(admin, run.id)).toBe('planning');
    await ex.heartbeat(job.id).expect(200);
    expect(await runStatus(admin, run.id)).toBe('planning');
    await ex.finish(job.id, PLANNED_WITH_CHANGES).expect(204);
    expect(await runStatus(admin, run.id)).toBe('planned');
    const list = await admin.api.get(`/api/v2/workspaces/${ws}/runs`).expect(200);
    expect(list.body.data[0].attributes.status).toBe('planned');
  });
});
