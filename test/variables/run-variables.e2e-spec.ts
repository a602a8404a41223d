import { DataSource } from 'typeorm';
import { EffectiveVariablesService } from '../../src/variables/effective-variables.service';
import { RunVariablesService } from '../../src/variables/run-variables.service';
import { WorkspacesService } from '../../src/workspaces/workspaces.service';
import { Actor, bootstrapAdmin, createOrganization, createUser, createWorkspace } from '../helpers/fixtures';
import { errorsOf } from '../helpers/shapes';
import { startApp, TestApp } from '../helpers/test-app';
import { runBody, uploadedVersion } from '../runs/run-fixtures';
import { addSetVar, createVar, createVarset, SeenBodies } from './helpers';

const SECRET = 'cli-var-secret-never-shown-a7c3';
/** A value kept sealed at rest, though shown on the run (nothing makes its key sensitive). */
const AT_REST = 'cli-var-sealed-at-rest-e91b';

describe('run variables (POST /runs, variables)', () => {
  let t: TestApp;
  let owner: Actor;
  let org: string;
  let ws: string;
  let cv: string;
  const seen = new SeenBodies();

  beforeAll(async () => {
    t = await startApp();
    const admin = await bootstrapAdmin(t);
    owner = seen.watch(await createUser(t, admin));
    org = await createOrganization(owner);
    ws = await createWorkspace(owner, org);
    cv = await uploadedVersion(t, owner, ws);
  });
  afterAll(() => t.close());

  const post = (variables: unknown) =>
    owner.api.post('/api/v2/runs', runBody(ws, { 'plan-only': true, variables }, cv));

  it('stores them with the run, in order, as the CLI sent them (HCL literals), sealed', async () => {
    const variables = [
      { key: 'region', value: '"eu-west-1"' },
      { key: 'replicas', value: '3' },
      { key: 'tags', value: '{\n  env = "prod"\n}' },
      { key: 'db_password', value: `"${AT_REST}"` },
    ];
    const res = await post(variables).expect(201);
    const runId = res.body.data.id as string;
    expect(await t.app.get(RunVariablesService).of(runId)).toEqual(variables);
    expect(await t.app.get(RunVariablesService).keysOf(runId)).toEqual([
      'region',
      'replicas',
      'tags',
      'db_password',
    ]);
    const rows: Record<string, unknown>[] = await t.app
      .get(DataSource)
      .query('SELECT * FROM run_variables WHERE run_id = ?', [runId]);
    expect(rows).toHaveLength(4);
    expect(JSON.stringify(rows)).not.toContain(AT_REST);
    expect(JSON.stringify(rows)).not.toContain('eu-west-1');
    // No variable of the workspace makes `db_password` sensitive yet: its value shows on the run.
    const shown = await owner.api.get(`/api/v2/runs/${runId}`).expect(200);
    expect(shown.body.data.attributes.variables).toEqual(variables);
  });

  it('rank above the workspace’s variables and below priority sets in what a run receives', async () => {
    await createVar(owner, ws, { key: 'region', value: 'from-workspace', category: 'terraform' });
    await createVar(owner, ws, { key: 'db_password', value: SECRET, category: 'terraform', sensitive: true });
    await createVar(owner, ws, { key: 'AWS_REGION', value: 'eu-west-1', category: 'env' });
    const set = await createVarset(owner, org, { name: 'pinned', global: true, priority: true });
    await addSetVar(owner, set, { key: 'image', value: 'ami-pinned', category: 'terraform' });
    const res = await post([
      { key: 'region', value: '"from-cli"' },
      { key: 'image', value: '"ami-cli"' },
      { key: 'db_password', value: '"typed-at-the-prompt"' },
    ]).expect(201);
    const workspace = await t.app.get(WorkspacesService).requireById(ws);
    const snapshot = await t.app.get(EffectiveVariablesService).snapshot(workspace, res.body.data.id);
    expect(snapshot).toEqual([
      {
        key: 'AWS_REGION',
        value: 'eu-west-1',
        category: 'env',
        hcl: false,
        sensitive: false,
        from: 'workspace',
      },
      {
        key: 'db_password',
        value: '"typed-at-the-prompt"',
        category: 'terraform',
        hcl: true,
        sensitive: true,
        from: 'run',
      },
      {
        key: 'image',
        value: 'ami-pinned',
        category: 'terraform',
        hcl: false,
        sensitive: false,
        from: 'varset',
        varsetId: set,
      },
      { key: 'region', value: '"from-cli"', category: 'terraform', hcl: true, sensitive: false, from: 'run' },
    ]);
    // Without the run: the workspace's sensitive value, in clear, for the run's jobs only.
    const bare = await t.app.get(EffectiveVariablesService).snapshot(workspace);
    expect(bare.find((e) => e.key === 'db_password')).toMatchObject({
      value: SECRET,
      sensitive: true,
      from: 'workspace',
    });
    expect(seen.containing(SECRET)).toEqual([]);
  });

  it('takes none, or an empty list', async () => {
    const res = await post([]).expect(201);
    expect(await t.app.get(RunVariablesService).of(res.body.data.id)).toEqual([]);
    await owner.api.post('/api/v2/runs', runBody(ws, { 'plan-only': true }, cv)).expect(201);
  });

  it('refuses what is not a list of {key, value}, one error per broken rule', async () => {
    const notArray = await post({ key: 'a', value: '1' }).expect(422);
    expect(notArray.body).toEqual(
      errorsOf(422, { detail: 'Variables must be an array', pointer: '/data/attributes/variables' }),
    );
    const res = await post([
      'region',
      { key: '', value: '1' },
      { key: '1bad', value: '1' },
      { key: 'ok', value: 1 },
      { key: 'ok2', value: '  ' },
      { key: 'twice', value: '1' },
      { key: 'twice', value: '2' },
      { key: 'big', value: 'x'.repeat(256 * 1024 + 1) },
    ]).expect(422);
    expect(res.body).toEqual(
      errorsOf(
        422,
        { detail: 'Variable must be an object with key and value', pointer: '/data/attributes/variables/0' },
        { detail: "Key can't be blank", pointer: '/data/attributes/variables/1/key' },
        { detail: 'Key is not a valid variable name', pointer: '/data/attributes/variables/2/key' },
        {
          detail: 'Value must be a string holding an HCL literal expression',
          pointer: '/data/attributes/variables/3/value',
        },
        { detail: "Value can't be blank", pointer: '/data/attributes/variables/4/value' },
        { detail: 'Key is given more than once', pointer: '/data/attributes/variables/6/key' },
        {
          detail: 'Value is too long (maximum is 262144 bytes)',
          pointer: '/data/attributes/variables/7/value',
        },
      ),
    );
  });
});
