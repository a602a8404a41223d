/**
 * The `notifications` scenario: 1,000 enabled notification configurations (20 in each of 50
 * workspaces of an organization of their own, every run trigger, a signing token) pointing at a
 * receiver on loopback (allowed through NOTIFICATION_ALLOWED_NETWORKS), then a burst of real run
 * transitions: one auto-applied run per workspace, created through the API at once and taken
 * through plan and apply by executors over the agent protocol. Each run raises four triggers
 * (created, planning, applying, completed) for each of its workspace's 20 configurations.
 *
 * Reported: deliveries per second over the burst, the time from each transition (the payload's
 * `run_updated_at`) to its arrival at the receiver (p50, p99), and what the burst costs the API's
 * own reads: the same closed-loop reads measured quietly first, then beside the burst.
 */
import { createServer, IncomingMessage, Server } from 'node:http';
import { Agent } from 'node:http';
import { AddressInfo } from 'node:net';
import { agentPost, Api, inParallel, requestOn, issueAgentToken, jobOf, registerExecutor } from './http';
import { agentWorkspace, configurationArchive } from './run-traffic';
import { CpuMeters } from './scenarios';
import { Seeded } from './seed';

export interface NotificationBenchOptions {
  origin: string;
  token: string;
  /** Seconds of quiet reads measured before the burst. */
  duration: number;
  workspaces: number;
  configurationsPerWorkspace: number;
  executors: number;
  /** Connections of the closed-loop reads. */
  readers: number;
}

const TRIGGERS = [
  'run:created',
  'run:planning',
  'run:needs_attention',
  'run:applying',
  'run:completed',
  'run:errored',
];
/** What an auto-applied run that plans and applies raises. */
const TRIGGERS_PER_RUN = 4;
/** The burst gives up when no delivery arrived for this long. */
const STALL_MS = 60_000;

interface Received {
  /** Arrival less the transition's time, in ms. */
  latencies: number[];
  ids: Set<string>;
  repeats: number;
  firstTransition: number;
  lastTransition: number;
  lastArrival: number;
}

/** A receiver that answers 200 to everything and times each run notification's arrival. */
async function receiver(): Promise<{ server: Server; url: string; received: Received }> {
  const received: Received = {
    latencies: [],
    ids: new Set(),
    repeats: 0,
    firstTransition: Infinity,
    lastTransition: 0,
    lastArrival: 0,
  };
  const server = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const arrived = Date.now();
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
      const payload = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
        notifications: { trigger: string; run_updated_at: string | null }[];
      };
      const [n] = payload.notifications;
      if (n.trigger === 'verification' || !n.run_updated_at) return;
      const id = String(req.headers['x-plinth-delivery']);
      if (received.ids.has(id)) {
        received.repeats++;
        return;
      }
      received.ids.add(id);
      const at = Date.parse(n.run_updated_at);
      received.latencies.push(arrived - at);
      received.firstTransition = Math.min(received.firstTransition, at);
      received.lastTransition = Math.max(received.lastTransition, at);
      received.lastArrival = Math.max(received.lastArrival, arrived);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { server, url: `http://127.0.0.1:${port}/hook`, received };
}

interface Workspace {
  id: string;
  configurationVersionId: string;
}

/** The organization, its agent pool and executors, its workspaces and their configurations. */
async function setUp(api: Api, agent: Agent, opts: NotificationBenchOptions, hookUrl: string) {
  const url = new URL(opts.origin);
  const org = `bench-notify-${Date.now().toString(36)}`;
  await api.post('/api/v2/organizations', {
    data: { type: 'organizations', attributes: { name: org, email: 'ops@bench-notify.example' } },
  });
  const pool = await api.post<{ data: { id: string } }>(`/api/v2/organizations/${org}/agent-pools`, {
    data: { type: 'agent-pools', attributes: { name: 'notify-pool' } },
  });
  const executors: { secret: string; agentId: string }[] = [];
  for (let i = 0; i < opts.executors; i++) {
    const secret = await issueAgentToken(api, pool.data.id, `executor ${i}`);
    executors.push({ secret, agentId: await registerExecutor(agent, url, secret, `n-${i}`) });
  }
  const archive = configurationArchive();
  const indexes = Array.from({ length: opts.workspaces }, (_, i) => i);
  const workspaces = await inParallel(indexes, 8, async (i): Promise<Workspace> => {
    const ws = await agentWorkspace(
      api,
      org,
      pool.data.id,
      { name: `notify-${i}`, 'auto-apply': true },
      archive,
    );
    return { id: ws.workspaceId, configurationVersionId: ws.configurationVersionId };
  });
  // Enabled configurations: each create sends the verification to the receiver first.
  const pairs = workspaces.flatMap((ws) =>
    Array.from({ length: opts.configurationsPerWorkspace }, (_, k) => ({ ws, k })),
  );
  await inParallel(pairs, 16, ({ ws, k }) =>
    api.post(`/api/v2/workspaces/${ws.id}/notification-configurations`, {
      data: {
        type: 'notification-configurations',
        attributes: {
          name: `hook-${k}`,
          'destination-type': 'generic',
          enabled: true,
          url: hookUrl,
          token: `bench-hmac-key-${k}`,
          triggers: TRIGGERS,
        },
      },
    }),
  );
  return { workspaces, executors, configurations: pairs.length };
}

