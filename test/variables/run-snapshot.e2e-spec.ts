import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { Executor } from '../../src/executor/executor';
import { DEFAULT_POLICY_COMMANDS } from '../../src/executor/options';
import { Job, ProtocolClient } from '../../src/executor/protocol-client';
import { RunEntity } from '../../src/runs/entities/run.entity';
import { createAgentToken, createPool } from '../agent-pools/helpers';
import { Actor, bootstrapAdmin, createOrganization, unique } from '../helpers/fixtures';
import { startApp, TestApp } from '../helpers/test-app';
import { createRun, createVersion, upload } from '../runs/run-fixtures';
import { configuration, installTool } from '../runs/stand-in-tool';
import { createVar, SeenBodies, varBody } from './helpers';

jest.setTimeout(120_000);

const ENV_SECRET = 's3cr3t-env-T0ken';
const TF_SECRET = 'hunter2-terraform';

/** A protocol client that keeps every job it claimed. */
class RecordingClient extends ProtocolClient {
  readonly claimed: Job[] = [];

  override async claim(): Promise<Job | null> {
    const job = await super.claim();
    if (job) this.claimed.push(job);
    return job;
  }
}

describe('what a run receives: a snapshot of its variables, masked in its logs', () => {
  let t: TestApp;
  let admin: Actor;
  const seen = new SeenBodies();
  let toolDir: string;
  let tool: string;
  const executorLog: string[] = [];
  const stop = new AbortController();
  const running: Promise<void>[] = [];

  beforeAll(async () => {
    t = await startApp();
    admin = seen.watch(await bootstrapAdmin(t));
    toolDir = mkdtempSync(join(tmpdir(), 'plinth-snapshot-'));
    tool = installTool(toolDir);
  });
  afterAll(async () => {
    stop.abort();
    await Promise.all(running);
    await t.close();
    rmSync(toolDir, { recursive: true, force: true });
  });

  function startExecutor(token: string): RecordingClient {
    const client = new RecordingClient(t.origin, token);
    const executor = new Executor(
      {
        url: t.origin,
        token,
        name: 'snapshot-host',
        workDir: toolDir,
        maxJobs: 0,
        commands: { plan: `${tool} plan`, show: `${tool} show`, apply: `${tool} apply` },
        policyCommands: DEFAULT_POLICY_COMMANDS,
      },
      client,
      (line) => executorLog.push(line),
    );
    running.push(
      executor.run(stop.signal).catch((err: Error) => {
        executorLog.push(`executor stopped: ${err.message}`);
      }),
    );
    return client;
  }

  async function settled(runId: string, passing: string[]) {
    for (let i = 0; i < 300; i++) {
      const res = await admin.api.get(`/api/v2/runs/${runId}?include=plan,apply`).expect(200);
      if (!passing.includes(res.body.data.attributes.status)) return res.body;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(
      `run ${runId} never left ${passing.join('/')}; executor said:\n${executorLog.join('\n')}`,
    );
  }

  const logOf = async (
    doc: { included: { type: string; attributes: Record<string, string> }[] },
    type: string,
  ) => {
    const link = new URL(doc.included.find((r) => r.type === type)!.attributes['log-read-url'], t.origin);
    return (
      await request(t.origin)
        .get(link.pathname + link.search)
        .expect(200)
    ).text;
  };

  /** The run's sealed snapshot as its row keeps it (none: an empty list). */
  const snapshotRows = async (runId: string) => {
    const run = await t.app
      .get(DataSource)
      .getRepository(RunEntity)
      .findOne({ where: { id: runId }, select: { id: true, variableSnapshot: true } });
    return run?.variableSnapshot ? [run.variableSnapshot] : [];
  };

  /** An organization with a pool, its agent token, and a workspace of that pool (no auto-apply). */
  async function agentWorkspace(): Promise<{ org: string; ws: string; secret: string }> {
    const org = await createOrganization(admin);
    const pool = await createPool(admin, org, unique('pool'));
    const { secret } = await createAgentToken(admin, pool);
    const ws = (
      await admin.api
        .post(`/api/v2/organizations/${org}/workspaces`, {
          data: {
            type: 'workspaces',
            attributes: { name: unique('ws'), 'execution-mode': 'agent', 'auto-apply': false },
            relationships: { 'agent-pool': { data: { type: 'agent-pools', id: pool } } },
          },
        })
        .expect(201)
    ).body.data.id as string;
    return { org, ws, secret };
  }

  async function plannedRun(ws: string): Promise<string> {
    const cv = await createVersion(admin, ws, { 'auto-queue-runs': false });
    await upload(t, cv.uploadUrl, configuration([['create']])).expect(200);
    const run = await createRun(admin, ws);
    expect((await settled(run.id, ['pending', 'plan_queued', 'planning'])).data.attributes.status).toBe(
      'planned',
    );
    return run.id;
  }

  it('plans and applies with the variables fixed at plan, masks sensitive values, and forgets them after', async () => {
    const { ws, secret } = await agentWorkspace();
    const region = await createVar(admin, ws, { key: 'region', value: 'eu-west-1', category: 'terraform' });
    await createVar(admin, ws, { key: 'size', value: '3', category: 'terraform', hcl: true });
    await createVar(admin, ws, { key: 'password', value: TF_SECRET, category: 'terraform', sensitive: true });
    const stage = await createVar(admin, ws, { key: 'ECHO_STAGE', value: 'blue', category: 'env' });
    await createVar(admin, ws, { key: 'ECHO_TOKEN', value: ENV_SECRET, category: 'env', sensitive: true });
    const cv = await createVersion(admin, ws, { 'auto-queue-runs': false });
    await upload(t, cv.uploadUrl, configuration([['create']])).expect(200);
    const client = startExecutor(secret);

    const run = await createRun(admin, ws, { message: 'with variables' });
    const planned = await settled(run.id, ['pending', 'plan_queued', 'planning']);
    expect(planned.data.attributes.status).toBe('planned');
    // Stored sealed: the row holds neither sensitive value in clear.
    const rows = await snapshotRows(run.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).not.toContain(TF_SECRET);
    expect(rows[0]).not.toContain(ENV_SECRET);
    expect(rows[0]).not.toContain('eu-west-1');

    // Changed between plan and apply: the apply must not see it.
    await admin.api
      .patch(`/api/v2/workspaces/${ws}/vars/${region.id}`, varBody({ value: 'us-east-1' }, region.id))
      .expect(200);
    await admin.api
      .patch(`/api/v2/workspaces/${ws}/vars/${stage.id}`, varBody({ value: 'green' }, stage.id))
      .expect(200);
    await createVar(admin, ws, { key: 'ECHO_LATE', value: 'too-late', category: 'env' });
    await admin.api.post(`/api/v2/runs/${run.id}/actions/apply`, { comment: 'go' }).expect(202);
    const applied = await settled(run.id, ['planned', 'confirmed', 'apply_queued', 'applying']);
    expect(applied.data.attributes.status).toBe('applied');

    const fixed = [
      { key: 'region', value: 'eu-west-1', category: 'terraform', hcl: false, sensitive: false },
      { key: 'size', value: '3', category: 'terraform', hcl: true, sensitive: false },
      { key: 'password', value: TF_SECRET, category: 'terraform', hcl: false, sensitive: true },
      { key: 'ECHO_STAGE', value: 'blue', category: 'env', hcl: false, sensitive: false },
      { key: 'ECHO_TOKEN', value: ENV_SECRET, category: 'env', hcl: false, sensitive: true },
    ];
    const byKey = (a: { key: string }, b: { key: string }) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
    expect(client.claimed.map((j) => j.kind)).toEqual(['plan', 'apply']);
    for (const job of client.claimed) {
      expect([...(job.variables ?? [])].sort(byKey)).toEqual([...fixed].sort(byKey));
    }

    const planLog = await logOf(planned, 'plans');
    const applyLog = await logOf(applied, 'applies');
    for (const log of [planLog, applyLog]) {
      expect(log).toMatch(/tfvars: .*region = "eu-west-1"/);
      expect(log).toContain('size = 3');
      expect(log).toContain('password = "***"');
      expect(log).toContain('env ECHO_STAGE=blue\n');
      expect(log).toContain('env ECHO_TOKEN=***\n');
      expect(log).not.toContain(ENV_SECRET);
      expect(log).not.toContain(TF_SECRET);
      expect(log).not.toContain('ECHO_LATE');
      expect(log).not.toContain('us-east-1');
    }
    expect(applyLog).toContain('Apply complete! Resources: 1 added, 0 changed, 0 destroyed.');
    // The executor's own environment never received them.
    expect(process.env.ECHO_STAGE).toBeUndefined();

    // The run ended: its snapshot is gone.
    expect(await snapshotRows(run.id)).toHaveLength(0);

    // Every answer this test read, and the lists that would show them, hold no sensitive value.
    await admin.api.get(`/api/v2/workspaces/${ws}/vars`).expect(200);
    await admin.api.get(`/api/v2/workspaces/${ws}/all-vars`).expect(200);
    await admin.api.get(`/api/v2/runs/${run.id}?include=plan,apply`).expect(200);
    expect(seen.containing(ENV_SECRET)).toEqual([]);
    expect(seen.containing(TF_SECRET)).toEqual([]);
    expect(seen.bodies.length).toBeGreaterThan(10);
  });

  it("drops a run's snapshot when the run is discarded, and with its organization", async () => {
    const { org, ws, secret } = await agentWorkspace();
    await createVar(admin, ws, { key: 'ECHO_TOKEN', value: ENV_SECRET, category: 'env', sensitive: true });
    startExecutor(secret);

    const discarded = await plannedRun(ws);
    expect(await snapshotRows(discarded)).toHaveLength(1);
    await admin.api.post(`/api/v2/runs/${discarded}/actions/discard`, {}).expect(202);
    expect(await snapshotRows(discarded)).toHaveLength(0);

    const kept = await plannedRun(ws);
    expect(await snapshotRows(kept)).toHaveLength(1);
    await admin.api.delete(`/api/v2/organizations/${org}`).expect(204);
    expect(await snapshotRows(kept)).toHaveLength(0);
  });
});
