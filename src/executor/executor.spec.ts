import { createServer, IncomingMessage, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import {
  chmodSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tarGz } from '../../test/helpers/tarball';
import { Executor, PENDING_REPORTS_DIR } from './executor';
import { DEFAULT_POLICY_COMMANDS, ExecutorOptions } from './options';
import type { EvaluationSpec } from '../runs/protocol/agent-protocol.types';
import { Job, JobReport, ProtocolClient } from './protocol-client';

/** The run options of a plain run, as a claim carries them. */
const NO_OPTIONS: Pick<
  Job,
  | 'is-destroy'
  | 'plan-only'
  | 'refresh'
  | 'refresh-only'
  | 'target-addrs'
  | 'replace-addrs'
  | 'allow-empty-apply'
  | 'allow-config-generation'
  | 'save-plan'
  | 'terraform-version'
> = {
  'is-destroy': false,
  'plan-only': false,
  refresh: true,
  'refresh-only': false,
  'target-addrs': [],
  'replace-addrs': [],
  'allow-empty-apply': false,
  'allow-config-generation': false,
  'save-plan': false,
  'terraform-version': null,
};

/** How the fake answers one request instead of serving it: a status, or closing without an answer. */
type Refusal = number | 'drop';

/** A small in-process stand-in for Plinth's side of the job protocol and its signed links. */
class FakePlinth {
  readonly jobs: Job[] = [];
  readonly reports = new Map<string, JobReport>();
  readonly files = new Map<string, Buffer>();
  readonly agentHeaders: (string | undefined)[] = [];
  /**
   * Every finish request that reached the fake: its job, its X-Plinth-Agent, whether it asked for
   * the next job (`next=true`), and what it answered.
   */
  readonly finishes: { job: string; agent?: string; next: boolean; answer: Refusal }[] = [];
  /** Whether a report with `next=true` is answered with the next job (false: as an older Plinth, 204). */
  handsJobs = true;
  /** Answers for the next finish requests, in order; the rest are served. */
  finishRefusals: Refusal[] = [];
  /** Every log append that was served or refused for a gap: its job, offset and length. */
  readonly appends: { job: string; offset: number; length: number }[] = [];
  /** Answers for the next log uploads, in order; the rest are served. */
  logRefusals: Refusal[] = [];
  /** When set, every log upload past `logRefusals` is answered with it. */
  logsRefusedWith?: number;
  /** Called with the whole log after each served append. */
  onAppend?: (log: string) => void;
  /** Called as a finish request arrives, before it is answered. */
  onFinish?: (jobId: string) => void;
  heartbeatStatus: 'running' | 'canceled' = 'running';
  heartbeatSeconds = 10;
  /** The registration's `claim-wait-max-seconds`; unset: the field is left out, as an older Plinth does. */
  claimWaitMax?: number;
  /** The `wait` of every claim (0 without one). */
  readonly claimWaits: number[] = [];
  /** Claims held waiting that started before this moment end with a 204. */
  claimsReleasedAt = 0;
  private server!: Server;
  origin = '';
  private queued = 0;
  private registered = 0;

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      let hungUp = false;
      res.once('close', () => (hungUp = !res.writableFinished));
      void this.handle(req, () => hungUp).then((answer) => {
        if (answer === 'drop') {
          req.socket.destroy();
          return;
        }
        const [status, body] = answer;
        if (Buffer.isBuffer(body)) {
          res.writeHead(status, { 'Content-Type': 'application/octet-stream' });
          res.end(body);
          return;
        }
        res.writeHead(status, body === undefined ? {} : { 'Content-Type': 'application/json' });
        res.end(body === undefined ? undefined : JSON.stringify(body));
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.origin = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  /** Queues a job whose links point at this server's files. */
  queue(kind: 'plan' | 'apply', id = `job-${++this.queued}`): string {
    const file = (name: string) => `${this.origin}/files/${id}/${name}`;
    this.jobs.push({
      id,
      kind,
      'run-id': `run-${id}`,
      'workspace-id': 'ws-1',
      'workspace-name': 'networking',
      organization: 'acme',
      ...NO_OPTIONS,
      'heartbeat-interval-seconds': this.heartbeatSeconds,
      links: {
        configuration: `${this.origin}/files/configuration`,
        logs: file('logs'),
        ...(kind === 'plan' ? { 'plan-json': file('plan-json'), 'plan-file': file('plan-file') } : {}),
        ...(kind === 'apply' ? { 'plan-file': `${this.origin}/files/saved-plan` } : {}),
      },
    });
    return id;
  }

  /** Queues a policy-evaluation job; its code and bundle links point at this server's files. */
  queuePolicy(evaluation: Omit<EvaluationSpec, 'id'>, id = `job-${++this.queued}`): string {
    this.jobs.push({
      id,
      kind: 'policy-evaluation',
      'run-id': `run-${id}`,
      'workspace-id': 'ws-1',
      'workspace-name': 'networking',
      organization: 'acme',
      ...NO_OPTIONS,
      'heartbeat-interval-seconds': this.heartbeatSeconds,
      links: {
        configuration: `${this.origin}/files/configuration`,
        'plan-json': `${this.origin}/files/plan.json`,
      },
      'policy-evaluation': { id: `poleval-${id}`, ...evaluation },
    });
    return id;
  }

  /** The agent id of the latest registration. */
  get agentId(): string {
    return `agent-${this.registered}`;
  }

  file(name: string): string {
    return `${this.origin}/files/${name}`;
  }

  text(path: string): string | undefined {
    return this.files.get(path)?.toString('utf8');
  }

  private async handle(req: IncomingMessage, hungUp: () => boolean): Promise<[number, unknown?] | 'drop'> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const url = new URL(req.url ?? '', this.origin);
    const path = url.pathname;
    if (path.startsWith('/files/')) {
      const isLog = path.endsWith('/logs') && req.method === 'PUT';
      const refusal = isLog ? (this.logRefusals.shift() ?? this.logsRefusedWith) : undefined;
      if (refusal === 'drop') return refusal;
      if (refusal) return [refusal, { errors: [{ status: String(refusal) }] }];
      if (isLog) {
        // Plinth's append: bytes it has are acknowledged, a chunk past the end is refused.
        const offset = Number(url.searchParams.get('offset') ?? 0);
        const log = this.files.get(path.slice(7)) ?? Buffer.alloc(0);
        this.appends.push({ job: path.split('/')[2], offset, length: body.length });
        if (offset > log.length) return [409, { errors: [{ status: '409', detail: 'gap' }] }];
        this.files.set(path.slice(7), Buffer.concat([log, body.subarray(log.length - offset)]));
        this.onAppend?.(this.files.get(path.slice(7))!.toString('latin1'));
        return [200];
      }
      if (req.method === 'PUT') {
        this.files.set(path.slice(7), body);
        return [200];
      }
      const file = this.files.get(path.slice(7));
      return file ? [200, file] : [404];
    }
    if (req.headers.authorization !== 'Bearer agent-secret') return [401, { errors: [] }];
    if (path === '/api/v2/agent/register') {
      return [
        201,
        {
          'agent-id': `agent-${++this.registered}`,
          'pool-id': 'apool-1',
          organization: 'acme',
          'poll-interval-seconds': 1,
          'heartbeat-interval-seconds': this.heartbeatSeconds,
          ...(this.claimWaitMax === undefined ? {} : { 'claim-wait-max-seconds': this.claimWaitMax }),
        },
      ];
    }
    this.agentHeaders.push(req.headers['x-plinth-agent'] as string | undefined);
    if (path === '/api/v2/agent/jobs/claim') {
      // A waiting claim is held until a job is queued or its time is up, as Plinth holds it.
      const wait = Number(url.searchParams.get('wait') ?? 0);
      this.claimWaits.push(wait);
      const started = Date.now();
      const until = started + wait * 1000;
      while (!this.jobs.length && Date.now() < until && !hungUp() && started >= this.claimsReleasedAt) {
        await new Promise((r) => setTimeout(r, 10));
      }
      // The executor hung up: no job is handed to it.
      if (hungUp() || started < this.claimsReleasedAt) return 'drop';
      const job = this.jobs.shift();
      return job ? [200, { job }] : [204];
    }
    const match = /^\/api\/v2\/agent\/jobs\/([^/]+)\/(heartbeat|finish)$/.exec(path);
    if (match?.[2] === 'heartbeat') return [200, { status: this.heartbeatStatus }];
    if (match?.[2] === 'finish') {
      const job = match[1];
      const agent = req.headers['x-plinth-agent'] as string | undefined;
      this.onFinish?.(job);
      const next = url.searchParams.get('next') === 'true';
      const refusal = this.finishRefusals.shift();
      // Plinth claims the next job once the report is recorded, as a claim without wait does.
      const handed = refusal === undefined && next && this.handsJobs ? this.jobs.shift() : undefined;
      this.finishes.push({ job, agent, next, answer: refusal ?? (handed ? 200 : 204) });
      if (refusal === 'drop') return refusal;
      if (refusal) return [refusal, { errors: [{ status: String(refusal), detail: 'refused by the fake' }] }];
      this.reports.set(job, JSON.parse(body.toString('utf8')) as JobReport);
      return handed ? [200, { job: handed }] : [204];
    }
    return [404];
  }
}

/** What the stand-in commands below plan and apply: one create and one replacement. */
const TWO_ADDED_ONE_DESTROYED = {
  status: 'finished',
  'has-changes': true,
  'resource-additions': 2,
  'resource-changes': 0,
  'resource-destructions': 1,
  'resource-imports': 0,
};

describe('Executor', () => {
  const fake = new FakePlinth();
  let workDir: string;
  const logLines: string[] = [];

  const executor = (
    commands: Partial<ExecutorOptions['commands']> = {},
    maxJobs = 1,
    policyCommands: Partial<ExecutorOptions['policyCommands']> = {},
    more: Partial<ExecutorOptions> = {},
  ) => {
    const options: ExecutorOptions = {
      url: fake.origin,
      token: 'agent-secret',
      name: 'test-host',
      workDir,
      maxJobs,
      commands: {
        plan: 'echo "planning $PLINTH_WORKSPACE_NAME"; cat main.tf; printf plan-bytes > "$PLINTH_PLAN_FILE"',
        show: 'echo \'{"resource_changes":[{"change":{"actions":["create"]}},{"change":{"actions":["delete","create"]}}]}\' > "$PLINTH_PLAN_JSON"',
        apply:
          'test "$(cat "$PLINTH_PLAN_FILE")" = plan-bytes && echo "Apply complete! Resources: 2 added, 0 changed, 1 destroyed."',
        ...commands,
      },
      policyCommands: { ...DEFAULT_POLICY_COMMANDS, ...policyCommands },
      ...more,
    };
    // Backoff in milliseconds rather than seconds: the tests wait for the tries, not for the clock.
    return new Executor(options, new ProtocolClient(fake.origin, 'agent-secret'), (m) => logLines.push(m), {
      baseMs: 5,
      maxMs: 20,
    });
  };
  const pendingDir = () => join(workDir, PENDING_REPORTS_DIR);
  const pendingFiles = () => (existsSync(pendingDir()) ? readdirSync(pendingDir()).sort() : []);

  beforeAll(async () => {
    await fake.start();
    fake.files.set('configuration', tarGz([{ path: 'main.tf', body: 'resource "null_resource" "x" {}\n' }]));
    fake.files.set('saved-plan', Buffer.from('plan-bytes'));
  });
  afterAll(() => fake.stop());
  beforeEach(() => {
    workDir = mkdtempSync(join(tmpdir(), 'executor-spec-'));
    fake.heartbeatStatus = 'running';
    fake.heartbeatSeconds = 10;
    fake.finishRefusals = [];
    fake.logRefusals = [];
    fake.logsRefusedWith = undefined;
    fake.onFinish = undefined;
    fake.onAppend = undefined;
    fake.agentHeaders.length = 0;
    fake.claimWaits.length = 0;
    fake.claimWaitMax = undefined;
    fake.handsJobs = true;
  });
  afterEach(() => rmSync(workDir, { recursive: true, force: true }));

  it('plans: unpacks the configuration, runs plan and show, uploads log, plan JSON and plan file, reports counts', async () => {
    const id = fake.queue('plan');
    await executor().run();
    expect(fake.reports.get(id)).toEqual(TWO_ADDED_ONE_DESTROYED);
    expect(fake.text(`${id}/logs`)).toContain('planning networking\nresource "null_resource" "x" {}');
    expect(JSON.parse(fake.text(`${id}/plan-json`)!)).toHaveProperty('resource_changes');
    expect(fake.text(`${id}/plan-file`)).toBe('plan-bytes');
    expect(new Set(fake.agentHeaders)).toEqual(new Set([fake.agentId]));
  });

  it("passes the run's planning flags to the plan command as its arguments, one word each", async () => {
    const id = fake.queue('plan');
    Object.assign(fake.jobs.at(-1)!, { refresh: false, 'target-addrs': ['a.b["x y"]'] });
    const plan = 'for a in "$@"; do echo "arg[$a]"; done; printf plan-bytes > "$PLINTH_PLAN_FILE"';
    await executor({ plan }).run();
    expect(fake.reports.get(id)).toEqual(TWO_ADDED_ONE_DESTROYED);
    expect(fake.text(`${id}/logs`)).toContain('arg[-refresh=false]\narg[-target=a.b["x y"]]\n');
  });

  it('errors a plan job whose flags the plan command would drop, rather than plan something else', async () => {
    const id = fake.queue('plan');
    Object.assign(fake.jobs.at(-1)!, { 'replace-addrs': ['a.b'] });
    await executor().run();
    expect(fake.reports.get(id)).toEqual({
      status: 'errored',
      'error-message':
        'the run asks for -replace=a.b, but the plan command does not pass "$@" on to the tool',
    });
  });

  it('applies the saved plan it downloads and reports the counts of the closing summary', async () => {
    const id = fake.queue('apply');
    await executor().run();
    expect(fake.reports.get(id)).toEqual(TWO_ADDED_ONE_DESTROYED);
    expect(fake.text(`${id}/logs`)).toContain('Apply complete!');
  });

  it('sends output while the command runs, appended at byte offsets, a character split between two sends', async () => {
    // The command goes on only once Plinth has its first line, then once it has half a character.
    const go = (name: string) => join(workDir, name);
    const waitFor = (name: string) =>
      `i=0; while [ ! -e "${go(name)}" ] && [ $i -lt 400 ]; do sleep 0.05; i=$((i+1)); done; [ -e "${go(name)}" ]`;
    fake.onAppend = (log) => {
      if (log.includes('first\n')) writeFileSync(go('one'), '');
      if (log.endsWith('\xc3')) writeFileSync(go('two'), '');
    };
    const id = fake.queue('plan');
    await executor({
      plan: `printf 'first\\n'; ${waitFor('one')} && printf 'caf\\303'; ${waitFor('two')} && printf '\\251 second\\n'; printf plan-bytes > "$PLINTH_PLAN_FILE"`,
    }).run();
    expect(fake.reports.get(id)).toEqual(TWO_ADDED_ONE_DESTROYED);
    expect(fake.text(`${id}/logs`)).toContain('first\ncafé second\n');
    const appends = fake.appends.filter((a) => a.job === id);
    expect(appends.length).toBeGreaterThanOrEqual(3);
    // Each append starts where the one before ended: nothing sent twice, nothing skipped.
    appends.reduce((end, a) => {
      expect(a.offset).toBe(end);
      return a.offset + a.length;
    }, 0);
  });

  it('reports a failing command as errored and still uploads what it printed', async () => {
    const id = fake.queue('plan');
    await executor({ plan: 'echo "Error: bad provider" >&2; exit 3' }).run();
    expect(fake.reports.get(id)).toEqual({ status: 'errored', 'error-message': 'plan failed (exit code 3)' });
    expect(fake.text(`${id}/logs`)).toContain('Error: bad provider');
    expect(fake.files.has(`${id}/plan-json`)).toBe(false);
  });

  it('reports a show command that writes no JSON as errored', async () => {
    const id = fake.queue('plan');
    await executor({ show: 'true' }).run();
    expect(fake.reports.get(id)).toEqual({
      status: 'errored',
      'error-message': 'the show command wrote no plan JSON at $PLINTH_PLAN_JSON',
    });
  });

  it('stops the command when a heartbeat says the run was canceled', async () => {
    fake.heartbeatSeconds = 1;
    fake.heartbeatStatus = 'canceled';
    const id = fake.queue('plan');
    await executor({ plan: 'echo started; sleep 60; echo never' }).run();
    expect(fake.reports.get(id)).toEqual({
      status: 'errored',
      'error-message': 'the run was canceled; plan was stopped',
    });
    expect(fake.text(`${id}/logs`)).toContain('started');
    expect(fake.text(`${id}/logs`)).not.toMatch(/^never$/m);
  });

  it('stops the command when the heartbeat says canceled although the log upload beside it is refused', async () => {
    // After a force-cancel the job takes no more files: each log upload answers 409.
    fake.heartbeatSeconds = 0.2;
    fake.heartbeatStatus = 'canceled';
    fake.logsRefusedWith = 409;
    const signalled = join(workDir, 'signalled');
    const id = fake.queue('plan');
    await executor({
      plan: `trap 'echo TERM > "${signalled}"; exit 143' TERM; echo started; sleep 60 & wait; echo never`,
    }).run();
    expect(readFileSync(signalled, 'utf8')).toBe('TERM\n');
    expect(fake.reports.get(id)).toEqual({
      status: 'errored',
      'error-message': 'the run was canceled; plan was stopped',
    });
  });

  describe('reports Plinth does not take at once', () => {
    it('keeps the report on disk while it tries again after refusals and dropped connections, then sends it once', async () => {
      const onDisk: string[][] = [];
      fake.onFinish = () => onDisk.push(pendingFiles());
      fake.finishRefusals = [503, 'drop', 502, 429];
      fake.logRefusals = [503, 'drop'];
      const id = fake.queue('apply');
      await executor().run();
      expect(fake.reports.get(id)).toEqual(TWO_ADDED_ONE_DESTROYED);
      expect(fake.finishes.filter((f) => f.job === id).map((f) => f.answer)).toEqual([
        503,
        'drop',
        502,
        429,
        204,
      ]);
      // On disk before the first try, and gone once Plinth took it; the log went up whole before the report.
      expect(onDisk[0]).toEqual([`${id}.json`]);
      expect(pendingFiles()).toEqual([]);
      expect(fake.text(`${id}/logs`)).toContain(
        'Apply complete! Resources: 2 added, 0 changed, 1 destroyed.',
      );
      expect(logLines).toContain(`${id} finished`);
    });

    it('keeps the log beside the report until it has gone up', async () => {
      const onDisk: string[][] = [];
      fake.onFinish = () => onDisk.push(pendingFiles());
      fake.logRefusals = ['drop', 'drop', 503];
      fake.finishRefusals = [503];
      const id = fake.queue('plan');
      // The heartbeats never come: only the final upload sends the log.
      await executor().run();
      expect(fake.text(`${id}/logs`)).toContain('planning networking');
      expect(fake.reports.get(id)).toEqual(TWO_ADDED_ONE_DESTROYED);
      // The log had gone up (and left the disk) before the report was first sent.
      expect(onDisk).toEqual([[`${id}.json`], [`${id}.json`]]);
      expect(pendingFiles()).toEqual([]);
    });

    it('drops a report Plinth refuses for good and says why', async () => {
      fake.finishRefusals = [409];
      const id = fake.queue('plan');
      await executor().run();
      expect(fake.finishes.filter((f) => f.job === id).map((f) => f.answer)).toEqual([409]);
      expect(pendingFiles()).toEqual([]);
      expect(logLines).toContainEqual(
        expect.stringMatching(
          new RegExp(`^Plinth refused the finished report of ${id}: POST /jobs/${id}/finish answered 409`),
        ),
      );
    });

    it('gives up at the deadline, keeps the report, and sends it with the claiming agent at the next start', async () => {
      fake.finishRefusals = Array<Refusal>(1000).fill(503);
      fake.logRefusals = Array<Refusal>(1000).fill(503);
      const id = fake.queue('plan');
      await executor({}, 1, {}, { reportTimeoutSeconds: 0.2 }).run();
      const claimedBy = fake.agentId;
      expect(fake.reports.has(id)).toBe(false);
      expect(pendingFiles()).toEqual([`${id}.json`, `${id}.log`]);
      expect(JSON.parse(readFileSync(join(pendingDir(), `${id}.json`), 'utf8'))).toMatchObject({
        jobId: id,
        agentId: claimedBy,
        poolId: 'apool-1',
        report: TWO_ADDED_ONE_DESTROYED,
      });

      // Restarted: a new registration, the kept report (and its log) first, before any claim. It
      // asks for no job (a claim follows); the new start's first report asks, and runs the job handed.
      fake.finishRefusals = [];
      fake.logRefusals = [];
      const other = fake.queue('plan');
      const third = fake.queue('apply');
      await executor({}, 2).run();
      expect(fake.agentId).not.toBe(claimedBy);
      const served = fake.finishes.filter((f) => [id, other, third].includes(f.job) && f.answer !== 503);
      expect(served.map((f) => [f.job, f.agent, f.next, f.answer])).toEqual([
        [id, claimedBy, false, 204],
        [other, fake.agentId, true, 200],
        [third, fake.agentId, false, 204],
      ]);
      expect(fake.reports.get(id)).toEqual(TWO_ADDED_ONE_DESTROYED);
      expect(fake.text(`${id}/logs`)).toContain('planning networking');
      expect(pendingFiles()).toEqual([]);
    });

    it('leaves the reports of other pools, and refuses a directory others can write to', async () => {
      fake.finishRefusals = Array<Refusal>(1000).fill(503);
      const id = fake.queue('plan');
      await executor({}, 1, {}, { reportTimeoutSeconds: 0.2 }).run();
      const kept = join(pendingDir(), `${id}.json`);
      const stored = JSON.parse(readFileSync(kept, 'utf8')) as Record<string, unknown>;
      writeFileSync(kept, JSON.stringify({ ...stored, poolId: 'apool-other' }));
      fake.finishRefusals = [];
      await executor({}, 0, {}, { maxJobs: 0 }).run(AbortSignal.timeout(300));
      expect(fake.reports.has(id)).toBe(false);
      expect(pendingFiles()).toContain(`${id}.json`);

      writeFileSync(kept, JSON.stringify(stored));
      chmodSync(pendingDir(), 0o777);
      await executor({}, 0, {}, { maxJobs: 0 }).run(AbortSignal.timeout(300));
      expect(fake.reports.has(id)).toBe(false);
      expect(logLines).toContainEqual(
        `cannot read the reports kept from an earlier start: ${pendingDir()} must be a directory that only this user can use (mode 700)`,
      );

      // Nor is a report kept there; it is sent all the same.
      const next = fake.queue('plan');
      await executor().run();
      expect(fake.reports.get(next)).toEqual(TWO_ADDED_ONE_DESTROYED);
      expect(logLines).toContainEqual(
        `cannot keep the report of ${next} on disk, sending it anyway: ${pendingDir()} must be a directory that only this user can use (mode 700)`,
      );
      expect(pendingFiles()).toEqual([`${id}.json`]);
    });
  });

  it('takes jobs one after the other until it has done as many as asked', async () => {
    const first = fake.queue('plan');
    const second = fake.queue('apply');
    await executor({}, 2).run();
    expect(fake.reports.get(first)?.status).toBe('finished');
    expect(fake.reports.get(second)?.status).toBe('finished');
    expect(logLines).toContain(`registered as ${fake.agentId} in pool apool-1`);
  });

  describe('the next job handed over with a report (finish?next=true)', () => {
    /** The finish requests of these jobs: job, whether it asked for the next job, the answer. */
    const finishesOf = (...ids: string[]) =>
      fake.finishes.filter((f) => ids.includes(f.job)).map((f) => [f.job, f.next, f.answer]);

    it('runs the job a report hands over without a claim, and asks for none with its last report', async () => {
      const first = fake.queue('plan');
      const second = fake.queue('apply');
      const third = fake.queue('plan');
      await executor({}, 2).run();
      expect(fake.claimWaits).toHaveLength(1);
      expect(fake.reports.get(first)).toEqual(TWO_ADDED_ONE_DESTROYED);
      expect(fake.reports.get(second)).toEqual(TWO_ADDED_ONE_DESTROYED);
      expect(fake.text(`${second}/logs`)).toContain('Apply complete!');
      expect(finishesOf(first, second)).toEqual([
        [first, true, 200],
        [second, false, 204],
      ]);
      // Its last job done, the executor took no other: the third is still queued.
      expect(fake.jobs.map((j) => j.id)).toEqual([third]);
      await executor({}, 1).run();
      expect(finishesOf(third)).toEqual([[third, false, 204]]);
    });

    it('claims as before when Plinth answers the report without a job', async () => {
      fake.handsJobs = false;
      const first = fake.queue('plan');
      const second = fake.queue('plan');
      await executor({}, 2).run();
      expect(fake.claimWaits).toHaveLength(2);
      expect(finishesOf(first, second)).toEqual([
        [first, true, 204],
        [second, false, 204],
      ]);
      expect(fake.reports.get(second)).toEqual(TWO_ADDED_ONE_DESTROYED);
    });

    it('asks for no job when stopped while the job ran', async () => {
      const [started, go] = [join(workDir, 'started'), join(workDir, 'go')];
      const stop = new AbortController();
      const first = fake.queue('plan');
      const second = fake.queue('plan');
      const plan =
        `touch "${started}"; i=0; while [ ! -e "${go}" ] && [ $i -lt 400 ]; do sleep 0.05; i=$((i+1)); done; ` +
        'printf plan-bytes > "$PLINTH_PLAN_FILE"';
      const running = executor({ plan }, 0).run(stop.signal);
      while (!existsSync(started)) await new Promise((r) => setTimeout(r, 10));
      stop.abort();
      writeFileSync(go, '');
      await running;
      expect(finishesOf(first)).toEqual([[first, false, 204]]);
      expect(fake.reports.get(first)).toEqual(TWO_ADDED_ONE_DESTROYED);
      expect(fake.jobs.map((j) => j.id)).toEqual([second]);
      await executor({}, 1).run();
    });

    it('runs a job handed over although it was stopped while the report was on its way', async () => {
      const stop = new AbortController();
      const first = fake.queue('plan');
      const second = fake.queue('apply');
      fake.onFinish = (job) => {
        if (job === first) stop.abort();
      };
      await executor({}, 0).run(stop.signal);
      expect(fake.claimWaits).toHaveLength(1);
      expect(finishesOf(first, second)).toEqual([
        [first, true, 200],
        [second, false, 204],
      ]);
      expect(fake.reports.get(second)).toEqual(TWO_ADDED_ONE_DESTROYED);
      expect(fake.jobs).toEqual([]);
    });
  });

  it('waits in its claim for a job when Plinth offers it, and takes the job queued meanwhile', async () => {
    fake.claimWaitMax = 5;
    const running = executor({}, 1).run();
    while (!fake.claimWaits.length) await new Promise((r) => setTimeout(r, 10));
    const id = fake.queue('plan');
    await running;
    expect(fake.claimWaits).toEqual([5]);
    expect(fake.reports.get(id)?.status).toBe('finished');
  });

  it('asks for no more than 30 s of waiting, and for none from a Plinth that does not offer it', async () => {
    fake.claimWaitMax = 300;
    fake.queue('plan');
    await executor({}, 1).run();
    fake.claimWaitMax = undefined;
    fake.queue('plan');
    await executor({}, 1).run();
    expect(fake.claimWaits).toEqual([30, 0]);
  });

  it('hangs up a waiting claim when stopped', async () => {
    fake.claimWaitMax = 30;
    const stop = new AbortController();
    const running = executor({}, 1).run(stop.signal);
    while (!fake.claimWaits.length) await new Promise((r) => setTimeout(r, 10));
    stop.abort();
    // Within the test's time, far less than the 30 s the claim would otherwise wait.
    await running;
    expect(fake.claimWaits).toEqual([30]);
    fake.claimsReleasedAt = Date.now() + 1;
  }, 10_000);

  describe('policy evaluations', () => {
    /**
     * A stand-in engine: fails a policy whose code says `deny` (exit 1), errors on `crash`
     * (exit 2), passes the rest; it prints what it read so the test sees the right files.
     */
    const ENGINE =
      'echo "$PLINTH_POLICY_NAME ($PLINTH_ENFORCEMENT_LEVEL) on $(cat "$PLINTH_PLAN_JSON")"; ' +
      'if grep -q crash "$PLINTH_POLICY_FILE"; then exit 2; fi; ' +
      '! grep -q deny "$PLINTH_POLICY_FILE"';
    const policy = (name: string, code: string | null, level = 'mandatory') => {
      if (code !== null) fake.files.set(`code/${name}`, Buffer.from(code));
      return {
        name,
        'enforcement-level': level,
        query: 'data.x.deny',
        code: code === null ? null : fake.file(`code/${name}`),
      };
    };
    const set = (
      policies: EvaluationSpec['policies'],
      bundle: string | null = null,
      parameters: EvaluationSpec['parameters'] = [],
    ) => ({
      'policy-set-id': 'polset-1',
      'policy-set-name': 'guardrails',
      'policy-kind': 'framework_b' as const,
      'policy-tool-version': 'latest',
      bundle,
      policies,
      parameters,
    });

    beforeAll(() => fake.files.set('plan.json', Buffer.from('{"resource_changes":[]}')));

    it('runs the engine once per policy and reports passed, failed and a policy without code', async () => {
      const id = fake.queuePolicy(
        set([policy('tags', 'allow'), policy('regions', 'deny', 'advisory'), policy('empty', null)]),
      );
      await executor({}, 1, { framework_b: ENGINE }).run();
      expect(fake.reports.get(id)).toEqual({
        status: 'finished',
        results: [
          { policy: 'tags', status: 'passed', output: 'tags (mandatory) on {"resource_changes":[]}\n' },
          { policy: 'regions', status: 'failed', output: 'regions (advisory) on {"resource_changes":[]}\n' },
          { policy: 'empty', status: 'failed', output: 'no code was uploaded for this policy\n' },
        ],
      });
    });

    it('reports an engine that neither passes nor fails as an errored evaluation', async () => {
      const id = fake.queuePolicy(set([policy('broken', 'crash')]));
      await executor({}, 1, { framework_b: ENGINE }).run();
      expect(fake.reports.get(id)).toEqual({
        status: 'errored',
        'error-message':
          'the framework_b engine exited with 2 on policy broken: broken (mandatory) on {"resource_changes":[]}',
      });
    });

    it('runs a versioned set once on its unpacked bundle and reports the results file', async () => {
      fake.files.set('bundle.tar.gz', tarGz([{ path: 'policies.hcl', body: 'policy "size" {}\n' }]));
      const id = fake.queuePolicy(set([], fake.file('bundle.tar.gz')));
      const engine =
        'grep -q size policies.hcl && printf \'[{"policy":"size","status":"failed","enforcement-level":"mandatory","output":"too big"}]\' > "$PLINTH_POLICY_RESULTS"';
      await executor({}, 1, { framework_b: engine }).run();
      expect(fake.reports.get(id)).toEqual({
        status: 'finished',
        results: [{ policy: 'size', status: 'failed', 'enforcement-level': 'mandatory', output: 'too big' }],
      });
    });

    it('hands the set’s parameters to the engine as a JSON file, masking sensitive values in what it reports', async () => {
      const parameters = [
        { key: 'max_size', value: '3', sensitive: false },
        { key: 'api_token', value: 'param-secret-1f9a', sensitive: true },
      ];
      const id = fake.queuePolicy(set([policy('params', 'allow')], null, parameters));
      await executor({}, 1, { framework_b: 'cat "$PLINTH_POLICY_PARAMETERS"' }).run();
      expect(fake.reports.get(id)).toEqual({
        status: 'finished',
        results: [{ policy: 'params', status: 'passed', output: '{"max_size":"3","api_token":"***"}' }],
      });
      const bundled = fake.queuePolicy(set([], fake.file('bundle.tar.gz'), parameters));
      const engine =
        'printf \'[{"policy":"size","status":"passed","output":"token %s"}]\' "$(grep -o \'param-secret-[0-9a-f]*\' "$PLINTH_POLICY_PARAMETERS")" > "$PLINTH_POLICY_RESULTS"';
      await executor({}, 1, { framework_b: engine }).run();
      expect(fake.reports.get(bundled)).toEqual({
        status: 'finished',
        results: [{ policy: 'size', status: 'passed', output: 'token ***' }],
      });
    });

    it('reports a versioned set whose command wrote no results as errored', async () => {
      const id = fake.queuePolicy(set([], fake.file('bundle.tar.gz')));
      await executor({}, 1, { framework_b: 'true' }).run();
      expect(fake.reports.get(id)).toEqual({
        status: 'errored',
        'error-message': 'the engine command wrote no JSON results at $PLINTH_POLICY_RESULTS',
      });
    });
  });
});
