import { Clock } from '../../src/common/clock';
import { RunTimeoutsService } from '../../src/runs/run-timeouts.service';
import { Actor, bootstrapAdmin, idOf, ISO_OFFSET } from '../helpers/fixtures';
import { startApp, TestApp } from '../helpers/test-app';
import { createPolicySet } from '../policy-sets/policy-fixtures';
import { createRun, MovableClock, runStatus } from '../runs/run-fixtures';
import { checkOf, policyOutcome, policyWithCode, setOf } from './check-fixtures';
import { PLAN_JSON, protocolHelpers } from './protocol-helpers';

jest.setTimeout(120_000);

const TIMEOUT_SECONDS = 60;

/**
 * The policy-check path driven over the executor protocol by hand: the snapshot, the jobs and
 * their reports, edits during a check, timeouts, cancel and discard. The reference executor
 * drives the same path in policy-checks-with-executor.e2e-spec.ts; versioned sets, editions and
 * deletion are in policy-check-sets.e2e-spec.ts.
 */
describe('policy checks over the executor protocol', () => {
  let t: TestApp;
  let admin: Actor;
  const clock = new MovableClock();

  beforeAll(async () => {
    t = await startApp({ EXECUTOR_TIMEOUT: String(TIMEOUT_SECONDS) }, [{ provide: Clock, useValue: clock }]);
    admin = await bootstrapAdmin(t);
  });
  afterAll(() => t.close());

  const { setting, planned, claimEvaluation, fetchLink, passedAll } = protocolHelpers(() => ({ t, admin }));

  it('snapshots the global and project sets, not the one excluding the workspace, one job per set', async () => {
    const { org, ws, project, ex } = await setting();
    const a = await policyWithCode(admin, org, { name: 'tags', level: 'hard-mandatory', code: 'allow tags' });
    const b = await policyWithCode(admin, org, {
      name: 'regions',
      kind: 'framework_b',
      level: 'mandatory',
      code: 'package x',
    });
    const c = await policyWithCode(admin, org, { name: 'never', level: 'hard-mandatory', code: 'deny all' });
    await setOf(admin, org, 'a-global', [a], { global: true });
    await setOf(admin, org, 'b-project', [b], { kind: 'framework_b', projects: [project] });
    await setOf(admin, org, 'c-excluded', [c], { global: true, exclusions: [ws] });
    await createPolicySet(admin, org, { name: 'd-empty', global: true });

    const run = await planned(ex, ws);
    expect(await runStatus(admin, run.id)).toBe('policy_checking');
    const check = await checkOf(admin, run.id);
    expect(check.id).toMatch(idOf('polchk'));
    expect(check.attributes.status).toBe('queued');
    expect(check.attributes['status-timestamps']).toEqual({ 'queued-at': expect.stringMatching(ISO_OFFSET) });
    expect(
      check.attributes.result['policy-sets'].map((s) => [s['policy-set-name'], s.status, s.error]),
    ).toEqual([
      ['a-global', 'queued', null],
      ['b-project', 'queued', null],
      ['d-empty', 'unreachable', 'the policy set has no policies'],
    ]);

    const jobs = [await claimEvaluation(ex), await claimEvaluation(ex)];
    await ex.claim().expect(204);
    const byName = Object.fromEntries(jobs.map((j) => [j['policy-evaluation']['policy-set-name'], j]));
    expect(Object.keys(byName).sort()).toEqual(['a-global', 'b-project']);
    expect(byName['b-project']).toMatchObject({
      'run-id': run.id,
      'policy-evaluation': {
        id: expect.stringMatching(idOf('poleval')),
        'policy-kind': 'framework_b',
        bundle: null,
        policies: [{ name: 'regions', 'enforcement-level': 'mandatory', query: 'data.terraform.deny' }],
      },
    });
    expect(byName['b-project'].links.logs).toBeUndefined();
    // The plan JSON and the code come through signed links, without Authorization.
    expect((await fetchLink(byName['a-global'].links['plan-json']).expect(200)).text).toBe(PLAN_JSON);
    const code = byName['a-global']['policy-evaluation'].policies[0].code!;
    expect((await fetchLink(code).expect(200)).text).toBe('allow tags');
    expect((await checkOf(admin, run.id)).attributes.result['policy-sets'][0].status).toBe('running');

    for (const job of jobs) await ex.finish(job.id, passedAll(job)).expect(204);
    expect(await runStatus(admin, run.id)).toBe('policy_checked');
    const done = await checkOf(admin, run.id);
    expect(done.attributes).toMatchObject({
      status: 'passed',
      result: { result: true, passed: 2, 'total-failed': 0, 'hard-failed': 0, 'soft-failed': 0 },
    });
    expect(done.attributes.result['policy-sets'][1].policies).toEqual([
      policyOutcome('regions', 'mandatory', 'passed', 'ok', { query: 'data.terraform.deny' }),
    ]);
    await admin.api.post(`/api/v2/runs/${run.id}/actions/apply`).expect(202);
    expect(await runStatus(admin, run.id)).toBe('apply_queued');
  });

  it('lets the snapshot win over edits to the set made while the check runs', async () => {
    const { org, ws, ex } = await setting();
    const lint = await policyWithCode(admin, org, { name: 'lint', level: 'advisory', code: 'first code' });
    const set = await setOf(admin, org, 'edited', [lint], { global: true });
    const run = await planned(ex, ws);

    // While the check is queued: a stricter level, new code, another policy in the set.
    await admin.api
      .patch(`/api/v2/policies/${lint}`, {
        data: { type: 'policies', attributes: { 'enforcement-level': 'hard-mandatory' } },
      })
      .expect(200);
    await admin.api
      .put(`/api/v2/policies/${lint}/upload`)
      .set('Content-Type', 'text/plain')
      .send('new code')
      .expect(204);
    const extra = await policyWithCode(admin, org, { name: 'extra', level: 'hard-mandatory', code: 'deny' });
    await admin.api
      .post(`/api/v2/policy-sets/${set}/relationships/policies`, { data: [{ type: 'policies', id: extra }] })
      .expect(204);

    const job = await claimEvaluation(ex);
    expect(job['policy-evaluation'].policies).toEqual([
      { name: 'lint', 'enforcement-level': 'advisory', query: null, code: expect.any(String) },
    ]);
    expect((await fetchLink(job['policy-evaluation'].policies[0].code!).expect(200)).text).toBe('first code');
    const wrong = await ex
      .finish(job.id, {
        status: 'finished',
        results: [
          { policy: 'lint', status: 'failed' },
          { policy: 'extra', status: 'failed' },
        ],
      })
      .expect(422);
    expect(wrong.body.errors).toEqual([
      {
        status: '422',
        title: 'invalid attribute',
        detail: 'policy extra was not evaluated in this job',
        source: { pointer: '/results/1/policy' },
      },
    ]);
    const report = {
      status: 'finished',
      results: [{ policy: 'lint', status: 'failed', output: 'lint: 3 issues' }],
    };
    await ex.finish(job.id, report).expect(204);
    // An advisory failure (the level it had when the check started) lets the run go on.
    expect(await runStatus(admin, run.id)).toBe('policy_checked');
    await ex.finish(job.id, report).expect(204);
    await ex
      .finish(job.id, { status: 'finished', results: [{ policy: 'lint', status: 'passed' }] })
      .expect(409);
    const check = await checkOf(admin, run.id);
    expect(check.attributes.result).toMatchObject({
      result: true,
      passed: 0,
      'total-failed': 1,
      'advisory-failed': 1,
    });
    expect(check.attributes.result['policy-sets'][0].policies).toEqual([
      policyOutcome('lint', 'advisory', 'failed', 'lint: 3 issues'),
    ]);
  });

  it("errors the run when an evaluation's executor stops reporting", async () => {
    const sweeper = t.app.get(RunTimeoutsService);
    clock.advance((TIMEOUT_SECONDS + 1) * 1000);
    await sweeper.sweep();
    const { org, ws, ex } = await setting();
    const p = await policyWithCode(admin, org, { name: 'p', level: 'hard-mandatory', code: 'x' });
    await setOf(admin, org, 'quiet', [p], { global: true });
    const run = await planned(ex, ws);
    const next = await createRun(admin, ws);
    const job = await claimEvaluation(ex);

    clock.advance((TIMEOUT_SECONDS + 1) * 1000);
    expect(await sweeper.sweep()).toBe(1);
    const reason = `the executor stopped reporting for ${TIMEOUT_SECONDS} s while it evaluated policies`;
    const shown = await admin.api.get(`/api/v2/runs/${run.id}`).expect(200);
    expect(shown.body.data.attributes).toMatchObject({ status: 'errored', 'error-message': reason });
    const check = await checkOf(admin, run.id);
    expect(check.attributes).toMatchObject({ status: 'errored', 'error-message': reason });
    expect(check.attributes['status-timestamps']).toHaveProperty('errored-at');
    expect(check.attributes.result['policy-sets'][0]).toMatchObject({ status: 'errored', error: reason });
    expect((await ex.heartbeat(job.id).expect(200)).body).toEqual({ status: 'canceled' });
    await ex.finish(job.id, passedAll(job)).expect(409);
    expect(await runStatus(admin, next.id)).toBe('plan_queued');
  });

  it('cancels or discards a run in its check, and discards one waiting for an override', async () => {
    const { org, ws, ex } = await setting();
    const soft = await policyWithCode(admin, org, { name: 'soft', level: 'soft-mandatory', code: 'x' });
    await setOf(admin, org, 'gate', [soft], { global: true });

    const canceled = await planned(ex, ws);
    const job = await claimEvaluation(ex);
    await admin.api.post(`/api/v2/runs/${canceled.id}/actions/cancel`).expect(202);
    expect(await runStatus(admin, canceled.id)).toBe('canceled');
    expect((await checkOf(admin, canceled.id)).attributes.status).toBe('canceled');
    expect((await ex.heartbeat(job.id).expect(200)).body).toEqual({ status: 'canceled' });

    const discarded = await planned(ex, ws);
    await admin.api.post(`/api/v2/runs/${discarded.id}/actions/discard`).expect(202);
    expect(await runStatus(admin, discarded.id)).toBe('discarded');
    expect((await checkOf(admin, discarded.id)).attributes.status).toBe('canceled');
    await ex.claim().expect(204);

    const waiting = await planned(ex, ws);
    const second = await claimEvaluation(ex);
    await ex
      .finish(second.id, { status: 'finished', results: [{ policy: 'soft', status: 'failed' }] })
      .expect(204);
    const run = await admin.api.get(`/api/v2/runs/${waiting.id}`).expect(200);
    expect(run.body.data.attributes).toMatchObject({
      status: 'policy_override',
      actions: { 'is-cancelable': true, 'is-confirmable': false, 'is-discardable': true },
    });
    await admin.api.post(`/api/v2/runs/${waiting.id}/actions/apply`).expect(409);
    await admin.api.post(`/api/v2/runs/${waiting.id}/actions/discard`).expect(202);
    expect(await runStatus(admin, waiting.id)).toBe('discarded');
    const check = await checkOf(admin, waiting.id);
    expect(check.attributes).toMatchObject({ status: 'soft_failed', actions: { 'is-overridable': false } });
    await admin.api.post(`/api/v2/policy-checks/${check.id}/actions/override`).expect(409);
  });

  it('ends a plan-only run policy_soft_failed, and errors the run on a failure nobody may override', async () => {
    const { org, ws, ex } = await setting();
    const soft = await policyWithCode(admin, org, { name: 'soft', level: 'soft-mandatory', code: 'x' });
    const set = await setOf(admin, org, 'gate', [soft], { global: true });
    const speculative = await planned(ex, ws, { 'plan-only': true });
    const job = await claimEvaluation(ex);
    await ex
      .finish(job.id, { status: 'finished', results: [{ policy: 'soft', status: 'failed' }] })
      .expect(204);
    expect(await runStatus(admin, speculative.id)).toBe('policy_soft_failed');
    expect((await checkOf(admin, speculative.id)).attributes.actions).toEqual({ 'is-overridable': false });

    const hard = await policyWithCode(admin, org, { name: 'hard', level: 'hard-mandatory', code: 'y' });
    await admin.api
      .post(`/api/v2/policy-sets/${set}/relationships/policies`, { data: [{ type: 'policies', id: hard }] })
      .expect(204);
    const run = await planned(ex, ws);
    const both = await claimEvaluation(ex);
    await ex
      .finish(both.id, {
        status: 'finished',
        results: [
          { policy: 'hard', status: 'failed', output: 'hard says no' },
          { policy: 'soft', status: 'passed' },
        ],
      })
      .expect(204);
    const shown = await admin.api.get(`/api/v2/runs/${run.id}`).expect(200);
    expect(shown.body.data.attributes).toMatchObject({
      status: 'errored',
      'error-message': 'A policy that cannot be overridden failed its check',
    });
    const check = await checkOf(admin, run.id);
    expect(check.attributes).toMatchObject({
      status: 'hard_failed',
      actions: { 'is-overridable': false },
      result: { result: false, passed: 1, 'total-failed': 1, 'hard-failed': 1, 'soft-failed': 0 },
    });
  });

  it('errors the run when the engine could not evaluate a set, with its words', async () => {
    const { org, ws, ex } = await setting();
    const p = await policyWithCode(admin, org, { name: 'p', level: 'advisory', code: 'x' });
    await setOf(admin, org, 'broken', [p], { global: true });
    const run = await planned(ex, ws);
    const job = await claimEvaluation(ex);
    await ex.finish(job.id, { status: 'errored', 'error-message': 'engine not installed' }).expect(204);
    const shown = await admin.api.get(`/api/v2/runs/${run.id}`).expect(200);
    expect(shown.body.data.attributes).toMatchObject({
      status: 'errored',
      'error-message': 'The policy check errored: policy set broken: engine not installed',
    });
    expect((await checkOf(admin, run.id)).attributes.status).toBe('errored');
  });
});