/** Closed-loop reads on `connections` kept-alive connections until stopped; latencies in ms. */
function reads(origin: string, token: string, paths: string[], connections: number) {
  const url = new URL(origin);
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  const latencies: number[] = [];
  let errors = 0;
  let stopped = false;
  let next = 0;
  const headers = { authorization: `Bearer ${token}`, accept: 'application/vnd.api+json' };
  const loop = async () => {
    while (!stopped) {
      const started = performance.now();
      try {
        const res = await requestOn(agent, url, 'GET', paths[next++ % paths.length], headers);
        if (res.status !== 200) errors++;
      } catch {
        errors++;
      }
      latencies.push(performance.now() - started);
    }
  };
  const loops = Array.from({ length: connections }, loop);
  return {
    stop: async () => {
      stopped = true;
      await Promise.all(loops);
      agent.destroy();
      return { latencies, errors };
    },
  };
}

function percentile(values: number[], p: number): number {
  if (!values.length) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

interface ReadWindow {
  seconds: number;
  reads: number;
  errors: number;
  p50: number;
  p99: number;
  serverCpuMs: number;
  databaseCpuMs: number;
  /** Statements the database ran (MySQL only). */
  statements: number | undefined;
}

/** Runs `during` with the reads beside it, measuring both CPU meters over the window. */
async function readWindow(
  opts: NotificationBenchOptions,
  paths: string[],
  meters: CpuMeters,
  during: () => Promise<void>,
): Promise<ReadWindow> {
  const statements0 = await meters.statements();
  const [server0, database0, t0] = [meters.server(), meters.database(), performance.now()];
  const reader = reads(opts.origin, opts.token, paths, opts.readers);
  await during();
  const { latencies, errors } = await reader.stop();
  const [server1, database1, t1] = [meters.server(), meters.database(), performance.now()];
  const statements1 = await meters.statements();
  return {
    seconds: (t1 - t0) / 1000,
    reads: latencies.length,
    errors,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    serverCpuMs: (server1 - server0) * 1000,
    databaseCpuMs: (database1 - database0) * 1000,
    statements:
      statements0 === undefined || statements1 === undefined ? undefined : statements1 - statements0,
  };
}

/**
 * Creates one run per workspace at once and has the executors plan and apply them all; each report
 * asks for the executor's next job (`finish?next=true`) and a job handed over is run without a claim.
 */
async function burst(
  api: Api,
  agent: Agent,
  origin: string,
  workspaces: Workspace[],
  executors: { secret: string; agentId: string }[],
) {
  const url = new URL(origin);
  let applied = 0;
  let failures = 0;
  await inParallel(workspaces, 16, (ws) =>
    api.post('/api/v2/runs', {
      data: {
        type: 'runs',
        attributes: { 'auto-apply': true, message: 'notification bench' },
        relationships: {
          workspace: { data: { type: 'workspaces', id: ws.id } },
          'configuration-version': {
            data: { type: 'configuration-versions', id: ws.configurationVersionId },
          },
        },
      },
    }),
  );
  const report = JSON.stringify({ status: 'finished', 'has-changes': true, 'resource-additions': 1 });
  await Promise.all(
    executors.map(async (e) => {
      // The job a report was answered with (finish?next=true): run next, without a claim.
      let handed: { id: string; kind: string } | undefined;
      while ((handed || applied < workspaces.length) && failures < 100) {
        let job = handed;
        handed = undefined;
        if (!job) {
          const claim = await agentPost(agent, url, '/api/v2/agent/jobs/claim', e.secret, e.agentId, '{}');
          if (claim.status !== 200) {
            if (claim.status !== 204) failures++;
            await new Promise((r) => setTimeout(r, 20));
            continue;
          }
          job = jobOf(claim.text);
        }
        const done = await agentPost(
          agent,
          url,
          `/api/v2/agent/jobs/${job.id}/finish?next=true`,
          e.secret,
          e.agentId,
          report,
        );
        if (done.status !== 200 && done.status !== 204) failures++;
        else if (job.kind === 'apply') applied++;
        if (done.status === 200) handed = jobOf(done.text);
      }
    }),
  );
  if (failures) throw new Error(`the executors met ${failures} failures`);
}

/** Resolves once `expected` deliveries arrived, or no delivery arrived for STALL_MS. */
async function arrivals(received: Received, expected: number): Promise<void> {
  let seen = -1;
  let since = Date.now();
  while (received.ids.size < expected) {
    if (received.ids.size !== seen) [seen, since] = [received.ids.size, Date.now()];
    else if (Date.now() - since > STALL_MS) return;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Runs the scenario and returns the lines of its report. */
export async function notificationBurst(
  api: Api,
  seed: Seeded,
  opts: NotificationBenchOptions,
  meters: CpuMeters,
  log: (line: string) => void,
): Promise<string[]> {
  const agent = new Agent({ keepAlive: true, maxSockets: opts.executors * 2 });
  const hook = await receiver();
  try {
    log(
      `→ notifications: seeding ${opts.workspaces * opts.configurationsPerWorkspace} enabled configurations…`,
    );
    const { workspaces, executors, configurations } = await setUp(api, agent, opts, hook.url);
    const paths = [
      `/api/v2/policy-sets/${seed.versionedSetId}?include=current_version,newest_version`,
      `/api/registry/v1/providers/${seed.org}/${seed.providerName}/versions`,
    ];
    log(`  quiet reads for ${opts.duration} s`);
    // A warm-up, then the quiet window.
    await readWindow(opts, paths, meters, () => new Promise((r) => setTimeout(r, 2000)));
    const quiet = await readWindow(
      opts,
      paths,
      meters,
      () => new Promise((r) => setTimeout(r, opts.duration * 1000)),
    );
    const expected = workspaces.length * TRIGGERS_PER_RUN * opts.configurationsPerWorkspace;
    log(`  burst: ${workspaces.length} runs, ${expected} deliveries expected, reads beside it`);
    let started = 0;
    const busy = await readWindow(opts, paths, meters, async () => {
      started = Date.now();
      await burst(api, agent, opts.origin, workspaces, executors);
      await arrivals(hook.received, expected);
    });
    const r = hook.received;
    const delivered = r.ids.size;
    const seconds = (r.lastArrival - started) / 1000;
    const rate = (w: ReadWindow) => w.reads / w.seconds;
    const perRead = (w: ReadWindow, ms: number) => (w.reads ? ms / w.reads : NaN);
    const workerCpuPerDelivery =
      (busy.serverCpuMs - busy.reads * perRead(quiet, quiet.serverCpuMs)) / Math.max(1, delivered);
    const f = (n: number, d = 0) => n.toFixed(d);
    const beyondReads = (busyTotal: number | undefined, quietTotal: number | undefined) =>
      busyTotal === undefined || quietTotal === undefined || !quiet.reads
        ? undefined
        : (busyTotal - busy.reads * (quietTotal / quiet.reads)) / Math.max(1, delivered);
    const statementsPerDelivery = beyondReads(busy.statements, quiet.statements);
    const databaseCpuPerDelivery = beyondReads(busy.databaseCpuMs, quiet.databaseCpuMs)!;
    return [
      `notifications: ${configurations} enabled configurations in ${workspaces.length} workspaces, ` +
        `${workspaces.length} auto-applied runs created at once and run by ${executors.length} executors`,
      '',
      '| deliveries | repeats | deliveries/s | transition → delivery p50 ms | p99 ms | max ms | drained after the last transition (s) |',
      '|---:|---:|---:|---:|---:|---:|---:|',
      `| ${delivered} of ${expected} | ${r.repeats} | ${f(delivered / seconds)} | ${f(percentile(r.latencies, 50))} | ` +
        `${f(percentile(r.latencies, 99))} | ${f(Math.max(...r.latencies))} | ${f((r.lastArrival - r.lastTransition) / 1000, 1)} |`,
      '',
      `| reads (${opts.readers} connections) | reads/s | p50 ms | p99 ms | errors | server CPU ms/read | DB CPU ms/read |`,
      '|---|---:|---:|---:|---:|---:|---:|',
      ...(
        [
          ['quiet', quiet],
          ['beside the burst', busy],
        ] as const
      ).map(
        ([name, w]) =>
          `| ${name} (${f(w.seconds, 1)} s) | ${f(rate(w))} | ${f(w.p50, 1)} | ${f(w.p99, 1)} | ${w.errors} | ` +
          `${f(perRead(w, w.serverCpuMs), 2)} | ${f(perRead(w, w.databaseCpuMs), 2)} |`,
      ),
      '',
      `reads beside the burst at ${f((rate(busy) / rate(quiet)) * 100)} % of the quiet rate; ` +
        `server CPU per delivery beyond the reads at their quiet cost (run moves and agent calls included): ` +
        `${f(workerCpuPerDelivery, 2)} ms, database CPU ${f(databaseCpuPerDelivery, 2)} ms` +
        (statementsPerDelivery === undefined ? '' : `, statements ${f(statementsPerDelivery, 1)}`),
    ];
  } finally {
    agent.destroy();
    hook.server.close();
  }
}
