import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Executor, PENDING_REPORTS_DIR } from '../../src/executor/executor';
import { DEFAULT_POLICY_COMMANDS } from '../../src/executor/options';
import { Job, ProtocolClient, ProtocolError } from '../../src/executor/protocol-client';
import { createAgentToken, createPool } from '../agent-pools/helpers';
import { Actor, bootstrapAdmin, createOrganization, unique } from '../helpers/fixtures';
import { startApp, TestApp } from '../helpers/test-app';
import { createRun, createVersion, upload } from './run-fixtures';
import { download } from '../state-versions/state-fixtures';
import { configuration, installTool } from './stand-in-tool';

jest.setTimeout(120_000);

/** Records the state uploads of the jobs it claims, and can get in their way. */
class StateClient extends ProtocolClient {
  readonly stateUploads: (number | 'lost')[] = [];
  /** Runs before each state upload is sent. */
  beforeStateUpload?: () => Promise<void>;
  /** The next state upload reaches Plinth, but the executor hears nothing back. */
  loseNextAnswer = false;
  private readonly stateLinks = new Set<string>();

  /** Claimed, or handed over with a report's answer: its state link is watched. */
  protected override received(job: Job): Job {
    const link = job.links['state-upload'];
    if (link) this.stateLinks.add(link);
    return job;
  }

  override async upload(url: string, body: Buffer | string, timed = false): Promise<void> {
    if (!this.stateLinks.has(url)) return super.upload(url, body, timed);
    await this.beforeStateUpload?.();
    try {
      await super.upload(url, body, timed);
    } catch (err) {
      this.stateUploads.push(err instanceof ProtocolError ? err.status : 0);
      throw err;
    }
    if (this.loseNextAnswer) {
      this.loseNextAnswer = false;
      this.stateUploads.push('lost');
      throw new Error('socket hang up');
    }
    this.stateUploads.push(200);
  }
}

interface Version {
  id: string;
  attributes: { serial: number; status: string; 'resources-processed': boolean };
  relationships: { run: { data: { id: string } | null } };
}

/**
 * The reference executor with the stand-in tool against the real app: each plan and apply finds
 * the current state where the tool's local backend reads it, and the state an apply leaves,
 * applied or failed half-way, becomes a version naming its run before the run's outcome.
 */
