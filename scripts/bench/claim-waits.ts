/**
 * The `claim-waits` scenario: the same idle fleet twice, in one run. First every executor polls
 * an empty queue once a second (as executors did before claims could wait), then every executor
 * keeps one claim waiting (`?wait=30`, a long poll). For each, the CPU the server and the database
 * spend, as a share of one core. Then, while the fleet waits, runs are queued one at a time and
 * the time from the request that queues a run to the executor holding its job is measured: with
 * the fleet waiting on the node that queued the run, and on another node (a second server on the
 * same database, without Redis: it learns of the job through its periodic check).
 */
import { Agent } from 'node:http';
import { agentPost, Api, issueAgentToken, registerExecutor } from './http';
import { agentWorkspace } from './run-traffic';

export interface ClaimWaitOptions {
  origin: string;
  /** A second server on the same database, or none. */
  otherOrigin?: string;
  executors: number;
  /** Executors per agent token. */
  perToken: number;
  /** Seconds each CPU phase lasts. */
  seconds: number;
  /** Runs queued for each latency figure. */
  jobs: number;
}

export interface CpuReaders {
  /** CPU seconds of every Plinth server process so far. */
  server: () => number;
  database: () => number;
}

export interface Latencies {
  p50: number;
  p95: number;
  max: number;
  create: number;
}

export interface ClaimWaitReport {
  polling: { serverCore: number; databaseCore: number; claims: number };
  waiting: { serverCore: number; databaseCore: number; claims: number };
  /** ms from the request that queues a run to its claim's answer; `create`: the median of that request alone. */
  sameNode: Latencies;
  otherNode?: Latencies;
}

interface Fleet {
  workspaceId: string;
  configurationVersionId: string;
  executors: { secret: string; agentId: string }[];
}

const WAIT_SECONDS = 30;

async function setUp(api: Api, agent: Agent, opts: ClaimWaitOptions): Promise<Fleet> {
  const url = new URL(opts.origin);
  const org = `bench-wait-${Date.now().toString(36)}`;
  await api.post('/api/v2/organizations', {
    data: { type: 'organizations', attributes: { name: org, email: 'ops@bench-wait.example' } },
  });
  const pool = await api.post<{ data: { id: string } }>(`/api/v2/organizations/${org}/agent-pools`, {
    data: { type: 'agent-pools', attributes: { name: 'fleet' } },
  });
  const executors: Fleet['executors'] = [];
  let secret = '';
  for (let i = 0; i < opts.executors; i++) {
    if (i % opts.perToken === 0) {
      secret = await issueAgentToken(api, pool.data.id, `fleet ${i / opts.perToken}`);
    }
    executors.push({ secret, agentId: await registerExecutor(agent, url, secret, `w-${i}`) });
  }
  const workspace = await agentWorkspace(api, org, pool.data.id, { name: 'waited-for' });
  return { ...workspace, executors };
}

/**
 * Every executor claims in a loop until `stop()`: polling every `pollMs`, or waiting `wait`
 * seconds per claim. `claimed` hears of every job handed out.
 */
function fleetLoop(
  origin: string,
  fleet: Fleet,
  how: { pollMs: number } | { wait: number },
  claimed: () => void,
) {
  const agent = new Agent({ keepAlive: true, maxSockets: fleet.executors.length });
  const url = new URL(origin);
  const path = 'wait' in how ? `/api/v2/agent/jobs/claim?wait=${how.wait}` : '/api/v2/agent/jobs/claim';
  let stopped = false;
  let claims = 0;
  const loops = fleet.executors.map(async (e, i) => {
    if ('pollMs' in how) await sleep((i * how.pollMs) / fleet.executors.length);
    while (!stopped) {
      const started = Date.now();
      try {
        const res = await agentPost(agent, url, path, e.secret, e.agentId);
        claims++;
        if (res.status === 200) claimed();
      } catch {
        if (!stopped) await sleep(100);
      }
      if ('pollMs' in how) await sleep(Math.max(0, how.pollMs - (Date.now() - started)));
    }
  });
  return {
    claims: () => claims,
    stop: async () => {
      stopped = true;
      // Hanging up ends the waiting claims (the server drops their waits).
      agent.destroy();
      await Promise.all(loops);
    },
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function cpuPhase(cpu: CpuReaders, seconds: number, claims: () => number) {
  const [s0, d0, c0] = [cpu.server(), cpu.database(), claims()];
  await sleep(seconds * 1000);
  const [s1, d1, c1] = [cpu.server(), cpu.database(), claims()];
  return {
    serverCore: ((s1 - s0) / seconds) * 100,
    databaseCore: ((d1 - d0) / seconds) * 100,
    claims: c1 - c0,
  };
}

/** Queues `jobs` plan-only runs one after another; for each, ms from the request to its claim. */
async function claimLatencies(api: Api, fleet: Fleet, jobs: number, next: () => Promise<void>) {
  const latencies: number[] = [];
  const creates: number[] = [];
  for (let i = 0; i < jobs; i++) {
    const held = next();
    const started = performance.now();
    await api.post('/api/v2/runs', {
      data: {
        type: 'runs',
        attributes: { 'plan-only': true, message: `waited-for ${i}` },
        relationships: {
          workspace: { data: { type: 'workspaces', id: fleet.workspaceId } },
          'configuration-version': {
            data: { type: 'configuration-versions', id: fleet.configurationVersionId },
          },
        },
      },
    });
    creates.push(performance.now() - started);
    await held;
    latencies.push(performance.now() - started);
    await sleep(200);
  }
  const sorted = latencies.sort((a, b) => a - b);
  const at = (q: number) => Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]);
  const create = Math.round(creates.sort((a, b) => a - b)[Math.floor(creates.length / 2)]);
  return { p50: at(0.5), p95: at(0.95), max: Math.round(sorted[sorted.length - 1]), create };
}

/** Resolves the promise `next()` gave once a job is claimed. */
function claimSignal() {
  let resolve: (() => void) | undefined;
  return {
    claimed: () => {
      resolve?.();
      resolve = undefined;
    },
    next: () => new Promise<void>((r) => (resolve = r)),
  };
}

export async function claimWaits(
  api: Api,
  opts: ClaimWaitOptions,
  cpu: CpuReaders,
): Promise<ClaimWaitReport> {
  const agent = new Agent({ keepAlive: true });
  let fleet: Fleet;
  try {
    fleet = await setUp(api, agent, opts);
  } finally {
    agent.destroy();
  }
  const signal = claimSignal();
  const polling = fleetLoop(opts.origin, fleet, { pollMs: 1000 }, signal.claimed);
  await sleep(2000);
  const polled = await cpuPhase(cpu, opts.seconds, polling.claims);
  await polling.stop();

  const waiting = fleetLoop(opts.origin, fleet, { wait: WAIT_SECONDS }, signal.claimed);
  await sleep(2000);
  const waited = await cpuPhase(cpu, opts.seconds, waiting.claims);
  const sameNode = await claimLatencies(api, fleet, opts.jobs, signal.next);
  await waiting.stop();

  let otherNode: ClaimWaitReport['otherNode'];
  if (opts.otherOrigin) {
    const elsewhere = fleetLoop(opts.otherOrigin, fleet, { wait: WAIT_SECONDS }, signal.claimed);
    await sleep(2000);
    otherNode = await claimLatencies(api, fleet, opts.jobs, signal.next);
    await elsewhere.stop();
  }
  return { polling: polled, waiting: waited, sameNode, otherNode };
}
