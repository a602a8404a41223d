import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Executor } from '../../src/executor/executor';
import { ProtocolClient } from '../../src/executor/protocol-client';
import { createAgentToken, createPool } from '../agent-pools/helpers';
import { goTfe } from '../compat/go-tfe-requests';
import {
  Actor,
  bootstrapAdmin,
  createOrganization,
  grantWorkspace,
  idOf,
  memberWith,
  unique,
} from '../helpers/fixtures';
import { startApp, TestApp } from '../helpers/test-app';
import { policyWithCode, setOf } from '../policy-checks/check-fixtures';
import { configuration, installTool } from '../runs/stand-in-tool';
import { b64, md5, stateFile } from '../state-versions/state-fixtures';
import { expectCliHeaders, expectCliRun, expectCliWorkspace, expectInOrder } from './cli-expectations';
import { CLI_VERSION, CliSession, JsonDoc, sleep } from './cli-session';

jest.setTimeout(60_000);

/** The configuration the replay plans: two creations (the stand-in tool reads changes.json). */
const SLUG = configuration([['create'], ['create']]);
/** A stand-in policy engine: fails a policy whose code says `deny`. */
const ENGINE = 'echo "checked $PLINTH_POLICY_NAME"; ! grep -q deny "$PLINTH_POLICY_FILE"';
/** Upload and log links: absolute, on the server's origin. */
const URL_ABSOLUTE = /^http:\/\/127\.0\.0\.1:\d+\//;

/**
 * The real CLI with a `cloud` block, replayed call by call against Plinth (reference
 * §5.4–§5.9): `init`, a speculative `plan`, `apply` with confirmation, an `apply` whose
 * soft-mandatory policy failure is overridden, `state push`, `state pull` and `output`. Each test
 * is one command, in the order a user types them, on one workspace; the reference executor with
 * the stand-in tool does the runs. Each asserts the calls made (CliSession.since), the fields the
 * CLI dereferences at each step (§5.10, cli-expectations.ts) and the headers it reads (§5.3). A saved plan
 * (`plan -out`, `planned_and_saved`) is planned, then applied from its bookmark.
 */
