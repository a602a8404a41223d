/**
 * The `run-cost` scenario: what a run costs end to end, with nothing else running. One executor
 * runs auto-applied runs one after the other through the agent protocol, as the reference executor
 * does: a user creates a run in workspace `source`, the executor claims its plan, sends a
 * heartbeat, reports it with `next=true` and is handed the apply that report queued (no claim),
 * sends a heartbeat, reports the apply with `next=true`; the applied run fires a run trigger that
 * queues a run in workspace `destination` (auto-applied too), whose plan that report hands over,
 * and which the executor runs the same way. Figures are per applied run (half of them fired a
 * trigger), the claims that found nothing included: server CPU, the database server's CPU (the
 * whole `mariadbd` process, so other clients of a shared server count too) and the statements the
 * server sent (its `db_statements_total`, exact), beside the database's own count of statements
 * (`Questions`, the whole server's).
 */
import { Agent } from 'node:http';
import { agentPost, Api, issueAgentToken, jobOf, registerExecutor, requestOn } from './http';
import { agentWorkspace, configurationArchive } from './run-traffic';

export interface RunCostOptions {
  origin: string;
  userToken: string;
  /** Source runs per round (each queues one more through its run trigger). */
  runs: number;
  rounds: number;
  warmupRuns: number;
  /** After the rounds, this many of each single request, one at a time (0: none). */
  probeRequests: number;
}

export interface RunCostMeters {
  server: () => number;
  database: () => number;
  /** The database's own running count of statements (every client's). */
  databaseStatements: () => Promise<number | undefined>;
  /** The statements this server sent, from its /metrics. */
  serverStatements: () => Promise<number | undefined>;
}

export interface RunCostRound {
  runs: number;
  seconds: number;
  requests: number;
  emptyClaims: number;
  serverCpuMs: number;
  databaseCpuMs: number;
  statements: number | null;
  databaseStatements: number | null;
}

interface Executor {
  sourceId: string;
  configurationVersionId: string;
  secret: string;
  agentId: string;
}

async function setUp(api: Api, agent: Agent, origin: string): Promise<Executor> {
  const url = new URL(origin);
  const org = `bench-cost-${Date.now().toString(36)}`;
  await api.post('/api/v2/organizations', {
    data: { type: 'organizations', attributes: { name: org, email: 'ops@bench-cost.example' } },
  });
  const pool = await api.post<{ data: { id: string } }>(`/api/v2/organizations/${org}/agent-pools`, {
    data: { type: 'agent-pools', attributes: { name: 'cost' } },
  });
  const secret = await issueAgentToken(api, pool.data.id, 'run cost');
  const agentId = await registerExecutor(agent, url, secret, 'cost');
  const archive = configurationArchive();
  const workspace = async (name: string) => {
    const ws = await agentWorkspace(
      api,
      org,
      pool.data.id,
      { name, 'auto-apply': true, 'auto-apply-run-trigger': true },
      archive,
    );
    return { id: ws.workspaceId, cv: ws.configurationVersionId };
  };
  const source = await workspace('source');
  const destination = await workspace('destination');
  await api.post(`/api/v2/workspaces/${destination.id}/run-triggers`, {
    data: {
      type: 'run-triggers',
      relationships: { sourceable: { data: { type: 'workspaces', id: source.id } } },
    },
  });
  return {
    sourceId: source.id,
    configurationVersionId: source.cv,
    secret,
    agentId,
  };
}

