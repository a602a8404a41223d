import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Executor, PENDING_REPORTS_DIR } from '../../src/executor/executor';
import { DEFAULT_POLICY_COMMANDS } from '../../src/executor/options';
import { ProtocolClient } from '../../src/executor/protocol-client';
import { createAgentToken, createPool } from '../agent-pools/helpers';
import { Actor, bootstrapAdmin, createOrganization, unique } from '../helpers/fixtures';
import { FlakyProxy } from '../helpers/flaky-proxy';
import { freePort, ServerProcess } from '../helpers/server-process';
import { createMysqlDatabase, startApp, TestApp, usesMysql } from '../helpers/test-app';
import { download } from '../state-versions/state-fixtures';
import { createRun, createVersion, upload } from './run-fixtures';
import { configuration, installTool } from './stand-in-tool';

jest.setTimeout(180_000);

/** The purpose a signed link's token names (its payload is base64url JSON before the MAC). */
function linkPurpose(path: string | undefined): string | null {
  const token = /^\/uploads\/([^/?]+)/.exec(path ?? '')?.[1];
  if (!token) return null;
  try {
    return (
      (JSON.parse(Buffer.from(token.split('.')[0], 'base64url').toString('utf8')) as { p?: string }).p ?? null
    );
  } catch {
    return null;
  }
}

/**
 * The reference executor, as its own process, is killed with SIGKILL after the state its apply
 * left reached Plinth and before the run's report did. The next executor process sends what the
 * first kept on disk: the state once more (Plinth answers with the version it made), then the
 * report. The state is kept once and the run's outcome is recorded once.
 */
