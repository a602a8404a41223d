import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Clock } from '../../src/common/clock';
import { Executor, PENDING_REPORTS_DIR } from '../../src/executor/executor';
import { DEFAULT_POLICY_COMMANDS } from '../../src/executor/options';
import { Job, JobReport, ProtocolClient, ProtocolError } from '../../src/executor/protocol-client';
import { createAgentToken, createPool } from '../agent-pools/helpers';
import { Actor, bootstrapAdmin, createOrganization, unique } from '../helpers/fixtures';
import { FlakyProxy } from '../helpers/flaky-proxy';
import { startApp, TestApp } from '../helpers/test-app';
import { createRun, createVersion, MovableClock, upload } from './run-fixtures';
import { configuration, installTool } from './stand-in-tool';

jest.setTimeout(120_000);

/** Two creations and a replacement. */
const CHANGES = [['create'], ['create'], ['delete', 'create']];
const PLANNED = {
  status: 'finished',
  'has-changes': true,
  'resource-additions': 3,
  'resource-changes': 0,
  'resource-destructions': 1,
  'resource-imports': 0,
};

/**
 * The reference executor against the real app when Plinth is away at the end of a job, and when
 * a run is force-canceled under a running command.
 */
describe('the reference executor when Plinth is away or the run is force-canceled', () => {
  let t: TestApp;
  let admin: Actor;
  let org: string;
  let dir: string;
  let tool: string;
  const clock = new MovableClock();
  const stops: AbortController[] = [];
  const running: Promise<void>[] = [];
  const executorLog: string[] = [];

  beforeAll(async () => {
    t = await startApp({}, [{ provide: Clock, useValue: clock }]);
    admin = await bootstrapAdmin(t);
    org = await createOrganization(admin);
    dir = mkdtempSync(join(tmpdir(), 'plinth-reports-'));
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

  /** A pool, its token, and an agent-mode workspace of it with an uploaded configuration. */
  async function setUp(): Promise<{ secret: string; ws: string; workDir: string }> {
    const pool = await createPool(admin, org, unique('pool'));
    const { secret } = await createAgentToken(admin, pool);
    const res = await admin.api
      .post(`/api/v2/organizations/${org}/workspaces`, {
        data: {
          type: 'workspaces',
          attributes: { name: unique('ws'), 'execution-mode': 'agent' },
          relationships: { 'agent-pool': { data: { type: 'agent-pools', id: pool } } },
        },
      })
      .expect(201);
    const ws = res.body.data.id as string;
    const cv = await createVersion(admin, ws, { 'auto-queue-runs': false });
    await upload(t, cv.uploadUrl, configuration(CHANGES)).expect(200);
    return { secret, ws, workDir: mkdtempSync(join(dir, 'work-')) };
  }

  /** Starts an executor in the background; `stop` ends it (it finishes the job in hand first). */
  function start(
    client: ProtocolClient,
    token: string,
    workDir: string,
    plan = `${tool} plan`,
  ): AbortController {
    const stop = new AbortController();
    const executor = new Executor(
      {
        url: t.origin,
        token,
        name: unique('host'),
        workDir,
        maxJobs: 0,
        commands: { plan, show: `${tool} show`, apply: `${tool} apply` },
        policyCommands: DEFAULT_POLICY_COMMANDS,
      },
      client,
      (line) => executorLog.push(line),
      // Backoff in milliseconds: the test waits for the tries, not for the clock.
      { baseMs: 20, maxMs: 200 },
    );
    stops.push(stop);
    running.push(
      executor.run(stop.signal).catch((err: Error) => {
        executorLog.push(`executor stopped: ${err.message}`);
      }),
    );
    return stop;
  }

  /** Polls until `check` holds; bounded, so a stuck run fails the test with what the executor said. */
  async function until(what: string, check: () => Promise<boolean> | boolean): Promise<void> {
    for (let i = 0; i < 300; i++) {
      if (await check()) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`${what} never happened; the executor said:\n${executorLog.join('\n')}`);
  }

  const run = async (id: string) =>
    (await admin.api.get(`/api/v2/runs/${id}?include=plan,apply`).expect(200)).body;
  const statusOf = async (id: string) => (await run(id)).data.attributes.status as string;
  const pending = (workDir: string) => {
    const at = join(workDir, PENDING_REPORTS_DIR);
    return existsSync(at) ? readdirSync(at) : [];
  };

  it('ends a plan and an apply whose reports Plinth did not take at first, each exactly once', async () => {
    const { secret, ws, workDir } = await setUp();
    const proxy = new FlakyProxy(t.origin);
    await proxy.start();
    try {
      // Plan: refused, cut off, refused again, then through. Apply: the first report reaches Plinth
      // but its answer is lost, so the executor sends the same report again.
      const planAnswers = ['refuse', 'drop', 'refuse'] as const;
      const applyAnswers = ['lose-answer'] as const;
      let finishes = 0;
      proxy.decide = (req) => {
        if (!/\/finish(\?|$)/.test(req.url ?? '')) return 'forward';
        finishes++;
        if (finishes <= planAnswers.length) return planAnswers[finishes - 1];
        if (finishes === planAnswers.length + 2) return applyAnswers[0];
        return 'forward';
      };
      start(new ProtocolClient(proxy.origin, secret), secret, workDir);

      const created = await createRun(admin, ws, { message: 'away at the end' });
      await until('the plan report', async () => (await statusOf(created.id)) === 'planned');
      await admin.api.post(`/api/v2/runs/${created.id}/actions/apply`).expect(202);
      await until('the apply report', async () => (await statusOf(created.id)) === 'applied');
      // The run moved with the first apply report; the executor heard nothing and sends it again.
      await until('the reports leave the disk', () => pending(workDir).length === 0);

      const done = await run(created.id);
      expect(done.data.attributes).toMatchObject({
        status: 'applied',
        'has-changes': true,
        'error-message': null,
        'status-timestamps': {
          'planned-at': expect.any(String),
          'apply-queued-at': expect.any(String),
          'applied-at': expect.any(String),
        },
      });
      expect(done.data.attributes['status-timestamps']).not.toHaveProperty('errored-at');
      const counts = { 'resource-additions': 3, 'resource-changes': 0, 'resource-destructions': 1 };
      const phases = Object.fromEntries(
        (done.included as { type: string; attributes: Record<string, unknown> }[]).map((r) => [
          r.type,
          r.attributes,
        ]),
      );
      expect(phases.plans).toMatchObject({ status: 'finished', 'error-message': null, ...counts });
      expect(phases.applies).toMatchObject({ status: 'finished', 'error-message': null, ...counts });

      // What reached Plinth: the plan's report once; the apply's twice, both taken as the same report.
      const finishRequests = proxy.requests(/\/finish(\?|$)/).map((r) => [r.mode, r.upstream]);
      expect(finishRequests).toEqual([
        ['refuse', undefined],
        ['drop', undefined],
        ['refuse', undefined],
        ['forward', 204],
        ['lose-answer', 204],
        ['forward', 204],
      ]);
      expect(executorLog.filter((l) => /could not report|refused/.test(l))).toEqual([]);
      const runs = await admin.api.get(`/api/v2/workspaces/${ws}/runs`).expect(200);
      expect(runs.body.data).toHaveLength(1);
    } finally {
      await proxy.close();
    }
  });

  it('sends at its next start the report an executor kept on disk when it was stopped while Plinth was away', async () => {
    const { secret, ws, workDir } = await setUp();
    const proxy = new FlakyProxy(t.origin);
    await proxy.start();
    let first: AbortController | undefined;
    proxy.decide = (req) => {
      if (!/\/finish(\?|$)/.test(req.url ?? '')) return 'forward';
      // The operator stops the executor while Plinth is away: the report must outlive it.
      first?.abort();
      return 'refuse';
    };
    try {
      first = start(new ProtocolClient(proxy.origin, secret), secret, workDir);
      let stopped = false;
      void running[0].then(() => (stopped = true));
      const created = await createRun(admin, ws);
      await until('the first executor stops', () => stopped);
      expect(await statusOf(created.id)).toBe('planning');
      // The log went up before the report was tried: only the report is left.
      expect(pending(workDir)).toEqual([expect.stringMatching(/^job-[A-Za-z0-9]+\.json$/)]);
      const [kept] = pending(workDir);
      const stored = JSON.parse(readFileSync(join(workDir, PENDING_REPORTS_DIR, kept), 'utf8'));
      expect(stored).toMatchObject({ report: PLANNED, jobId: expect.stringMatching(/^job-/) });

      // The next executor (a new registration, straight to Plinth) sends it before anything else.
      start(new ProtocolClient(t.origin, secret), secret, workDir);
      await until('the kept report', async () => (await statusOf(created.id)) === 'planned');
      const planned = await run(created.id);
      expect(planned.included.find((r: { type: string }) => r.type === 'plans').attributes).toMatchObject({
        status: 'finished',
        'resource-additions': 3,
        'resource-destructions': 1,
      });
      // The executor deletes its copy once Plinth has answered, which can be just after the run shows it.
      await until('the kept copy gone', () => pending(workDir).length === 0);
      await until('the sent report logged', () =>
        executorLog.includes(`sent the finished report of ${stored.jobId}`),
      );
    } finally {
      await proxy.close();
    }
  });

  /**
   * Asks for a one-second heartbeat, holds heartbeats until the test lets them through (so the
   * force-cancel lands before the executor hears of the cancel), and records each report.
   */
  class ObservedClient extends ProtocolClient {
    readonly reports: { report: JobReport; status: number }[] = [];
    private release!: () => void;
    private readonly held = new Promise<void>((resolve) => (this.release = resolve));

    letHeartbeatsThrough(): void {
      this.release();
    }

    protected override received(job: Job): Job {
      return { ...job, 'heartbeat-interval-seconds': 1 };
    }

    override async heartbeat(jobId: string): Promise<'running' | 'canceled'> {
      await this.held;
      return super.heartbeat(jobId);
    }

    override async finish(
      jobId: string,
      report: JobReport,
      agentId?: string,
      next?: boolean,
    ): Promise<Job | null> {
      try {
        const handed = await super.finish(jobId, report, agentId, next);
        this.reports.push({ report, status: handed ? 200 : 204 });
        return handed;
      } catch (err) {
        this.reports.push({ report, status: err instanceof ProtocolError ? err.status : 0 });
        throw err;
      }
    }
  }

  it('stops the command of a force-canceled run at its next heartbeat and does not report success', async () => {
    const { secret, ws, workDir } = await setUp();
    const marks = join(workDir, 'linger');
    const client = new ObservedClient(t.origin, secret);
    start(client, secret, workDir, `${tool} linger "${marks}"`);
    const created = await createRun(admin, ws);
    await until('the command starts', () => existsSync(`${marks}.started`));

    await admin.api.post(`/api/v2/runs/${created.id}/actions/cancel`).expect(202);
    clock.advance(11_000);
    await admin.api.post(`/api/v2/runs/${created.id}/actions/force-cancel`).expect(202);
    client.letHeartbeatsThrough();

    await until('the command is signalled', () => existsSync(`${marks}.signalled`));
    expect(readFileSync(`${marks}.signalled`, 'utf8')).toBe('SIGTERM');
    await until('the executor reports', () => client.reports.length > 0);
    // The job ended with the force-cancel: Plinth takes no report, and the executor sent no success.
    expect(client.reports).toEqual([
      {
        report: { status: 'errored', 'error-message': 'the run was canceled; plan was stopped' },
        status: 409,
      },
    ]);
    expect((await run(created.id)).data.attributes.status).toBe('force_canceled');
    await until('the refused report leaves the disk', () => pending(workDir).length === 0);
    expect(executorLog).toContainEqual(expect.stringMatching(/^Plinth refused the errored report of job-/));
  });
});