/** Runs `count` source runs and their triggered runs to the end; answers the requests sent. */
async function runRuns(
  agent: Agent,
  opts: RunCostOptions,
  e: Executor,
  count: number,
): Promise<{ requests: number; emptyClaims: number }> {
  const url = new URL(opts.origin);
  let requests = 0;
  let emptyClaims = 0;
  const send = async (
    path: string,
    secret: string,
    agentId: string | undefined,
    body: string,
    ok: number[],
  ) => {
    const res = await agentPost(agent, url, path, secret, agentId, body);
    requests++;
    if (!ok.includes(res.status)) throw new Error(`${path} → ${res.status}: ${res.text.slice(0, 300)}`);
    return res;
  };
  const create = JSON.stringify({
    data: {
      type: 'runs',
      attributes: { 'auto-apply': true },
      relationships: {
        workspace: { data: { type: 'workspaces', id: e.sourceId } },
        'configuration-version': { data: { type: 'configuration-versions', id: e.configurationVersionId } },
      },
    },
  });
  const report = JSON.stringify({ status: 'finished', 'has-changes': true, 'resource-additions': 1 });
  // The job a report was answered with (finish?next=true): run next, without a claim.
  let handed: { id: string; kind: string } | undefined;
  for (let i = 0; i < count; i++) {
    await send('/api/v2/runs', opts.userToken, undefined, create, [201]);
    // The source run's apply queues the destination's run: two applies per source run.
    for (let applied = 0; applied < 2;) {
      let job = handed;
      handed = undefined;
      if (!job) {
        const claim = await send('/api/v2/agent/jobs/claim', e.secret, e.agentId, '{}', [200, 204]);
        if (claim.status === 204) {
          emptyClaims++;
          await new Promise((r) => setTimeout(r, 5));
          continue;
        }
        job = jobOf(claim.text);
      }
      await send(`/api/v2/agent/jobs/${job.id}/heartbeat`, e.secret, e.agentId, '{}', [200]);
      const done = await send(
        `/api/v2/agent/jobs/${job.id}/finish?next=true`,
        e.secret,
        e.agentId,
        report,
        [200, 204],
      );
      if (done.status === 200) handed = jobOf(done.text);
      if (job.kind === 'apply') applied++;
    }
  }
  return { requests, emptyClaims };
}

/**
 * What single requests cost, sent one at a time on one connection after the rounds (the server
 * warm): a ping without a token (the stack alone), a ping with the user's token (its check and the
 * change counters' read), and an executor's heartbeat on a claimed job (its token, that read and
 * one UPDATE). Server and database CPU per request.
 */
async function probeRequests(
  api: Api,
  agent: Agent,
  opts: RunCostOptions,
  e: Executor,
  meters: RunCostMeters,
  log: (line: string) => void,
): Promise<void> {
  const url = new URL(opts.origin);
  await api.post('/api/v2/runs', {
    data: {
      type: 'runs',
      relationships: {
        workspace: { data: { type: 'workspaces', id: e.sourceId } },
        'configuration-version': { data: { type: 'configuration-versions', id: e.configurationVersionId } },
      },
    },
  });
  const claim = await agentPost(agent, url, '/api/v2/agent/jobs/claim', e.secret, e.agentId);
  if (claim.status !== 200) throw new Error(`the probe's claim → ${claim.status}`);
  const job = jobOf(claim.text);
  const answered = async (send: () => Promise<{ status: number; text: string }>) => {
    const res = await send();
    if (res.status >= 300) throw new Error(`probe → ${res.status}: ${res.text.slice(0, 200)}`);
  };
  const probes: [string, () => Promise<void>][] = [
    ['ping without a token', () => answered(() => requestOn(agent, url, 'GET', '/api/v2/ping', {}))],
    [
      "ping with the user's token",
      () =>
        answered(() =>
          requestOn(agent, url, 'GET', '/api/v2/ping', { authorization: `Bearer ${opts.userToken}` }),
        ),
    ],
    [
      'heartbeat',
      () =>
        answered(() => agentPost(agent, url, `/api/v2/agent/jobs/${job.id}/heartbeat`, e.secret, e.agentId)),
    ],
  ];
  for (const [name, send] of probes) {
    for (let i = 0; i < Math.min(300, opts.probeRequests); i++) await send();
    const [server0, database0] = [meters.server(), meters.database()];
    for (let i = 0; i < opts.probeRequests; i++) await send();
    const per = (a: number, b: number) => (((b - a) * 1e6) / opts.probeRequests).toFixed(0);
    log(
      `  ${name}: server CPU ${per(server0, meters.server())} µs, ` +
        `database CPU ${per(database0, meters.database())} µs per request (${opts.probeRequests}, one at a time)`,
    );
  }
}