describe('kill -9 of the executor between the state upload and the report', () => {
  let t: TestApp;
  let admin: Actor;
  let dir: string;
  const processes: ServerProcess[] = [];

  beforeAll(async () => {
    t = await startApp();
    admin = await bootstrapAdmin(t);
    dir = mkdtempSync(join(tmpdir(), 'plinth-state-kill-'));
  });
  afterAll(async () => {
    for (const p of processes) await p.dispose();
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps the state once and records the outcome once after a restart', async () => {
    const org = await createOrganization(admin);
    const pool = await createPool(admin, org, unique('pool'));
    const { secret } = await createAgentToken(admin, pool);
    const name = unique('ws');
    const created = await admin.api
      .post(`/api/v2/organizations/${org}/workspaces`, {
        data: {
          type: 'workspaces',
          attributes: { name, 'execution-mode': 'agent', 'auto-apply': true },
          relationships: { 'agent-pool': { data: { type: 'agent-pools', id: pool } } },
        },
      })
      .expect(201);
    const ws = created.body.data.id as string;
    const cv = await createVersion(admin, ws, { 'auto-queue-runs': false });
    await upload(t, cv.uploadUrl, configuration([['create'], ['create']])).expect(200);

    // Once the state upload has gone through, the network is down for the executor until it is killed.
    const proxy = new FlakyProxy(t.origin);
    await proxy.start();
    let phase: 'open' | 'cut' | 'restored' = 'open';
    proxy.decide = (req) => {
      if (phase === 'cut') return 'drop';
      if (phase === 'open' && req.method === 'PUT' && linkPurpose(req.url) === 'run-state-upload') {
        phase = 'cut';
        return 'lose-answer';
      }
      return 'forward';
    };

    const tool = installTool(dir);
    const workDir = mkdtempSync(join(dir, 'work-'));
    const env = {
      PLINTH_URL: proxy.origin,
      PLINTH_AGENT_TOKEN: secret,
      PLINTH_WORK_DIR: workDir,
      PLINTH_PLAN_COMMAND: `${tool} plan`,
      PLINTH_SHOW_COMMAND: `${tool} show`,
      PLINTH_APPLY_COMMAND: `${tool} apply`,
    };
    try {
      const first = await ServerProcess.start('src/executor/main.ts', env);
      processes.push(first);
      await first.waitForLine(/registered as agent-/);
      const run = await createRun(admin, ws);

      const stateUpload = () => proxy.seen.find((r) => r.mode === 'lose-answer');
      await until(first, 'the state upload reaches Plinth', () => stateUpload()?.upstream !== undefined);
      expect(stateUpload()?.upstream).toBe(200);
      // Plinth has the state; the run waits for its report.
      const before = await versions(org, name);
      expect(before).toHaveLength(1);
      expect((await runOf(run.id)).attributes.status).toBe('applying');
      await first.kill();
      expect(await first.exited).toEqual({ code: null, signal: 'SIGKILL' });
      const kept = readdirSync(join(workDir, PENDING_REPORTS_DIR)).sort();
      expect(kept).toEqual([
        expect.stringMatching(/^job-[A-Za-z0-9]+\.json$/),
        expect.stringMatching(/^job-[A-Za-z0-9]+\.tfstate$/),
      ]);
      const finishesBefore = proxy.seen.filter(
        (r) => /\/finish(\?|$)/.test(r.path) && r.upstream !== undefined,
      );

      phase = 'restored';
      const second = await ServerProcess.start('src/executor/main.ts', env);
      processes.push(second);
      await second.waitForLine(/sent the finished report of job-/);

      const done = await runOf(run.id);
      expect(done.attributes).toMatchObject({ status: 'applied', 'error-message': null });
      const after = await versions(org, name);
      expect(after.map((v) => v.id)).toEqual(before.map((v) => v.id));
      expect(after[0]).toMatchObject({
        attributes: { serial: 1, status: 'finalized' },
        relationships: { run: { data: { id: run.id, type: 'runs' } } },
      });
      // The restarted executor sent the state again (the same version) and the report once.
      const afterKill = proxy.seen
        .slice(proxy.seen.indexOf(stateUpload()!) + 1)
        .filter((r) => r.mode === 'forward');
      expect(
        afterKill.filter((r) => r.method === 'PUT' && r.upstream !== undefined).map((r) => r.upstream),
      ).toEqual([200]);
      const finishes = proxy.seen.filter((r) => /\/finish(\?|$)/.test(r.path) && r.upstream !== undefined);
      expect(finishes.length - finishesBefore.length).toBe(1);
      expect(finishes.at(-1)?.upstream).toBe(204);
      const stamps = done.attributes['status-timestamps'];
      expect(Object.keys(stamps)).not.toContain('errored-at');
      expect(readdirSync(join(workDir, PENDING_REPORTS_DIR))).toEqual([]);
      expect(existsSync(join(workDir, PENDING_REPORTS_DIR))).toBe(true);
      const lock = await admin.api.get(`/api/v2/workspaces/${ws}`).expect(200);
      expect(lock.body.data.relationships['locked-by']).toEqual({ data: null });
    } finally {
      await proxy.close();
    }
  });

  const runOf = async (id: string) => (await admin.api.get(`/api/v2/runs/${id}`).expect(200)).body.data;

  async function versions(
    org: string,
    workspace: string,
  ): Promise<{ id: string; attributes: Record<string, unknown>; relationships: Record<string, unknown> }[]> {
    const res = await admin.api
      .get(`/api/v2/state-versions?filter[organization][name]=${org}&filter[workspace][name]=${workspace}`)
      .expect(200);
    return res.body.data;
  }

  async function until(p: ServerProcess, what: string, check: () => boolean): Promise<void> {
    for (let i = 0; i < 600; i++) {
      if (check()) return;
      if (p.child.exitCode !== null) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`${what} never happened; the executor said:\n${p.lines.join('\n')}`);
  }
});

/**
 * The server, as its own process, is killed with SIGKILL after the state an apply left was stored
 * and before the run's report reached it. The state survives the restart (it was committed before
 * the upload was answered), and the executor's report, tried again until the server is back, moves
 * the run on once.
 */
