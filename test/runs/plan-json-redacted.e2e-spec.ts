import {
  Actor,
  bootstrapAdmin,
  createOrganization,
  createWorkspace,
  grantWorkspace,
  memberWith,
} from '../helpers/fixtures';
import { client, startApp, TestApp } from '../helpers/test-app';
import {
  claimJob,
  createRun,
  executor,
  Executor,
  PLANNED_WITH_CHANGES,
  putLink,
  uploadedVersion,
} from './run-fixtures';

jest.setTimeout(60_000);

/** What an executor sends: `terraform show -json` of a plan that changes a sensitive attribute and output. */
const PLAN_JSON = {
  format_version: '1.2',
  terraform_version: '1.9.0',
  variables: { db_password: { value: 'var-secret' }, region: { value: 'eu-west-1' } },
  resource_changes: [
    {
      address: 'db_instance.main',
      type: 'db_instance',
      name: 'main',
      provider_name: 'registry.terraform.io/hashicorp/db',
      change: {
        actions: ['update'],
        before: { name: 'main', password: 'old-secret' },
        after: { name: 'main', password: 'new-secret' },
        after_unknown: {},
        before_sensitive: { password: true },
        after_sensitive: { password: true },
      },
    },
  ],
  output_changes: {
    password: {
      actions: ['update'],
      before: 'old-secret',
      after: 'new-secret',
      before_sensitive: true,
      after_sensitive: true,
    },
    name: {
      actions: ['no-op'],
      before: 'main',
      after: 'main',
      before_sensitive: false,
      after_sensitive: false,
    },
  },
  configuration: { root_module: { variables: { db_password: { sensitive: true }, region: {} } } },
};

describe('GET /plans/:id/json-output-redacted', () => {
  let t: TestApp;
  let admin: Actor;
  let org: string;
  let ex: Executor;

  beforeAll(async () => {
    t = await startApp();
    admin = await bootstrapAdmin(t);
    org = await createOrganization(admin);
    ex = await executor(t, admin, org);
  });
  afterAll(() => t.close());

  /** A run planned by the executor, which sent `planJson` (or nothing) as the plan's JSON. */
  async function plannedRun(ws: string, planJson?: string): Promise<{ planId: string }> {
    await uploadedVersion(t, admin, ws);
    const run = await createRun(admin, ws);
    const job = await claimJob(ex);
    if (planJson !== undefined) await putLink(t, job.links['plan-json'], planJson).expect(200);
    await ex.finish(job.id, PLANNED_WITH_CHANGES).expect(204);
    return run;
  }

  it('answers the plan JSON with every sensitive value nulled, as application/json, once the plan has finished', async () => {
    const ws = await createWorkspace(admin, org);
    await uploadedVersion(t, admin, ws);
    const run = await createRun(admin, ws);
    const path = `/api/v2/plans/${run.planId}/json-output-redacted`;
    const pending = await admin.api.get(path).set('Accept', 'application/json').expect(204);
    expect(pending.text).toBe('');

    const job = await claimJob(ex);
    await putLink(t, job.links['plan-json'], JSON.stringify(PLAN_JSON)).expect(200);
    // Still running: the JSON may yet be replaced.
    await admin.api.get(path).set('Accept', 'application/json').expect(204);
    await ex.finish(job.id, PLANNED_WITH_CHANGES).expect(204);

    const res = await admin.api.get(path).set('Accept', 'application/json').expect(200);
    expect(res.headers['content-type']).toMatch(/^application\/json\b/);
    expect(res.body).toEqual({
      ...PLAN_JSON,
      variables: { db_password: { value: null }, region: { value: 'eu-west-1' } },
      resource_changes: [
        {
          ...PLAN_JSON.resource_changes[0],
          change: {
            ...PLAN_JSON.resource_changes[0].change,
            before: { name: 'main', password: null },
            after: { name: 'main', password: null },
          },
        },
      ],
      output_changes: {
        password: {
          actions: ['update'],
          before: null,
          after: null,
          before_sensitive: true,
          after_sensitive: true,
        },
        name: PLAN_JSON.output_changes.name,
      },
    });
    expect(res.text).not.toMatch(/secret/);
  });

  it('answers 204 for a finished plan whose executor sent no JSON, or none that parses', async () => {
    const none = await plannedRun(await createWorkspace(admin, org));
    await admin.api.get(`/api/v2/plans/${none.planId}/json-output-redacted`).expect(204);
    const broken = await plannedRun(await createWorkspace(admin, org), '{"resource_changes": [');
    await admin.api.get(`/api/v2/plans/${broken.planId}/json-output-redacted`).expect(204);
  });

  it('needs admin access to the workspace, as the JSON output does; 404 for others and for unknown plans', async () => {
    const ws = await createWorkspace(admin, org);
    const run = await plannedRun(ws, JSON.stringify(PLAN_JSON));
    const path = `/api/v2/plans/${run.planId}/json-output-redacted`;
    for (const level of ['read', 'plan', 'write'] as const) {
      const member = await memberWith(t, admin, admin, org);
      await grantWorkspace(admin, member.teamId, ws, level);
      const res = await member.api.get(path).expect(404);
      expect(res.body).toEqual({
        errors: [{ status: '404', title: 'not found' }],
      });
    }
    const owner = await memberWith(t, admin, admin, org);
    await grantWorkspace(admin, owner.teamId, ws, 'admin');
    await owner.api.get(path).expect(200);
    await admin.api.get('/api/v2/plans/plan-0000000000000000/json-output-redacted').expect(404);
    await client(t).get(path).expect(401);
  });
});
