import { Actor, bootstrapAdmin, idOf, ISO_MILLIS, ISO_OFFSET, unique } from '../helpers/fixtures';
import { startApp, TestApp } from '../helpers/test-app';
import { claimJob, executor, Executor, PLANNED_WITH_CHANGES, putLink, upload } from '../runs/run-fixtures';
import { GO_SLUG_CONFIGURATION, goTfe, JSONAPI_CONTENT_TYPE } from './go-tfe-requests';

jest.setTimeout(60_000);

/**
 * A soft-mandatory failure and its override, driven with the requests of the real service's
 * official Go client (go-tfe-requests.ts), asserting what its decoder reads (go-tfe v1.go):
 * `Run.PolicyChecks` (`jsonapi:"relation,policy-checks"`) and the `PolicyCheck` struct read by
 * `PolicyChecks.List`, `Read` and `Override` (attributes `actions`, `permissions`, `result`,
 * `scope`, `status`, `status-timestamps` in RFC 3339; relationship `run`).
 */
describe('policy checks, as the official client reads them', () => {
  let t: TestApp;
  let admin: Actor;
  let org: string;
  let ws: string;
  let ex: Executor;

  beforeAll(async () => {
    t = await startApp();
    admin = await bootstrapAdmin(t);
    org = unique('gotfe');
    await admin.api.post('/api/v2/organizations', goTfe.organizationCreate(org)).expect(201);
    ws = (
      await admin.api
        .post(`/api/v2/organizations/${org}/workspaces`, goTfe.workspaceCreate('app', 'latest'))
        .expect(201)
    ).body.data.id;
    ex = await executor(t, admin, org);
    const policy = (
      await admin.api
        .post(`/api/v2/organizations/${org}/policies`, goTfe.softPolicyCreate('budget'))
        .expect(201)
    ).body.data.id;
    // Policies.Upload: the code as raw bytes.
    await admin.api
      .put(`/api/v2/policies/${policy}/upload`)
      .set('Content-Type', 'application/octet-stream')
      .send(Buffer.from('main = rule { false }\n'))
      .expect(204);
    await admin.api
      .post(`/api/v2/organizations/${org}/policy-sets`, goTfe.globalPolicySetCreate('guard', [policy]))
      .expect(201);
  });
  afterAll(() => t.close());

  /** A run of an uploaded configuration, planned with changes over the executor protocol. */
  async function plannedRun(): Promise<string> {
    const cv = (
      await admin.api
        .post(`/api/v2/workspaces/${ws}/configuration-versions`, goTfe.configurationVersionCreate())
        .expect(201)
    ).body.data;
    await upload(t, cv.attributes['upload-url'], GO_SLUG_CONFIGURATION).expect(200);
    const run = (
      await admin.api.post('/api/v2/runs', goTfe.runCreate(ws, 'policy checked', cv.id)).expect(201)
    ).body.data;
    expect(run.relationships['policy-checks']).toEqual({ data: [] });
    const plan = await claimJob(ex);
    expect(plan).toMatchObject({ kind: 'plan', runId: run.id });
    await putLink(t, plan.links['plan-json'], '{"format_version":"1.2","resource_changes":[]}').expect(200);
    await ex.finish(plan.id, PLANNED_WITH_CHANGES).expect(204);
    return run.id;
  }

  it('show the check on the run, list and read it, and override a soft-mandatory failure', async () => {
    const runId = await plannedRun();
    const job = (await ex.claim().expect(200)).body.job;
    expect(job.kind).toBe('policy-evaluation');
    await ex
      .finish(job.id, {
        status: 'finished',
        results: [{ policy: 'budget', status: 'failed', output: 'budget exceeded' }],
      })
      .expect(204);

    const listed = await admin.api.get(`/api/v2/runs/${runId}/policy-checks`).expect(200);
    expect(listed.body.data).toHaveLength(1);
    const checkId = listed.body.data[0].id;
    expect(checkId).toMatch(idOf('polchk'));
    // go-tfe's Pagination.
    expect(listed.body.meta.pagination).toEqual({
      'current-page': 1,
      'page-size': 20,
      'prev-page': null,
      'next-page': null,
      'total-pages': 1,
      'total-count': 1,
    });

    // Runs.Read: PolicyChecks, the to-many relationship, beside the run's other relationships.
    const run = (await admin.api.get(`/api/v2/runs/${runId}`).expect(200)).body.data;
    expect(run.attributes.status).toBe('policy_override');
    expect(run.relationships).toEqual({
      workspace: { data: { id: ws, type: 'workspaces' } },
      'configuration-version': {
        data: { id: expect.stringMatching(idOf('cv')), type: 'configuration-versions' },
      },
      'created-by': { data: { id: admin.userId, type: 'users' } },
      plan: { data: { id: expect.stringMatching(idOf('plan')), type: 'plans' } },
      apply: { data: { id: expect.stringMatching(idOf('apply')), type: 'applies' } },
      'triggering-run': { data: null },
      'policy-checks': { data: [{ id: checkId, type: 'policy-checks' }] },
      'task-stages': { data: [] },
      'cost-estimate': { data: null },
    });
    const runs = await admin.api.get(`/api/v2/workspaces/${ws}/runs`).expect(200);
    expect(runs.body.data.find((r: { id: string }) => r.id === runId).relationships['policy-checks']).toEqual(
      run.relationships['policy-checks'],
    );

    // PolicyChecks.Read: every field of go-tfe's PolicyCheck, in the types it decodes.
    const read = (await admin.api.get(`/api/v2/policy-checks/${checkId}`).expect(200)).body.data;
    expect(read).toEqual(listed.body.data[0]);
    expect(read).toMatchObject({
      id: checkId,
      type: 'policy-checks',
      attributes: {
        status: 'soft_failed',
        scope: 'organization',
        'status-timestamps': {
          'queued-at': expect.stringMatching(ISO_OFFSET),
          'soft-failed-at': expect.stringMatching(ISO_OFFSET),
        },
        actions: { 'is-overridable': true },
        permissions: { 'can-override': true },
        result: {
          result: false,
          passed: 0,
          'total-failed': 1,
          'hard-failed': 0,
          'soft-failed': 1,
          'advisory-failed': 0,
          duration: expect.any(Number),
        },
      },
      relationships: { run: { data: { id: runId, type: 'runs' } } },
    });

    // PolicyChecks.Override: a POST with go-tfe's JSON:API content type and no body.
    const overridden = await admin.api
      .post(`/api/v2/policy-checks/${checkId}/actions/override`)
      .set('Content-Type', JSONAPI_CONTENT_TYPE)
      .expect(200);
    expect(overridden.body.data).toMatchObject({
      id: checkId,
      type: 'policy-checks',
      attributes: {
        status: 'overridden',
        'status-timestamps': {
          'queued-at': expect.stringMatching(ISO_OFFSET),
          'soft-failed-at': expect.stringMatching(ISO_OFFSET),
          'overridden-at': expect.stringMatching(ISO_OFFSET),
        },
        actions: { 'is-overridable': false },
        'overridden-at': expect.stringMatching(ISO_MILLIS),
      },
      relationships: { run: { data: { id: runId, type: 'runs' } } },
    });
    await admin.api
      .post(`/api/v2/policy-checks/${checkId}/actions/override`)
      .set('Content-Type', JSONAPI_CONTENT_TYPE)
      .expect(409);

    const after = (await admin.api.get(`/api/v2/runs/${runId}`).expect(200)).body.data;
    expect(after.attributes.status).toBe('policy_checked');
    expect(after.attributes.actions['is-confirmable']).toBe(true);
    expect(after.relationships['policy-checks']).toEqual(run.relationships['policy-checks']);
  });
});
