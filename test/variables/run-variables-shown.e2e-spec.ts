import { DataSource } from 'typeorm';
import { AuditRecorder } from '../../src/audit/audit.recorder';
import { LOG_DESTINATION } from '../../src/observability/http-logging';
import { RunVariablesService } from '../../src/variables/run-variables.service';
import { VariablesRepository } from '../../src/variables/variables.repository';
import {
  Actor,
  bootstrapAdmin,
  createOrganization,
  createProject,
  createUser,
  createWorkspace,
} from '../helpers/fixtures';
import { LogCapture } from '../helpers/log-capture';
import { startApp, TestApp } from '../helpers/test-app';
import { runBody, uploadedVersion } from '../runs/run-fixtures';
import { addSetVar, createVar, createVarset, ids, SeenBodies } from './helpers';

const SECRET = 'run-var-secret-never-shown-5d1e';
const SET_SECRET = 'run-var-set-secret-never-shown-9b20';
const ENV_SECRET = 'run-var-env-secret-never-shown-c4f7';

describe('run variables in the run resource (attribute `variables`)', () => {
  let t: TestApp;
  let admin: Actor;
  let owner: Actor;
  let org: string;
  let project: string;
  let ws: string;
  let other: string;
  const seen = new SeenBodies();
  const logs = new LogCapture();

  beforeAll(async () => {
    t = await startApp({ LOG_LEVEL: 'trace' }, [{ provide: LOG_DESTINATION, useValue: logs }]);
    admin = await bootstrapAdmin(t);
    owner = seen.watch(await createUser(t, admin));
    org = await createOrganization(owner);
    project = await createProject(owner, org);
    ws = await createWorkspace(owner, org, undefined, project);
    other = await createWorkspace(owner, org);
    // Sensitive by name in `ws`: its own terraform variable, a set on its project, a TF_VAR_ env.
    await createVar(owner, ws, {
      key: 'db_password',
      value: 'stored',
      category: 'terraform',
      sensitive: true,
    });
    const set = await createVarset(
      owner,
      org,
      { name: 'on-project' },
      { projects: ids('projects', [project]) },
    );
    await addSetVar(owner, set, { key: 'api_key', value: 'stored', category: 'terraform', sensitive: true });
    await createVar(owner, ws, { key: 'TF_VAR_token', value: 'stored', category: 'env', sensitive: true });
    // Not sensitive by name: a plain variable of the same key, and a sensitive env variable.
    await createVar(owner, ws, { key: 'region', value: 'stored', category: 'terraform' });
    await createVar(owner, ws, { key: 'AWS_SECRET', value: 'stored', category: 'env', sensitive: true });
  });
  afterAll(() => t.close());

  async function runWith(workspaceId: string, variables: unknown): Promise<Record<string, unknown>> {
    const cv = await uploadedVersion(t, owner, workspaceId);
    const res = await owner.api
      .post('/api/v2/runs', runBody(workspaceId, { 'plan-only': true, variables }, cv))
      .expect(201);
    return res.body.data as Record<string, unknown>;
  }

  const given = [
    { key: 'region', value: '"eu-west-1"' },
    { key: 'db_password', value: `"${SECRET}"` },
    { key: 'replicas', value: '3' },
    { key: 'api_key', value: `"${SET_SECRET}"` },
    { key: 'token', value: `"${ENV_SECRET}"` },
    { key: 'AWS_SECRET', value: '"not-a-terraform-secret"' },
  ];
  const shown = [
    { key: 'region', value: '"eu-west-1"' },
    { key: 'db_password', value: null },
    { key: 'replicas', value: '3' },
    { key: 'api_key', value: null },
    { key: 'token', value: null },
    { key: 'AWS_SECRET', value: '"not-a-terraform-secret"' },
  ];

  it('echoes them in order on create and show, values null for keys sensitive by name', async () => {
    const created = await runWith(ws, given);
    expect((created.attributes as Record<string, unknown>).variables).toEqual(shown);
    const show = await owner.api.get(`/api/v2/runs/${created.id as string}`).expect(200);
    expect(show.body.data.attributes.variables).toEqual(shown);
    expect(Object.keys(show.body.data.attributes.variables[1] as object)).toEqual(['key', 'value']);
  });

  it('is an empty list for a run given none', async () => {
    const run = await runWith(ws, undefined);
    const show = await owner.api.get(`/api/v2/runs/${run.id as string}`).expect(200);
    expect(show.body.data.attributes.variables).toEqual([]);
  });

  it('masks by the workspace of each run in a list, reading them a page at a time', async () => {
    const mine = await runWith(ws, [{ key: 'db_password', value: `"${SECRET}"` }]);
    const theirs = await runWith(other, [{ key: 'db_password', value: '"plain-elsewhere"' }]);
    const none = await runWith(other, undefined);
    const runVariables = t.app.get(RunVariablesService);
    const byRuns = jest.spyOn(runVariables, 'ofRuns');
    const one = jest.spyOn(runVariables, 'of');
    const sensitive = jest.spyOn(t.app.get(VariablesRepository), 'sensitiveOfWorkspaces');
    try {
      const queue = await owner.api.get(`/api/v2/organizations/${org}/runs/queue?page[size]=100`).expect(200);
      const variablesOf = (id: unknown) =>
        (queue.body.data as { id: string; attributes: { variables: unknown } }[]).find((r) => r.id === id)
          ?.attributes.variables;
      expect(variablesOf(mine.id)).toEqual([{ key: 'db_password', value: null }]);
      expect(variablesOf(theirs.id)).toEqual([{ key: 'db_password', value: '"plain-elsewhere"' }]);
      expect(variablesOf(none.id)).toEqual([]);
      expect(queue.body.data.length).toBeGreaterThan(4);
      // One read of the page's run variables and one of its workspaces' sensitive keys, whatever its size.
      expect(byRuns).toHaveBeenCalledTimes(1);
      expect(sensitive).toHaveBeenCalledTimes(1);
      expect(sensitive.mock.calls[0][0]).toEqual(expect.arrayContaining([ws, other]));
      expect(one).not.toHaveBeenCalled();

      const list = await owner.api.get(`/api/v2/workspaces/${ws}/runs?page[size]=100`).expect(200);
      expect(list.body.data.find((r: { id: string }) => r.id === mine.id).attributes.variables).toEqual([
        { key: 'db_password', value: null },
      ]);
      expect(byRuns).toHaveBeenCalledTimes(2);
      expect(sensitive).toHaveBeenCalledTimes(2);
    } finally {
      byRuns.mockRestore();
      one.mockRestore();
      sensitive.mockRestore();
    }
  });

  it('hides a value from the moment its key becomes sensitive in the workspace', async () => {
    const run = await runWith(other, [{ key: 'late_secret', value: '"shown-until-sensitive"' }]);
    const before = await owner.api.get(`/api/v2/runs/${run.id as string}`).expect(200);
    expect(before.body.data.attributes.variables).toEqual([
      { key: 'late_secret', value: '"shown-until-sensitive"' },
    ]);
    await createVar(owner, other, { key: 'late_secret', value: 'x', category: 'terraform', sensitive: true });
    const after = await owner.api.get(`/api/v2/runs/${run.id as string}`).expect(200);
    expect(after.body.data.attributes.variables).toEqual([{ key: 'late_secret', value: null }]);
  });

  it('never shows a sensitive value: in no response, log line, audit event or database row in clear', async () => {
    await t.app.get(AuditRecorder).flush();
    const trail = await admin.api.get('/api/v2/admin/audit-trail?page[size]=100').expect(200);
    const rows: Record<string, unknown>[] = await t.app.get(DataSource).query('SELECT * FROM run_variables');
    expect(rows.length).toBeGreaterThan(0);
    expect(seen.bodies.length).toBeGreaterThan(10);
    expect(logs.lines.length).toBeGreaterThan(0);
    for (const secret of [SECRET, SET_SECRET, ENV_SECRET]) {
      expect(seen.containing(secret)).toEqual([]);
      expect(trail.text).not.toContain(secret);
      expect(logs.text).not.toContain(secret);
      expect(JSON.stringify(rows)).not.toContain(secret);
    }
  });
});