/** Waits until /healthz answers at `origin` (ServerProcess.ready asks its own port, not PORT's). */
async function ready(p: ServerProcess, origin: string): Promise<void> {
  // The first start on a fresh MariaDB database runs every migration.
  for (let i = 0; i < 1500; i++) {
    if (p.child.exitCode !== null) break;
    const ok = await fetch(`${origin}/healthz`).then(
      (res) => res.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`not ready:\n${p.lines.join('\n')}`);
}

describe('kill -9 of the server between the state upload and the report', () => {
  const processes: ServerProcess[] = [];
  let dropDatabase: (() => Promise<void>) | undefined;
  let dir: string;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'plinth-server-kill-'));
  });
  afterAll(async () => {
    for (const p of processes) await p.kill();
    if (processes[0]) rmSync(processes[0].dataDir, { recursive: true, force: true });
    await dropDatabase?.();
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps the state once and records the outcome once after the server restarts', async () => {
    // The same port before and after the restart: the executor's signed links point at the proxy.
    const port = await freePort();
    const env: Record<string, string> = { LOG_LEVEL: 'warn', PORT: String(port) };
    if (usesMysql()) {
      const db = await createMysqlDatabase();
      dropDatabase = db.drop;
      env.DATABASE_URL = db.url;
    }
    const first = await ServerProcess.start('src/main.ts', env);
    processes.push(first);
    const origin = { origin: `http://127.0.0.1:${port}` };
    await ready(first, origin.origin);
    const admin = await bootstrapAdmin(origin);
    const org = await createOrganization(admin);
    const pool = await createPool(admin, org, unique('pool'));
    const { secret } = await createAgentToken(admin, pool);
    const name = unique('ws');
    const created = await admin.api
      .post(`/api/v2/organizations/${org}/workspaces`, {
        data: {
          type: 'workspaces',
          attributes: { name, 'execution-mode': 'agent', 'auto-apply': true },
          relationships: { 'agent-pool': { data: { type: 'agent-pools', id: pool } } },
        },
      })
      .expect(201);
    const ws = created.body.data.id as string;
    const cv = await createVersion(admin, ws, { 'auto-queue-runs': false });
    await upload(origin as TestApp, cv.uploadUrl, configuration([['create']])).expect(200);

    // The apply's report kills the server before it gets there.
    const proxy = new FlakyProxy(origin.origin);
    await proxy.start();
    let finishes = 0;
    let server: 'up' | 'down' | 'back' = 'up';
    proxy.decide = (req) => {
      if (server === 'down') return 'refuse';
      if (server === 'back' || !/\/finish(\?|$)/.test(req.url ?? '') || ++finishes < 2) return 'forward';
      server = 'down';
      first.child.kill('SIGKILL');
      return 'drop';
    };
    const tool = installTool(dir);
    const log: string[] = [];
    const stop = new AbortController();
    const executor = new Executor(
      {
        url: proxy.origin,
        token: secret,
        name: unique('host'),
        workDir: mkdtempSync(join(dir, 'work-')),
        maxJobs: 0,
        commands: { plan: `${tool} plan`, show: `${tool} show`, apply: `${tool} apply` },
        policyCommands: DEFAULT_POLICY_COMMANDS,
      },
      new ProtocolClient(proxy.origin, secret),
      (line) => log.push(line),
      { baseMs: 50, maxMs: 500 },
    );
    const running = executor.run(stop.signal).catch((err: Error) => void log.push(`stopped: ${err.message}`));
    try {
      const run = await createRun(admin, ws);
      expect(await first.exited).toEqual({ code: null, signal: 'SIGKILL' });
      // The state went up (and was answered) before the report was tried.
      const stateUploads = proxy.seen.filter((r) => linkPurpose(r.path) === 'run-state-upload');
      expect(stateUploads.map((r) => [r.method, r.upstream])).toEqual([['PUT', 200]]);

      const second = await ServerProcess.start('src/main.ts', env, first.dataDir);
      processes.push(second);
      await ready(second, origin.origin);
      server = 'back';
      for (let i = 0; i < 300; i++) {
        if (
          (await admin.api.get(`/api/v2/runs/${run.id}`).expect(200)).body.data.attributes.status ===
          'applied'
        )
          break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const done = (await admin.api.get(`/api/v2/runs/${run.id}`).expect(200)).body.data;
      expect(done.attributes).toMatchObject({ status: 'applied', 'error-message': null });
      const versions = await admin.api
        .get(`/api/v2/state-versions?filter[organization][name]=${org}&filter[workspace][name]=${name}`)
        .expect(200);
      expect(versions.body.data).toHaveLength(1);
      expect(versions.body.data[0]).toMatchObject({
        attributes: { serial: 1, status: 'finalized' },
        relationships: { run: { data: { id: run.id, type: 'runs' } } },
      });
      const state = await download(
        origin as TestApp,
        admin,
        `/api/v2/state-versions/${versions.body.data[0].id}/download`,
      ).expect(200);
      expect(JSON.parse((state.body as Buffer).toString('utf8')).resources).toHaveLength(1);
      // The plan's report was answered with the apply it queued; the apply's reached a server once, and was taken.
      const reached = proxy.seen.filter((r) => /\/finish(\?|$)/.test(r.path) && r.upstream !== undefined);
      expect(reached.map((r) => r.upstream)).toEqual([200, 204]);
      expect(log.filter((l) => /refused|could not report/.test(l))).toEqual([]);
    } finally {
      stop.abort();
      await running;
      await proxy.close();
    }
  });
});
