import { createServer, IncomingMessage, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tarGz } from '../../test/helpers/tarball';
import { Executor } from './executor';
import { DEFAULT_POLICY_COMMANDS, ExecutorOptions } from './options';
import type { EvaluationSpec } from '../agent-pools/agent-protocol.types';
import { Job, JobReport, ProtocolClient } from './protocol-client';

/** A small in-process stand-in for Plinth's side of the job protocol and its signed links. */
class FakePlinth {
  readonly jobs: Job[] = [];
  readonly reports = new Map<string, JobReport>();
  readonly files = new Map<string, Buffer>();
  readonly agentHeaders: (string | undefined)[] = [];
  heartbeatStatus: 'running' | 'canceled' = 'running';
  heartbeatSeconds = 10;
  private server!: Server;
  origin = '';
  private queued = 0;

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      void this.handle(req).then(([status, body]) => {
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
      'is-destroy': false,
      'plan-only': false,
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
      'is-destroy': false,
      'plan-only': false,
      'heartbeat-interval-seconds': this.heartbeatSeconds,
      links: {
        configuration: `${this.origin}/files/configuration`,
        'plan-json': `${this.origin}/files/plan.json`,
      },
      'policy-evaluation': { id: `poleval-${id}`, ...evaluation },
    });
    return id;
  }

  file(name: string): string {
    return `${this.origin}/files/${name}`;
  }

  text(path: string): string | undefined {
    return this.files.get(path)?.toString('utf8');
  }

  private async handle(req: IncomingMessage): Promise<[number, unknown?]> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const path = req.url ?? '';
    if (path.startsWith('/files/')) {
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
          'agent-id': 'agent-1',
          'pool-id': 'apool-1',
          organization: 'acme',
          'poll-interval-seconds': 1,
          'heartbeat-interval-seconds': this.heartbeatSeconds,
        },
      ];
    }
    this.agentHeaders.push(req.headers['x-plinth-agent'] as string | undefined);
    if (path === '/api/v2/agent/jobs/claim') {
      const job = this.jobs.shift();
      return job ? [200, { job }] : [204];
    }
    const match = /^\/api\/v2\/agent\/jobs\/([^/]+)\/(heartbeat|finish)$/.exec(path);
    if (match?.[2] === 'heartbeat') return [200, { status: this.heartbeatStatus }];
    if (match?.[2] === 'finish') {
      this.reports.set(match[1], JSON.parse(body.toString('utf8')) as JobReport);
      return [204];
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
    };
    return new Executor(options, new ProtocolClient(fake.origin, 'agent-secret'), (m) => logLines.push(m));
  };

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
  });
  afterEach(() => rmSync(workDir, { recursive: true, force: true }));

  it('plans: unpacks the configuration, runs plan and show, uploads log, plan JSON and plan file, reports counts', async () => {
    const id = fake.queue('plan');
    await executor().run();
    expect(fake.reports.get(id)).toEqual(TWO_ADDED_ONE_DESTROYED);
    expect(fake.text(`${id}/logs`)).toContain('planning networking\nresource "null_resource" "x" {}');
    expect(JSON.parse(fake.text(`${id}/plan-json`)!)).toHaveProperty('resource_changes');
    expect(fake.text(`${id}/plan-file`)).toBe('plan-bytes');
    expect(fake.agentHeaders.every((h) => h === 'agent-1')).toBe(true);
  });

  it('applies the saved plan it downloads and reports the counts of the closing summary', async () => {
    const id = fake.queue('apply');
    await executor().run();
    expect(fake.reports.get(id)).toEqual(TWO_ADDED_ONE_DESTROYED);
    expect(fake.text(`${id}/logs`)).toContain('Apply complete!');
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

  it('takes jobs one after the other until it has done as many as asked', async () => {
    const first = fake.queue('plan');
    const second = fake.queue('apply');
    await executor({}, 2).run();
    expect(fake.reports.get(first)?.status).toBe('finished');
    expect(fake.reports.get(second)?.status).toBe('finished');
    expect(logLines).toContain('registered as agent-1 in pool apool-1');
  });

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
    const set = (policies: EvaluationSpec['policies'], bundle: string | null = null) => ({
      'policy-set-id': 'polset-1',
      'policy-set-name': 'guardrails',
      'policy-kind': 'framework_b' as const,
      'policy-tool-version': 'latest',
      bundle,
      policies,
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
