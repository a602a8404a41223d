import { Actor, bootstrapAdmin, createOrganization, createWorkspace, idOf } from '../helpers/fixtures';
import { startApp, TestApp } from '../helpers/test-app';
import { createTrigger } from '../run-triggers/helpers';
import { createVar } from '../variables/helpers';
import { policyWithCode, setOf } from '../policy-checks/check-fixtures';
import { protocolHelpers } from '../policy-checks/protocol-helpers';
import {
  claimJob,
  createRun,
  DEFAULT_RUN_OPTIONS_WIRE,
  executor,
  Executor,
  PLANNED_WITH_CHANGES,
  registeredExecutor,
  runStatus,
  uploadedVersion,
} from './run-fixtures';

jest.setTimeout(120_000);

const SIGNED = /^http:\/\/127\.0\.0\.1:\d+\/uploads\//;

/**
 * `POST /agent/jobs/:id/finish?next=true`: the report, then the agent's next job claimed in the
 * same request as a claim without `wait` claims it (200 with the job, 204 without).
 */
describe('a report that claims the next job (finish?next=true)', () => {
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

  /** A workspace with an uploaded configuration. */
  const workspace = async () => {
    const ws = await createWorkspace(admin, org);
    await uploadedVersion(t, admin, ws);
    return ws;
  };

  /** A plan or apply handed over as it was queued: running, stamped queued and started at once. */
  const expectTakenAtOnce = async (path: string) => {
    const phase = (await admin.api.get(path).expect(200)).body.data.attributes;
    expect(phase.status).toBe('running');
    expect(Object.keys(phase['status-timestamps']).sort()).toEqual(['queued-at', 'started-at']);
  };

  it('hands over the apply its plan report queued, exactly once, and answers 204 when nothing is queued', async () => {
    const ws = await workspace();
    const run = await createRun(admin, ws, { 'auto-apply': true });
    const plan = await claimJob(ex);
    expect(plan).toMatchObject({ kind: 'plan', runId: run.id });
    const other = await registeredExecutor(t, ex.secret);

    const handed = await ex.finish(plan.id, PLANNED_WITH_CHANGES, 'true').expect(200);
    expect(handed.headers['content-type']).toMatch(/^application\/json/);
    expect(handed.body).toEqual({
      job: {
        id: expect.stringMatching(idOf('job')),
        kind: 'apply',
        'run-id': run.id,
        'workspace-id': ws,
        'workspace-name': expect.any(String),
        organization: org,
        'is-destroy': false,
        'plan-only': false,
        ...DEFAULT_RUN_OPTIONS_WIRE,
        'heartbeat-interval-seconds': expect.any(Number),
        links: {
          configuration: expect.stringMatching(SIGNED),
          logs: expect.stringMatching(SIGNED),
          'plan-file': expect.stringMatching(SIGNED),
          state: null,
          'state-upload': expect.stringMatching(SIGNED),
        },
        variables: [],
      },
    });
    const apply = handed.body.job;
    expect(apply.id).not.toBe(plan.id);
    expect(await runStatus(admin, run.id)).toBe('applying');
    // Handed over without waiting in the queue, and shown as if queued and claimed at once.
    const shown = (await admin.api.get(`/api/v2/runs/${run.id}`).expect(200)).body.data;
    expect(Object.keys(shown.attributes['status-timestamps'])).toEqual([
      'plan-queueable-at',
      'plan-queued-at',
      'planning-at',
      'apply-queued-at',
      'applying-at',
    ]);
    await expectTakenAtOnce(`/api/v2/applies/${shown.relationships.apply.data.id}`);
    // Claimed by the report's request: another agent of the pool finds nothing.
    await other.claim().expect(204);
    await ex.heartbeat(apply.id).expect(200, { status: 'running' });

    // The same report again is accepted again, and claims again: here another workspace's plan.
    const second = await createRun(admin, await workspace());
    const again = await ex.finish(plan.id, PLANNED_WITH_CHANGES, 'true').expect(200);
    expect(again.body.job).toMatchObject({ kind: 'plan', 'run-id': second.id });
    expect(await runStatus(admin, second.id)).toBe('planning');

    const ended = await ex.finish(apply.id, { status: 'finished' }, 'true').expect(204);
    expect(ended.body).toEqual({});
    expect(ended.text).toBe('');
    expect(await runStatus(admin, run.id)).toBe('applied');
    await ex.finish(apply.id, { status: 'finished' }, 'true').expect(204);
    await other.claim().expect(204);
  });

  it('takes a job queued before the apply first, and leaves the apply queued for the next claim', async () => {
    const first = await createRun(admin, await workspace(), { 'auto-apply': true });
    const plan = await claimJob(ex);
    expect(plan).toMatchObject({ kind: 'plan', runId: first.id });
    const waiting = await createRun(admin, await workspace());

    const handed = await ex.finish(plan.id, PLANNED_WITH_CHANGES, 'true').expect(200);
    expect(handed.body.job).toMatchObject({ kind: 'plan', 'run-id': waiting.id });
    expect(await runStatus(admin, first.id)).toBe('apply_queued');
    expect(await runStatus(admin, waiting.id)).toBe('planning');
    const other = await registeredExecutor(t, ex.secret);
    expect(await claimJob(other)).toMatchObject({ kind: 'apply', runId: first.id });
    expect(await runStatus(admin, first.id)).toBe('applying');
  });

  it("hands over its own run's apply with the variables its plan ran with", async () => {
    const ws = await workspace();
    await createVar(admin, ws, { key: 'region', value: 'eu-west-1', category: 'terraform' });
    await createRun(admin, ws, { 'auto-apply': true });
    const plan = await claimJob(ex);
    // Added after the plan was claimed: the apply runs with what its plan ran with.
    await createVar(admin, ws, { key: 'zone', value: 'b', category: 'terraform' });
    const handed = await ex.finish(plan.id, PLANNED_WITH_CHANGES, 'true').expect(200);
    expect(handed.body.job).toMatchObject({
      kind: 'apply',
      variables: [{ key: 'region', value: 'eu-west-1', category: 'terraform', hcl: false, sensitive: false }],
    });
  });

  it("hands over the run its apply's trigger queued, planning at once with its workspace's variables", async () => {
    const source = await workspace();
    const dest = await workspace();
    await createTrigger(admin, dest, source);
    await createVar(admin, dest, { key: 'region', value: 'eu-west-1', category: 'terraform' });
    const run = await createRun(admin, source, { 'auto-apply': true });
    const plan = await claimJob(ex);
    const apply = (await ex.finish(plan.id, PLANNED_WITH_CHANGES, 'true').expect(200)).body.job;

    const handed = await ex.finish(apply.id, { status: 'finished' }, 'true').expect(200);
    const [triggered] = (await admin.api.get(`/api/v2/workspaces/${dest}/runs`).expect(200)).body.data;
    expect(handed.body.job).toMatchObject({
      kind: 'plan',
      'run-id': triggered.id,
      'workspace-id': dest,
      variables: [{ key: 'region', value: 'eu-west-1', category: 'terraform', hcl: false, sensitive: false }],
    });
    expect(await runStatus(admin, run.id)).toBe('applied');
    expect(triggered.attributes.status).toBe('planning');
    expect(Object.keys(triggered.attributes['status-timestamps'])).toEqual([
      'plan-queueable-at',
      'plan-queued-at',
      'planning-at',
    ]);
    await expectTakenAtOnce(`/api/v2/plans/${triggered.relationships.plan.data.id}`);
    // Taken by the report: nobody else finds it, and it runs on to its end like any claimed plan.
    await (await registeredExecutor(t, ex.secret)).claim().expect(204);
    await ex.heartbeat(handed.body.job.id).expect(200, { status: 'running' });
    await ex.finish(handed.body.job.id, { status: 'finished', 'has-changes': false }).expect(204);
    expect(await runStatus(admin, triggered.id)).toBe('planned_and_finished');
  });

  it('refuses a next other than true or false before recording anything', async () => {
    const ws = await workspace();
    const run = await createRun(admin, ws, { 'auto-apply': true });
    const plan = await claimJob(ex);
    for (const next of ['maybe', 'TRUE', '1', '']) {
      const refused = await ex.finish(plan.id, PLANNED_WITH_CHANGES, next).expect(422);
      expect(refused.body).toEqual({
        errors: [
          {
            status: '422',
            title: 'invalid attribute',
            detail: 'next must be true or false',
            source: { parameter: 'next' },
          },
        ],
      });
    }
    await ex.finish(plan.id, PLANNED_WITH_CHANGES).query('next=true&next=true').expect(422);
    expect(await runStatus(admin, run.id)).toBe('planning');
    await ex.heartbeat(plan.id).expect(200, { status: 'running' });

    // Nothing was recorded: a different report is still the first, and is taken.
    const errored = { status: 'errored', 'error-message': 'boom' };
    await ex.finish(plan.id, errored, 'false').expect(204);
    expect(await runStatus(admin, run.id)).toBe('errored');
  });

  it('claims nothing for a refused report: the queued job stays for the next claim', async () => {
    const ws = await workspace();
    const run = await createRun(admin, ws, { 'auto-apply': true });
    const plan = await claimJob(ex);
    const reported = await ex.finish(plan.id, PLANNED_WITH_CHANGES, 'false').expect(204);
    expect(reported.text).toBe('');
    expect(await runStatus(admin, run.id)).toBe('apply_queued');

    const conflict = await ex.finish(plan.id, { status: 'finished', 'has-changes': false }, 'true');
    expect(conflict.status).toBe(409);
    expect(conflict.body.errors[0].detail).toBe('A different report was already recorded for this job');
    const malformed = await ex.finish(plan.id, { status: 'done' }, 'true').expect(422);
    expect(malformed.body.errors[0].source).toEqual({ pointer: '/data/attributes/status' });
    await ex.finish('job-0000000000000000', PLANNED_WITH_CHANGES, 'true').expect(404);
    expect(await runStatus(admin, run.id)).toBe('apply_queued');

    const apply = await claimJob(ex);
    expect(apply).toMatchObject({ kind: 'apply', runId: run.id });
    await ex.finish(apply.id, { status: 'finished' }).expect(204);
    expect(await runStatus(admin, run.id)).toBe('applied');
  });

  describe('policy evaluations', () => {
    const { setting, planned, claimEvaluation, passedAll } = protocolHelpers(() => ({ t, admin }));

    it("hands over the apply an evaluation's passing report queued", async () => {
      const { org: evalOrg, ws, ex: evaluator } = await setting();
      const policy = await policyWithCode(admin, evalOrg, { name: 'lint', level: 'advisory', code: 'allow' });
      await setOf(admin, evalOrg, 'global', [policy], { global: true });
      const run = await planned(evaluator, ws, { 'auto-apply': true });
      expect(await runStatus(admin, run.id)).toBe('policy_checking');
      const evaluation = await claimEvaluation(evaluator);

      const handed = await evaluator.finish(evaluation.id, passedAll(evaluation), 'true').expect(200);
      expect(handed.body.job).toMatchObject({ kind: 'apply', 'run-id': run.id });
      expect(await runStatus(admin, run.id)).toBe('applying');
      await evaluator.finish(evaluation.id, passedAll(evaluation), 'true').expect(204);
    });
  });
});
