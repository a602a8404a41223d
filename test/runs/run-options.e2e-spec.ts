import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { Executor } from '../../src/executor/executor';
import { DEFAULT_POLICY_COMMANDS } from '../../src/executor/options';
import { ProtocolClient } from '../../src/executor/protocol-client';
import { createAgentToken, createPool } from '../agent-pools/helpers';
import { Actor, bootstrapAdmin, createOrganization, unique } from '../helpers/fixtures';
import { startApp, TestApp } from '../helpers/test-app';
import { createRun, createVersion, DEFAULT_RUN_OPTIONS_WIRE, runBody, upload } from './run-fixtures';
import { configuration, installTool } from './stand-in-tool';

jest.setTimeout(120_000);

/** Three resources to create: r0, r1, r2. */
const THREE = [['create'], ['create'], ['create']];

interface Resource {
  id: string;
  type: string;
  attributes: Record<string, unknown> & { status: string; 'log-read-url'?: string };
  relationships: Record<string, { data: { id: string; type: string } | null }>;
}
interface Doc {
  data: Resource;
  included?: Resource[];
}

describe('run options and saved plans, through the reference executor', () => {
  let t: TestApp;
  let admin: Actor;
  let toolDir: string;
  let org: string;
  let pool: string;
  const executorLog: string[] = [];
  const stop = new AbortController();
  let running: Promise<void> | undefined;

  beforeAll(async () => {
    t = await startApp();
    admin = await bootstrapAdmin(t);
    toolDir = mkdtempSync(join(tmpdir(), 'plinth-options-'));
    const tool = installTool(toolDir);
    org = await createOrganization(admin);
    pool = await createPool(admin, org, unique('pool'));
    const { secret } = await createAgentToken(admin, pool);
    const executor = new Executor(
      {
        url: t.origin,
        token: secret,
        name: 'options-host',
        workDir: toolDir,
        maxJobs: 0,
        toolVersion: '1.9.5',
        // The plan passes the run's planning flags on, as the default command does.
        commands: { plan: `${tool} plan "$@"`, show: `${tool} show`, apply: `${tool} apply` },
        policyCommands: DEFAULT_POLICY_COMMANDS,
      },
      new ProtocolClient(t.origin, secret),
      (line) => executorLog.push(line),
    );
    running = executor.run(stop.signal).catch((err: Error) => {
      executorLog.push(`executor stopped: ${err.message}`);
    });
  });
  afterAll(async () => {
    stop.abort();
    await running;
    await t.close();
    rmSync(toolDir, { recursive: true, force: true });
  });

  const get = async (path: string): Promise<Doc> => (await admin.api.get(path).expect(200)).body as Doc;

  /** Reads the run until it has left the `passing` states; bounded, so a stuck run fails the test. */
  async function settled(runId: string, passing: string[]): Promise<Doc> {
    for (let i = 0; i < 300; i++) {
      const doc = await get(`/api/v2/runs/${runId}?include=plan,apply`);
      if (!passing.includes(doc.data.attributes.status)) return doc;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(
      `run ${runId} never left ${passing.join('/')}; executor said:\n${executorLog.join('\n')}`,
    );
  }
  const PLANNING = ['pending', 'plan_queued', 'planning'];
  const APPLYING = ['apply_queued', 'applying'];

  const included = (doc: Doc, type: string) => doc.included!.find((r) => r.type === type)!;
  /** A phase's log, read through its signed link without Authorization, markers stripped. */
  async function logOf(doc: Doc, type: 'plans' | 'applies'): Promise<string> {
    const url = new URL(included(doc, type).attributes['log-read-url']!);
    const res = await request(t.origin)
      .get(url.pathname + url.search)
      .expect(200);
    const STX = String.fromCharCode(2);
    const ETX = String.fromCharCode(3);
    return res.text.slice(res.text.startsWith(STX) ? 1 : 0, res.text.endsWith(ETX) ? -1 : undefined);
  }

  async function workspace(): Promise<string> {
    const res = await admin.api
      .post(`/api/v2/organizations/${org}/workspaces`, {
        data: {
          type: 'workspaces',
          attributes: { name: unique('ws'), 'execution-mode': 'agent', 'auto-apply': false },
          relationships: { 'agent-pool': { data: { type: 'agent-pools', id: pool } } },
        },
      })
      .expect(201);
    return res.body.data.id;
  }

  async function uploaded(ws: string, changes: string[][], attributes: Record<string, unknown> = {}) {
    const cv = await createVersion(admin, ws, { 'auto-queue-runs': false, ...attributes });
    await upload(t, cv.uploadUrl, configuration(changes)).expect(200);
    return cv.id;
  }

  const locked = async (ws: string) => (await get(`/api/v2/workspaces/${ws}`)).data.attributes.locked;
  const currentRun = async (ws: string) =>
    (await get(`/api/v2/workspaces/${ws}`)).data.relationships['current-run'].data?.id ?? null;

  describe('checking what POST /runs is given', () => {
    let ws: string;
    beforeAll(async () => {
      ws = await workspace();
      await uploaded(ws, THREE);
    });

    const refused = async (attributes: Record<string, unknown>) =>
      (await admin.api.post('/api/v2/runs', runBody(ws, attributes)).expect(422)).body;

    it('answers a value of the wrong type with a 422 pointing at it', async () => {
      expect(await refused({ refresh: 'no', 'target-addrs': 'aws_instance.web', 'save-plan': 1 })).toEqual({
        errors: [
          {
            status: '422',
            title: 'invalid attribute',
            detail: 'Refresh must be a boolean value',
            source: { pointer: '/data/attributes/refresh' },
          },
          {
            status: '422',
            title: 'invalid attribute',
            detail: 'Target addrs must be an array',
            source: { pointer: '/data/attributes/target-addrs' },
          },
          {
            status: '422',
            title: 'invalid attribute',
            detail: 'Save plan must be a boolean value',
            source: { pointer: '/data/attributes/save-plan' },
          },
        ],
      });
    });

    it('points at each bad address', async () => {
      const body = await refused({ 'target-addrs': ['null_resource.r0', 7, ''], 'replace-addrs': [null] });
      expect(
        body.errors.map((e: { detail: string; source: { pointer: string } }) => [e.detail, e.source.pointer]),
      ).toEqual([
        ['Target addrs entries must be strings', '/data/attributes/target-addrs/1'],
        ["Target addrs entries can't be blank", '/data/attributes/target-addrs/2'],
        ['Replace addrs entries must be strings', '/data/attributes/replace-addrs/0'],
      ]);
    });

    it.each([
      [{ 'refresh-only': true, 'is-destroy': true }, '/data/attributes/refresh-only'],
      [{ 'refresh-only': true, refresh: false }, '/data/attributes/refresh-only'],
      [{ 'refresh-only': true, 'replace-addrs': ['null_resource.r0'] }, '/data/attributes/replace-addrs'],
      [{ 'terraform-version': '1.9.5' }, '/data/attributes/terraform-version'],
      [{ 'save-plan': true, 'plan-only': true }, '/data/attributes/save-plan'],
    ])('refuses options that cannot go together: %j', async (attributes, pointer) => {
      const body = await refused(attributes);
      expect(body.errors).toHaveLength(1);
      expect(body.errors[0]).toMatchObject({ status: '422', source: { pointer } });
    });

    it('keeps a plan-only run’s tool version and hands it on', async () => {
      const run = await createRun(admin, ws, { 'plan-only': true, 'terraform-version': '1.10.0' });
      const done = await settled(run.id, PLANNING);
      expect(done.data.attributes).toMatchObject({
        status: 'planned_and_finished',
        'plan-only': true,
        'terraform-version': '1.10.0',
      });
    });
  });

  it('hands targets, replacements and refresh=false to the tool, which plans only the targets', async () => {
    const ws = await workspace();
    await uploaded(ws, THREE);
    const attributes = {
      refresh: false,
      'target-addrs': ['null_resource.r0', 'null_resource.r2', 'module.m.thing["a b"]'],
      'replace-addrs': ['null_resource.r1'],
    };
    const run = await createRun(admin, ws, attributes);
    const planned = await settled(run.id, PLANNING);
    expect(planned.data.attributes).toMatchObject({
      ...DEFAULT_RUN_OPTIONS_WIRE,
      ...attributes,
      status: 'planned',
      'has-changes': true,
    });
    expect(included(planned, 'plans').attributes['resource-additions']).toBe(2);
    const planLog = await logOf(planned, 'plans');
    // Each flag one argument, the address with a space and quotes included.
    expect(planLog).toContain(
      'flags: ["-refresh=false","-target=null_resource.r0","-target=null_resource.r2",' +
        '"-target=module.m.thing[\\"a b\\"]","-replace=null_resource.r1"]\n',
    );
    expect(planLog).toContain(' (with -refresh=false -target=null_resource.r0 ');

    await admin.api.post(`/api/v2/runs/${run.id}/actions/apply`).expect(202);
    const applied = await settled(run.id, ['planned', ...APPLYING]);
    expect(applied.data.attributes.status).toBe('applied');
    // The CLI drops the first three lines of an apply log: the tool's banner, as the real service writes it.
    const lines = (await logOf(applied, 'applies')).split('\n');
    expect(lines.slice(0, 3)).toEqual([
      'Terraform v1.9.5',
      expect.stringMatching(/^on [a-z0-9]+_[a-z0-9]+$/),
      'Initializing plugins and modules...',
    ]);
    expect(lines[3]).toMatch(/^\$ apply: /);
    expect(lines).toContain('Apply complete! Resources: 2 added, 0 changed, 0 destroyed.');
  });

  it('hands -destroy and -refresh-only to the tool', async () => {
    const ws = await workspace();
    await uploaded(ws, THREE);
    const first = await createRun(admin, ws, { 'auto-apply': true });
    expect((await settled(first.id, [...PLANNING, ...APPLYING])).data.attributes.status).toBe('applied');

    const refresh = await createRun(admin, ws, { 'refresh-only': true });
    const refreshed = await settled(refresh.id, PLANNING);
    expect(refreshed.data.attributes).toMatchObject({ status: 'planned_and_finished', 'refresh-only': true });
    expect(await logOf(refreshed, 'plans')).toContain('flags: ["-refresh-only"]\n');

    const destroy = await createRun(admin, ws, { 'is-destroy': true });
    const destroying = await settled(destroy.id, PLANNING);
    expect(destroying.data.attributes).toMatchObject({ status: 'planned', 'is-destroy': true });
    expect(included(destroying, 'plans').attributes['resource-destructions']).toBe(3);
    expect(await logOf(destroying, 'plans')).toContain('flags: ["-destroy"]\n');
    await admin.api.post(`/api/v2/runs/${destroy.id}/actions/discard`).expect(202);
  });

  describe('saved plans', () => {
    it('plans without the lock, waits in planned_and_saved, and applies once the workspace is free', async () => {
      const ws = await workspace();
      await uploaded(ws, THREE);
      const saved = await createRun(admin, ws, { 'save-plan': true, 'auto-apply': true });
      const doc = await settled(saved.id, PLANNING);
      expect(doc.data.attributes).toMatchObject({
        status: 'planned_and_saved',
        'save-plan': true,
        'has-changes': true,
        actions: {
          'is-cancelable': false,
          'is-confirmable': true,
          'is-discardable': true,
          'is-force-cancelable': false,
        },
      });
      expect(Object.keys(doc.data.attributes['status-timestamps'] as object)).toEqual([
        'plan-queueable-at',
        'plan-queued-at',
        'planning-at',
        'planned-and-saved-at',
      ]);
      // It holds neither the lock nor the queue, nor is it the current run, until applied.
      expect(await locked(ws)).toBe(false);
      expect(await currentRun(ws)).toBeNull();
      const other = await createRun(admin, ws);
      expect((await settled(other.id, PLANNING)).data.attributes.status).toBe('planned');
      expect(await locked(ws)).toBe(true);
      expect(await currentRun(ws)).toBe(other.id);
      const busy = await admin.api.post(`/api/v2/runs/${saved.id}/actions/apply`).expect(409);
      expect(busy.body.errors[0].detail).toBe(
        'The saved plan cannot be applied now: another run holds the workspace, or it is locked',
      );
      expect((await get(`/api/v2/runs/${saved.id}`)).data.attributes.status).toBe('planned_and_saved');

      await admin.api.post(`/api/v2/runs/${other.id}/actions/discard`).expect(202);
      expect(await locked(ws)).toBe(false);
      await admin.api
        .post(`/api/v2/runs/${saved.id}/actions/apply`, { comment: 'ship the saved plan' })
        .expect(202);
      const applied = await settled(saved.id, ['planned_and_saved', ...APPLYING]);
      expect(applied.data.attributes.status).toBe('applied');
      expect(included(applied, 'applies').attributes['resource-additions']).toBe(3);
      expect(await logOf(applied, 'applies')).toContain('Apply complete! Resources: 3 added');
      expect(await locked(ws)).toBe(false);
      expect(await currentRun(ws)).toBe(saved.id);
      const state = await get(`/api/v2/workspaces/${ws}/current-state-version`);
      expect(state.data.attributes.serial).toBe(1);
    });

    it('discards a saved plan without touching the workspace', async () => {
      const ws = await workspace();
      await uploaded(ws, THREE);
      const saved = await createRun(admin, ws, { 'save-plan': true });
      expect((await settled(saved.id, PLANNING)).data.attributes.status).toBe('planned_and_saved');
      await admin.api.post(`/api/v2/runs/${saved.id}/actions/discard`).expect(202);
      const discarded = await get(`/api/v2/runs/${saved.id}`);
      expect(discarded.data.attributes).toMatchObject({
        status: 'discarded',
        actions: { 'is-confirmable': false, 'is-discardable': false },
      });
      expect(await locked(ws)).toBe(false);
      await admin.api.post(`/api/v2/runs/${saved.id}/actions/apply`).expect(409);
    });

    it('finishes a saved plan without changes, unless an empty apply is allowed', async () => {
      const ws = await workspace();
      await uploaded(ws, []);
      const empty = await createRun(admin, ws, { 'save-plan': true });
      expect((await settled(empty.id, PLANNING)).data.attributes.status).toBe('planned_and_finished');
      const allowed = await createRun(admin, ws, { 'save-plan': true, 'allow-empty-apply': true });
      const doc = await settled(allowed.id, PLANNING);
      expect(doc.data.attributes).toMatchObject({
        status: 'planned_and_saved',
        'has-changes': false,
        'allow-empty-apply': true,
      });
      await admin.api.post(`/api/v2/runs/${allowed.id}/actions/apply`).expect(202);
      expect((await settled(allowed.id, ['planned_and_saved', ...APPLYING])).data.attributes.status).toBe(
        'applied',
      );
    });
  });

  it('uses a provisional configuration version only once a run of it applied', async () => {
    const ws = await workspace();
    const current = await uploaded(ws, THREE);
    const provisional = await uploaded(ws, [['create']], { provisional: true });
    expect((await get(`/api/v2/configuration-versions/${provisional}`)).data.attributes.provisional).toBe(
      true,
    );
    // A run naming no version takes the workspace's configuration, not the provisional one.
    const plain = await createRun(admin, ws);
    expect((await get(`/api/v2/runs/${plain.id}`)).data.relationships['configuration-version'].data!.id).toBe(
      current,
    );
    await settled(plain.id, PLANNING);
    await admin.api.post(`/api/v2/runs/${plain.id}/actions/discard`).expect(202);

    const run = await createRun(admin, ws, { 'save-plan': true }, provisional);
    expect((await settled(run.id, PLANNING)).data.attributes.status).toBe('planned_and_saved');
    expect((await get(`/api/v2/configuration-versions/${provisional}`)).data.attributes.provisional).toBe(
      true,
    );
    await admin.api.post(`/api/v2/runs/${run.id}/actions/apply`).expect(202);
    expect((await settled(run.id, ['planned_and_saved', ...APPLYING])).data.attributes.status).toBe(
      'applied',
    );
    expect((await get(`/api/v2/configuration-versions/${provisional}`)).data.attributes.provisional).toBe(
      false,
    );
    const next = await createRun(admin, ws, { 'plan-only': true });
    await settled(next.id, PLANNING);
    expect((await get(`/api/v2/runs/${next.id}`)).data.relationships['configuration-version'].data!.id).toBe(
      provisional,
    );
  });
});