/** Warm-up runs, then `rounds` rounds of `runs` source runs each, measured one by one. */
export async function runCost(
  api: Api,
  opts: RunCostOptions,
  meters: RunCostMeters,
  log: (line: string) => void,
): Promise<RunCostRound[]> {
  const agent = new Agent({ keepAlive: true, maxSockets: 2 });
  try {
    const executor = await setUp(api, agent, opts.origin);
    await runRuns(agent, opts, executor, opts.warmupRuns);
    const rounds: RunCostRound[] = [];
    for (let r = 0; r < opts.rounds; r++) {
      const [statements0, dbStatements0] = [
        await meters.serverStatements(),
        await meters.databaseStatements(),
      ];
      const [server0, database0, t0] = [meters.server(), meters.database(), performance.now()];
      const { requests, emptyClaims } = await runRuns(agent, opts, executor, opts.runs);
      const [server1, database1, t1] = [meters.server(), meters.database(), performance.now()];
      const [statements1, dbStatements1] = [
        await meters.serverStatements(),
        await meters.databaseStatements(),
      ];
      const runs = opts.runs * 2;
      const per = (a: number | undefined, b: number | undefined) =>
        a === undefined || b === undefined ? null : (b - a) / runs;
      const round: RunCostRound = {
        runs,
        seconds: (t1 - t0) / 1000,
        requests,
        emptyClaims,
        serverCpuMs: ((server1 - server0) * 1000) / runs,
        databaseCpuMs: ((database1 - database0) * 1000) / runs,
        // The two reads of /metrics between the marks send no statement.
        statements: per(statements0, statements1),
        databaseStatements: per(dbStatements0, dbStatements1),
      };
      log(`  round ${r + 1}: ${describe(round)}`);
      rounds.push(round);
    }
    if (opts.probeRequests > 0) await probeRequests(api, agent, opts, executor, meters, log);
    return rounds;
  } finally {
    agent.destroy();
  }
}

const fixed = (n: number | null, digits: number) => (n === null ? '–' : n.toFixed(digits));

export function describe(r: RunCostRound): string {
  return (
    `${r.runs} runs in ${r.seconds.toFixed(1)} s (${r.requests} requests, ${r.emptyClaims} empty claims); ` +
    `per run: server CPU ${r.serverCpuMs.toFixed(2)} ms, database CPU ${r.databaseCpuMs.toFixed(2)} ms, ` +
    `statements ${fixed(r.statements, 1)} (the database counted ${fixed(r.databaseStatements, 1)})`
  );
}

/** The rounds' medians, as the bench prints them. */
export function runCostSummary(rounds: RunCostRound[]): string[] {
  const median = (xs: number[]) => {
    const s = [...xs].sort((a, b) => a - b);
    return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  };
  const of = (pick: (r: RunCostRound) => number | null) => {
    const xs = rounds.map(pick).filter((x): x is number => x !== null);
    return xs.length ? median(xs) : null;
  };
  return [
    `run-cost: one executor, auto-applied runs end to end (create, plan claim, heartbeat, plan report ` +
      `handing over the apply, heartbeat, apply report; every other run queued by a run trigger), ` +
      `median of ${rounds.length} rounds of ${rounds[0]?.runs ?? 0} runs`,
    `  per run: server CPU ${fixed(
      of((r) => r.serverCpuMs),
      2,
    )} ms, database CPU ` +
      `${fixed(
        of((r) => r.databaseCpuMs),
        2,
      )} ms, statements sent ${fixed(
        of((r) => r.statements),
        1,
      )} ` +
      `(the database server counted ${fixed(
        of((r) => r.databaseStatements),
        1,
      )}, every client's)`,
  ];
}