describe('the CLI, call by call', () => {
  let t: TestApp;
  let admin: Actor;
  let org: string;
  let cli: CliSession;
  let toolDir: string;
  const executorLog: string[] = [];
  const stop = new AbortController();
  let running: Promise<void> | undefined;
  /** Carried from command to command, as the user's working directory would. */
  let workspaceId: string;
  let lockedWorkspace: JsonDoc;

  beforeAll(async () => {
    t = await startApp();
    admin = await bootstrapAdmin(t);
    org = await createOrganization(admin);
    // The operator's part: the CLI's version in the catalog, an executor for the organization.
    await admin.api
      .post('/api/v2/admin/terraform-versions', goTfe.terraformVersionCreate(CLI_VERSION))
      .expect(201);
    const pool = await createPool(admin, org, unique('pool'));
    const { secret } = await createAgentToken(admin, pool);
    toolDir = mkdtempSync(join(tmpdir(), 'plinth-cli-'));
    const tool = installTool(toolDir);
    const executor = new Executor(
      {
        url: t.origin,
        token: secret,
        name: 'cli-replay-host',
        workDir: toolDir,
        maxJobs: 0,
        commands: { plan: `${tool} plan`, show: `${tool} show`, apply: `${tool} apply` },
        policyCommands: { framework_a: ENGINE, framework_b: ENGINE },
      },
      new ProtocolClient(t.origin, secret),
      (line) => executorLog.push(line),
    );
    running = executor.run(stop.signal).catch((err: Error) => {
      executorLog.push(`executor stopped: ${err.message}`);
    });
    cli = new CliSession(t.origin, admin.token, org, unique('networking'));
  });
  afterAll(async () => {
    stop.abort();
    await running;
    await t.close();
    rmSync(toolDir, { recursive: true, force: true });
  });

  afterEach(() => expectCliHeaders(cli));

  /**
   * §5.5 steps 1–11 of a remote run, shared by `plan` and `apply`: workspace, configuration,
   * run, run events, task stages, wait, plan log, the run with its workspace and plan, the run.
   */
  async function remotePlan(cvAttributes: Record<string, unknown>, runAttributes: Record<string, unknown>) {
    const ws = await cli.readWorkspace();
    expect(ws.status).toBe(200);
    expectCliWorkspace(ws.body.data, cli);
    const cv = await cli.uploadConfiguration(workspaceId, cvAttributes, SLUG);
    expect(cv.attributes['upload-url']).toBeUndefined();
    const created = await cli.createRun(workspaceId, cv.id, runAttributes);
    const events = await cli.api('GET', `/runs/${created.id}/run-events`);
    expect([events.status, events.body.data]).toEqual([200, []]);
    const stages = await cli.api('GET', `/runs/${created.id}?include=task_stages`);
    expect(stages.status).toBe(200);
    expect(stages.body.data.relationships['task-stages']).toEqual({ data: [] });
    await cli.waitForRun(workspaceId, created.id);
    const planId = created.relationships.plan.data.id as string;
    const { phase, log, reader } = await cli.readLog('plans', planId);
    expect(phase.attributes['log-read-url']).toMatch(URL_ABSOLUTE);
    expect(reader.oversized).toBe(0);
    expect(log).toContain(`Planning ${cli.workspaceName} for run ${created.id}\n`);
    const withPlan = await cli.api('GET', `/runs/${created.id}?include=workspace,plan`);
    const included = withPlan.body.included as JsonDoc[];
    expect(included.find((r) => r.type === 'workspaces')).toMatchObject({
      id: workspaceId,
      attributes: { 'structured-run-output-enabled': false },
      relationships: { organization: { data: { id: org, type: 'organizations' } } },
    });
    expect(included.find((r) => r.type === 'plans')).toMatchObject({
      id: planId,
      attributes: { status: 'finished' },
    });
    const run = (await cli.api('GET', `/runs/${created.id}`)).body.data;
    return { cv, run, planLog: log };
  }

  it('init: discovery, ping, the entitlement set, and the workspace created and pinned to the CLI version', async () => {
    const disco = await cli.raw('GET', '/.well-known/terraform.json', { Accept: 'application/json' });
    expect(disco.status).toBe(200);
    expect(disco.headers.get('content-type')).toMatch(/^application\/json\b/);
    expect(disco.body['tfe.v2']).toBe('/api/v2/');
    const ping = await cli.api('GET', '/ping');
    expect(ping.headers.get('tfp-api-version')).toBeTruthy();
    const entitlements = await cli.api('GET', `/organizations/${org}/entitlement-set`);
    expect(entitlements.status).toBe(200);
    expect(entitlements.body.data).toMatchObject({
      type: 'entitlement-sets',
      id: expect.stringMatching(idOf('org')),
      attributes: { operations: true, 'state-storage': true },
    });

    // StateMgr: the workspace is missing, so the CLI creates it and pins it to its own version.
    expect((await cli.readWorkspace()).status).toBe(404);
    const created = await cli.api('POST', `/organizations/${org}/workspaces`, {
      data: { type: 'workspaces', attributes: { name: cli.workspaceName } },
    });
    expect(created.status).toBe(201);
    workspaceId = created.body.data.id;
    const pinned = await cli.api('PATCH', `/workspaces/${workspaceId}`, {
      data: { type: 'workspaces', attributes: { 'terraform-version': CLI_VERSION } },
    });
    expect(pinned.status).toBe(200);
    const ws = await cli.readWorkspace();
    expectCliWorkspace(ws.body.data, cli);
    expect(ws.body.data.relationships['current-run']).toEqual({ data: null });

    expect(cli.since(0)).toEqual([
      'GET /.well-known/terraform.json 200',
      'GET /api/v2/ping 204',
      `GET /api/v2/organizations/${org}/entitlement-set 200`,
      `GET /api/v2/organizations/${org}/workspaces/${cli.workspaceName} 404`,
      `POST /api/v2/organizations/${org}/workspaces 201`,
      `PATCH /api/v2/workspaces/${workspaceId} 200`,
      `GET /api/v2/organizations/${org}/workspaces/${cli.workspaceName} 200`,
    ]);
  });

  it('plan: a speculative run, its configuration uploaded without a token, its log read by offset', async () => {
    const from = cli.calls.length;
    const { cv, run, planLog } = await remotePlan(
      { speculative: true },
      { 'auto-apply': false, 'is-destroy': false, 'save-plan': false },
    );
    expect(cv.attributes).toMatchObject({ status: 'uploaded', speculative: true });
    expectCliRun(run, workspaceId, 'planned_and_finished');
    expect(run.attributes).toMatchObject({ 'plan-only': true, 'has-changes': true });
    expect(run.attributes.actions).toMatchObject({ 'is-confirmable': false, 'is-discardable': false });
    // The reader strips the STX and ETX markers.
    expect([planLog.includes('\x02'), planLog.includes('\x03')]).toEqual([false, false]);
    expect(cli.since(from).filter((c) => c.includes('<foreign>'))).toEqual(['PUT <foreign> 200']);
    const [cvId, runId, planId] = [cv.id, run.id, run.relationships.plan.data.id] as string[];
    expectInOrder(cli, from, [
      `GET /api/v2/organizations/${org}/workspaces/${cli.workspaceName} 200`,
      `POST /api/v2/workspaces/${workspaceId}/configuration-versions 201`,
      'PUT <foreign> 200',
      `GET /api/v2/configuration-versions/${cvId} 200`,
      'POST /api/v2/runs 201',
      `GET /api/v2/runs/${runId}/run-events 200`,
      `GET /api/v2/runs/${runId}?include=task_stages 200`,
      `GET /api/v2/runs/${runId} 200`,
      `GET /api/v2/plans/${planId} 200`,
      `GET /api/v2/runs/${runId}?include=workspace,plan 200`,
      `GET /api/v2/runs/${runId} 200`,
    ]);
  });

  it('plan and apply as members: plan access passes the plan precondition and plans, write access the apply precondition', async () => {
    const member = async (level: 'plan' | 'write') => {
      const actor = await memberWith(t, admin, admin, org);
      await grantWorkspace(admin, actor.teamId, workspaceId, level);
      return new CliSession(t.origin, actor.token, org, cli.workspaceName);
    };
    const planner = await member('plan');
    const writer = await member('write');
    // backend_plan.go: can-queue-run; backend_apply.go: can-update or can-queue-apply.
    expect((await planner.readWorkspace()).body.data.attributes.permissions).toMatchObject({
      'can-queue-run': true,
      'can-queue-apply': false,
      'can-update': false,
    });
    expect((await writer.readWorkspace()).body.data.attributes.permissions).toMatchObject({
      'can-queue-run': true,
      'can-queue-apply': true,
      'can-update': false,
    });

    const cv = await planner.uploadConfiguration(workspaceId, { speculative: true }, SLUG);
    const created = await planner.createRun(workspaceId, cv.id, {
      'auto-apply': false,
      'is-destroy': false,
      'save-plan': false,
    });
    await planner.waitForRun(workspaceId, created.id);
    const { log } = await planner.readLog('plans', created.relationships.plan.data.id);
    expect(log).toContain(`Planning ${cli.workspaceName} for run ${created.id}\n`);
    const run = (await planner.api('GET', `/runs/${created.id}`)).body.data;
    expect(run.attributes).toMatchObject({ status: 'planned_and_finished', 'plan-only': true });
    expect(run.attributes.permissions).toMatchObject({ 'can-apply': false, 'can-discard': false });
  });

  it('apply: a run confirmed with POST /runs/:id/actions/apply, its apply log read to the end', async () => {
    const from = cli.calls.length;
    const { run } = await remotePlan({}, { 'auto-apply': false, 'is-destroy': false, 'save-plan': false });
    expectCliRun(run, workspaceId, 'planned');
    expect(run.attributes).toMatchObject({ 'has-changes': true });
    expect(run.attributes.actions).toMatchObject({ 'is-confirmable': true, 'is-discardable': true });

    // "Do you want to perform these actions?" yes: plain JSON, as the CLI sends the comment.
    const confirm = await cli.raw(
      'POST',
      `/api/v2/runs/${run.id}/actions/apply`,
      {
        Authorization: `Bearer ${admin.token}`,
        'Content-Type': 'application/json',
        Accept: 'application/vnd.api+json',
      },
      JSON.stringify({ comment: 'Confirmed via CLI' }),
    );
    expect(confirm.status).toBe(202);
    await cli.waitForRun(workspaceId, run.id);
    const { phase, log } = await cli.readLog('applies', run.relationships.apply.data.id);
    expect(phase.attributes['log-read-url']).toMatch(URL_ABSOLUTE);
    // The CLI prints this log without its first three lines (renderApplyLogs), taking them for the
    // banner the plan log showed: the executor's header is those lines, the outcome comes after.
    const lines = log.split('\n');
    expect(lines[0]).toMatch(/^Terraform /);
    expect(lines.slice(3).join('\n')).toContain(
      'Apply complete! Resources: 2 added, 0 changed, 0 destroyed.',
    );
    const done = (await cli.api('GET', `/runs/${run.id}`)).body.data;
    expectCliRun(done, workspaceId, 'applied');
    const ws = await cli.readWorkspace();
    expect(ws.body.data.relationships['current-run']).toEqual({ data: { id: run.id, type: 'runs' } });
    expectInOrder(cli, from, [
      'POST /api/v2/runs 201',
      `GET /api/v2/plans/${run.relationships.plan.data.id} 200`,
      `GET /api/v2/runs/${run.id} 200`,
      `POST /api/v2/runs/${run.id}/actions/apply 202`,
      `GET /api/v2/runs/${run.id} 200`,
      `GET /api/v2/applies/${run.relationships.apply.data.id} 200`,
      `GET /api/v2/runs/${run.id} 200`,
    ]);
  });

  it('plan -out, then apply of the saved plan: planned_and_saved, confirmed later from its bookmark', async () => {
    const from = cli.calls.length;
    // `plan -out`: the configuration is provisional and the run saves its plan (§5.5 steps 2, 5, 12).
    const { cv, run } = await remotePlan({ provisional: true }, { 'auto-apply': false, 'save-plan': true });
    expect(cv.attributes).toMatchObject({ status: 'uploaded', provisional: true, speculative: false });
    expectCliRun(run, workspaceId, 'planned_and_saved');
    expect(run.attributes).toMatchObject({ 'save-plan': true, 'has-changes': true });
    expect(run.attributes.actions).toMatchObject({ 'is-confirmable': true, 'is-discardable': true });
    // Until it is applied, a saved plan is not the workspace's current run and holds no lock.
    const meanwhile = (await cli.readWorkspace()).body.data;
    expect(meanwhile.relationships['current-run'].data?.id).not.toBe(run.id);
    expect(meanwhile.attributes.locked).toBe(false);

    // `apply <bookmark>`: the run with its workspace, confirmable, then applied (§5.6).
    const applyFrom = cli.calls.length;
    expect((await cli.readWorkspace()).body.data.attributes.permissions['can-queue-apply']).toBe(true);
    const saved = await cli.api('GET', `/runs/${run.id}?include=workspace`);
    expect(saved.body.data.relationships.workspace.data).toEqual({ id: workspaceId, type: 'workspaces' });
    expect(saved.body.data.attributes.actions['is-confirmable']).toBe(true);
    const confirm = await cli.api('POST', `/runs/${run.id}/actions/apply`, { comment: 'saved plan' });
    expect(confirm.status).toBe(202);
    await cli.waitForRun(workspaceId, run.id);
    const { log } = await cli.readLog('applies', run.relationships.apply.data.id);
    expect(log.split('\n').slice(3).join('\n')).toContain('Apply complete!');
    expectCliRun((await cli.api('GET', `/runs/${run.id}`)).body.data, workspaceId, 'applied');
    const after = (await cli.readWorkspace()).body.data;
    expect(after.relationships['current-run']).toEqual({ data: { id: run.id, type: 'runs' } });
    expect(after.attributes.locked).toBe(false);
    const version = (await cli.api('GET', `/configuration-versions/${cv.id}`)).body.data;
    expect(version.attributes.provisional).toBe(false);
    expect(cli.since(from).slice(0, 2)).toEqual([
      `GET /api/v2/organizations/${org}/workspaces/${cli.workspaceName} 200`,
      `POST /api/v2/workspaces/${workspaceId}/configuration-versions 201`,
    ]);
    expectInOrder(cli, applyFrom, [
      `GET /api/v2/organizations/${org}/workspaces/${cli.workspaceName} 200`,
      `GET /api/v2/runs/${run.id}?include=workspace 200`,
      `POST /api/v2/runs/${run.id}/actions/apply 202`,
      `GET /api/v2/applies/${run.relationships.apply.data.id} 200`,
    ]);
  });

  it('apply: a soft-mandatory failure, overridden with POST /policy-checks/:id/actions/override, then applied', async () => {
    const policy = await policyWithCode(admin, org, {
      name: unique('budget'),
      level: 'soft-mandatory',
      code: 'deny\n',
    });
    await setOf(admin, org, unique('guard'), [policy], { workspaces: [workspaceId], overridable: true });

    const { run } = await remotePlan({}, { 'auto-apply': false, 'is-destroy': false, 'save-plan': false });
    expectCliRun(run, workspaceId, expect.stringMatching(/^(policy_checking|policy_override)$/));
    const checks = run.relationships['policy-checks'].data as { id: string; type: string }[];
    expect(checks).toEqual([{ id: expect.stringMatching(idOf('polchk')), type: 'policy-checks' }]);
    // checkPolicy: wait while pending or queued, then the output, then the check.
    let check: JsonDoc;
    for (let i = 0; i < 300; i++) {
      check = (await cli.api('GET', `/policy-checks/${checks[0].id}`)).body.data;
      if (!['pending', 'queued'].includes(check.attributes.status)) break;
      await sleep(100);
    }
    const output = await cli.raw('GET', `/api/v2/policy-checks/${checks[0].id}/output`, {
      Authorization: `Bearer ${admin.token}`,
      Accept: 'application/vnd.api+json',
    });
    expect(output.status).toBe(200);
    expect(output.text).toContain('checked');
    check = (await cli.api('GET', `/policy-checks/${checks[0].id}`)).body.data;
    expect(check.attributes).toMatchObject({
      status: 'soft_failed',
      scope: expect.stringMatching(/^(organization|workspace)$/),
      actions: { 'is-overridable': true },
      permissions: { 'can-override': true },
    });
    const overridden = await cli.api('POST', `/policy-checks/${checks[0].id}/actions/override`);
    expect(overridden.status).toBe(200);
    expect(overridden.body.data.attributes.status).toBe('overridden');

    const ready = (await cli.api('GET', `/runs/${run.id}`)).body.data;
    expect(ready.attributes.actions['is-confirmable']).toBe(true);
    const confirm = await cli.api('POST', `/runs/${run.id}/actions/apply`, { comment: 'override ok' });
    expect(confirm.status).toBe(202);
    await cli.waitForRun(workspaceId, run.id);
    const { log } = await cli.readLog('applies', run.relationships.apply.data.id);
    expect(log).toContain('Apply complete!');
    expectCliRun((await cli.api('GET', `/runs/${run.id}`)).body.data, workspaceId, 'applied');
  });

  let pushed: Buffer;

  it('state push: lock, current state read, a pending version filled by two foreign PUTs, unlock', async () => {
    const from = cli.calls.length;
    const ws = await cli.readWorkspace();
    expectCliWorkspace(ws.body.data, cli);
    const lock = await cli.api('POST', `/workspaces/${workspaceId}/actions/lock`, {
      data: { type: '', attributes: { reason: 'Locked by Terraform' } },
    });
    expect(lock.status).toBe(200);
    lockedWorkspace = lock.body.data;
    expect(lockedWorkspace.attributes.locked).toBe(true);
    const current = await cli.api('GET', `/workspaces/${workspaceId}/current-state-version`);
    expect(current.status).toBe(200);
    const download = await cli.raw('GET', current.body.data.attributes['hosted-state-download-url'], {
      Authorization: `Bearer ${admin.token}`,
    });
    const held = JSON.parse(Buffer.from(download.text).toString('utf8'));
    expect(held.serial).toBe(current.body.data.attributes.serial);

    pushed = stateFile({
      lineage: held.lineage,
      serial: held.serial + 1,
      outputs: {
        endpoint: { value: 'db.internal:5432', type: 'string' },
        password: { value: 'hunter2', type: 'string', sensitive: true },
      },
    });
    const outputs = {
      endpoint: { sensitive: false, type: 'string', value: 'db.internal:5432' },
      password: { sensitive: true, type: 'string', value: 'hunter2' },
    };
    const created = await cli.api('POST', `/workspaces/${workspaceId}/state-versions`, {
      data: {
        type: 'state-versions',
        attributes: {
          serial: held.serial + 1,
          md5: md5(pushed),
          lineage: held.lineage,
          force: false,
          'json-state-outputs': b64(Buffer.from(JSON.stringify(outputs))),
        },
      },
    });
    expect(created.status).toBe(201);
    const sv = created.body.data;
    expect(sv.attributes).toMatchObject({
      status: 'pending',
      'hosted-state-upload-url': expect.stringMatching(URL_ABSOLUTE),
      'hosted-json-state-upload-url': expect.stringMatching(URL_ABSOLUTE),
    });
    const [raw, json] = await Promise.all([
      cli.foreignPut(sv.attributes['hosted-state-upload-url'], pushed),
      cli.foreignPut(
        sv.attributes['hosted-json-state-upload-url'],
        Buffer.from(JSON.stringify({ format_version: '1.0', values: { outputs } })),
      ),
    ]);
    expect([raw.status, json.status]).toEqual([200, 200]);
    const read = await cli.api('GET', `/state-versions/${sv.id}`);
    expect(read.body.data.attributes).toMatchObject({ status: 'finalized', serial: held.serial + 1 });
    const unlock = await cli.api('POST', `/workspaces/${workspaceId}/actions/unlock`);
    expect(unlock.status).toBe(200);
    expect(unlock.body.data.attributes.locked).toBe(false);
    expect(cli.since(from).map((c) => c.replace(/sv-\w+/, 'sv-…'))).toEqual([
      `GET /api/v2/organizations/${org}/workspaces/${cli.workspaceName} 200`,
      `POST /api/v2/workspaces/${workspaceId}/actions/lock 200`,
      `GET /api/v2/workspaces/${workspaceId}/current-state-version 200`,
      'GET /api/v2/state-versions/sv-…/download 200',
      `POST /api/v2/workspaces/${workspaceId}/state-versions 201`,
      'PUT <foreign> 200',
      'PUT <foreign> 200',
      'GET /api/v2/state-versions/sv-… 200',
      `POST /api/v2/workspaces/${workspaceId}/actions/unlock 200`,
    ]);
  });

  it('state pull: the current version and its download, the bytes pushed', async () => {
    const ws = await cli.readWorkspace();
    expect(ws.body.data.attributes.locked).toBe(false);
    const current = await cli.api('GET', `/workspaces/${workspaceId}/current-state-version`);
    expect(current.status).toBe(200);
    const link = current.body.data.attributes['hosted-state-download-url'] as string;
    const download = await cli.raw('GET', link, { Authorization: `Bearer ${admin.token}` });
    expect(download.status).toBe(200);
    expect(Buffer.from(download.text)).toEqual(pushed);
  });

  it('output: the current outputs with their detailed types, the sensitive value withheld', async () => {
    await cli.readWorkspace();
    let res = await cli.api('GET', `/workspaces/${workspaceId}/current-state-version-outputs`);
    // go-tfe retries a 503 (outputs still being read from the state).
    for (let i = 0; res.status === 503 && i < 30; i++) {
      await sleep(100);
      res = await cli.api('GET', `/workspaces/${workspaceId}/current-state-version-outputs`);
    }
    expect(res.status).toBe(200);
    const byName = Object.fromEntries((res.body.data as JsonDoc[]).map((o) => [o.attributes.name, o]));
    expect(byName.endpoint).toMatchObject({
      id: expect.stringMatching(idOf('wsout')),
      type: 'state-version-outputs',
      attributes: {
        name: 'endpoint',
        sensitive: false,
        value: 'db.internal:5432',
        'detailed-type': 'string',
      },
    });
    expect(byName.password.attributes).toMatchObject({
      name: 'password',
      sensitive: true,
      value: null,
      'detailed-type': 'string',
    });
  });
});
