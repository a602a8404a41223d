import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PENDING_REPORTS_DIR } from '../../src/executor/executor';
import { createAgentToken, createPool } from '../agent-pools/helpers';
import { Actor, bootstrapAdmin, createOrganization, unique } from '../helpers/fixtures';
import { FlakyProxy } from '../helpers/flaky-proxy';
import { ServerProcess } from '../helpers/server-process';
import { startApp, TestApp } from '../helpers/test-app';
import { createRun, createVersion, upload } from './run-fixtures';
import { configuration, installTool } from './stand-in-tool';

jest.setTimeout(180_000);

/** The purpose a signed link's token names (its payload is base64url JSON before the MAC). */
function linkPurpose(req: IncomingMessage): string | null {
  const token = /^\/uploads\/([^/?]+)/.exec(req.url ?? '')?.[1];
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
      if (phase === 'open' && req.method === 'PUT' && linkPurpose(req) === 'run-state-upload') {
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
      const finishesBefore = proxy.seen.filter((r) => /\/finish$/.test(r.path) && r.upstream !== undefined);

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
      const finishes = proxy.seen.filter((r) => /\/finish$/.test(r.path) && r.upstream !== undefined);
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