describe('the reference executor hands state over', () => {
  let t: TestApp;
  let admin: Actor;
  let org: string;
  let dir: string;
  let tool: string;
  const stops: AbortController[] = [];
  const running: Promise<void>[] = [];
  const executorLog: string[] = [];

  beforeAll(async () => {
    t = await startApp();
    admin = await bootstrapAdmin(t);
    org = await createOrganization(admin);
    dir = mkdtempSync(join(tmpdir(), 'plinth-state-handoff-'));
    tool = installTool(dir);
  });
  afterEach(async () => {
    for (const stop of stops.splice(0)) stop.abort();
    await Promise.all(running.splice(0));
  });
  afterAll(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A pool, an executor of it, and an agent-mode workspace of it with the given configuration. */
  async function setUp(
    archive: Buffer,
  ): Promise<{ client: StateClient; ws: string; name: string; workDir: string }> {
    const pool = await createPool(admin, org, unique('pool'));
    const { secret } = await createAgentToken(admin, pool);
    const name = unique('ws');
    const res = await admin.api
      .post(`/api/v2/organizations/${org}/workspaces`, {
        data: {
          type: 'workspaces',
          attributes: { name, 'execution-mode': 'agent', 'auto-apply': true },
          relationships: { 'agent-pool': { data: { type: 'agent-pools', id: pool } } },
        },
      })
      .expect(201);
    const ws = res.body.data.id as string;
    const cv = await createVersion(admin, ws, { 'auto-queue-runs': false });
    await upload(t, cv.uploadUrl, archive).expect(200);
    const workDir = mkdtempSync(join(dir, 'work-'));
    const client = new StateClient(t.origin, secret);
    const stop = new AbortController();
    const executor = new Executor(
      {
        url: t.origin,
        token: secret,
        name: unique('host'),
        workDir,
        maxJobs: 0,
        commands: { plan: `${tool} plan`, show: `${tool} show`, apply: `${tool} apply` },
        policyCommands: DEFAULT_POLICY_COMMANDS,
      },
      client,
      (line) => executorLog.push(line),
      { baseMs: 20, maxMs: 200 },
    );
    stops.push(stop);
    running.push(
      executor.run(stop.signal).catch((err: Error) => void executorLog.push(`stopped: ${err.message}`)),
    );
    return { client, ws, name, workDir };
  }

  async function until(what: string, check: () => Promise<boolean> | boolean): Promise<void> {
    for (let i = 0; i < 300; i++) {
      if (await check()) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`${what} never happened; the executor said:\n${executorLog.join('\n')}`);
  }

  const runOf = async (id: string) => (await admin.api.get(`/api/v2/runs/${id}`).expect(200)).body.data;
  const ended = (id: string) => async () =>
    ['applied', 'errored', 'planned_and_finished'].includes((await runOf(id)).attributes.status);
  const versionsOf = async (name: string): Promise<Version[]> =>
    (
      await admin.api
        .get(`/api/v2/state-versions?filter[organization][name]=${org}&filter[workspace][name]=${name}`)
        .expect(200)
    ).body.data;
  const stateOf = async (versionId: string) => {
    const res = await download(t, admin, `/api/v2/state-versions/${versionId}/download`).expect(200);
    return JSON.parse((res.body as Buffer).toString('utf8'));
  };
  const logOf = async (runId: string, phase: 'plan' | 'apply') => {
    const run = await admin.api.get(`/api/v2/runs/${runId}?include=${phase}`).expect(200);
    const link = run.body.included[0].attributes['log-read-url'] as string;
    const res = await admin.api.get(new URL(link).pathname).buffer(true).expect(200);
    return Buffer.isBuffer(res.body) ? res.body.toString('utf8') : res.text;
  };
  const lockOf = async (ws: string) =>
    (await admin.api.get(`/api/v2/workspaces/${ws}`).expect(200)).body.data.relationships['locked-by'];

  it('starts each run from the state the one before left, and names the run on each version', async () => {
    const { client, ws, name } = await setUp(configuration([['create'], ['create']]));
    const first = await createRun(admin, ws, { message: 'first' });
    await until('the first run ends', ended(first.id));
    expect((await runOf(first.id)).attributes.status).toBe('applied');
    expect(await logOf(first.id, 'plan')).toContain('No state yet');

    const second = await createRun(admin, ws, { message: 'second' });
    await until('the second run ends', ended(second.id));
    // The stand-in's apply refuses a plan made from another state than the one it finds.
    expect((await runOf(second.id)).attributes.status).toBe('applied');
    expect(client.stateUploads).toEqual([200, 200]);

    const [newer, older] = await versionsOf(name);
    expect(older.relationships.run.data?.id).toBe(first.id);
    expect(newer.relationships.run.data?.id).toBe(second.id);
    expect([older.attributes.serial, newer.attributes.serial]).toEqual([1, 2]);
    const [olderState, newerState] = [await stateOf(older.id), await stateOf(newer.id)];
    expect(newerState.lineage).toBe(olderState.lineage);
    expect(await logOf(second.id, 'plan')).toContain(`Refreshed state serial 1 of ${olderState.lineage}`);
    expect(newerState.resources).toHaveLength(4);
    const current = await admin.api.get(`/api/v2/workspaces/${ws}/current-state-version-outputs`).expect(200);
    expect(current.body.data.map((o: { attributes: object }) => o.attributes)).toEqual([
      expect.objectContaining({ name: 'resources', value: 4, sensitive: false }),
    ]);
    expect(await lockOf(ws)).toEqual({ data: null });
  });

  it('keeps the state an apply that failed half-way left, and errors the run', async () => {
    const { client, ws, name } = await setUp(configuration([['create'], ['create']], { failApply: true }));
    const run = await createRun(admin, ws);
    await until('the run ends', ended(run.id));
    expect((await runOf(run.id)).attributes).toMatchObject({
      status: 'errored',
      'error-message': 'apply failed (exit code 1)',
    });
    expect(client.stateUploads).toEqual([200]);
    const versions = await versionsOf(name);
    expect(versions).toHaveLength(1);
    expect(versions[0]).toMatchObject({
      attributes: { serial: 1, status: 'finalized', 'resources-processed': true },
      relationships: { run: { data: { id: run.id, type: 'runs' } } },
    });
    // The one change the apply made before it failed is in the kept state.
    expect((await stateOf(versions[0].id)).resources).toHaveLength(1);
    expect(await lockOf(ws)).toEqual({ data: null });
  });

  it('sends the state again when its answer was lost, and Plinth keeps it once', async () => {
    const { client, ws, name, workDir } = await setUp(configuration([['create']]));
    client.loseNextAnswer = true;
    const run = await createRun(admin, ws);
    await until('the run ends', ended(run.id));
    expect((await runOf(run.id)).attributes.status).toBe('applied');
    expect(client.stateUploads).toEqual(['lost', 200]);
    const versions = await versionsOf(name);
    expect(versions.map((v) => [v.attributes.serial, v.relationships.run.data?.id])).toEqual([[1, run.id]]);
    await until(
      'the reports leave the disk',
      () => readdirSync(join(workDir, PENDING_REPORTS_DIR)).length === 0,
    );
  });

  it('errors the run and keeps the state on disk when Plinth refuses it for good', async () => {
    const { client, ws, name, workDir } = await setUp(configuration([['create']]));
    // Under the running apply an administrator forces the lock open and a user takes it.
    client.beforeStateUpload = async () => {
      await admin.api.post(`/api/v2/workspaces/${ws}/actions/force-unlock`).expect(200);
      await admin.api.post(`/api/v2/workspaces/${ws}/actions/lock`).expect(200);
    };
    const run = await createRun(admin, ws);
    await until('the run ends', ended(run.id));
    expect(client.stateUploads).toEqual([409]);
    const pending = () => readdirSync(join(workDir, PENDING_REPORTS_DIR));
    await until('the report leaves the disk', () => !pending().some((f) => f.endsWith('.json')));
    const kept = pending();
    expect(kept).toEqual([expect.stringMatching(/^job-[A-Za-z0-9]+\.refused\.tfstate$/)]);
    const file = join(workDir, PENDING_REPORTS_DIR, kept[0]);
    const message = (await runOf(run.id)).attributes['error-message'] as string;
    expect(message.startsWith('Plinth refused the state the apply left (PUT http://127.0.0.1:')).toBe(true);
    expect(message.endsWith(` answered 409); it is kept at ${file}`)).toBe(true);
    expect(JSON.parse(readFileSync(file, 'utf8')).serial).toBe(1);
    expect(await versionsOf(name)).toEqual([]);
    expect(existsSync(file)).toBe(true);
    await admin.api.post(`/api/v2/workspaces/${ws}/actions/unlock`).expect(200);
  });
});
