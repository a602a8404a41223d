/**
 * The `idle-executors` scenario: many executors of one pool poll for work once a second each, and
 * there is none. It is open-loop (each executor polls on its own schedule, as real ones do), so the
 * figures that matter are the latency of a poll and the CPU it costs the server and the database:
 * "no work" must stay cheap however many executors wait.
 */
import { Agent } from 'node:http';
import { agentPost, Api, issueAgentToken, registerExecutor } from './http';
import { CpuMeters, Measured, Scenario } from './scenarios';

export interface IdleExecutorOptions {
  origin: string;
  org: string;
  executors: number;
  /** Executors per agent token (a pool has a few tokens, each host one agent). */
  perToken: number;
  intervalMs: number;
  duration: number;
  warmup: number;
}

const SCENARIO: Scenario = {
  name: 'idle-executors',
  title: 'executors polling an empty queue once a second each',
  cls: 'mixed',
  requests: [],
};

interface Poller {
  secret: string;
  agentId: string;
}

/** A pool in the seeded organization, its tokens and `executors` registered agents. */
async function registerExecutors(api: Api, agent: Agent, opts: IdleExecutorOptions): Promise<Poller[]> {
  const url = new URL(opts.origin);
  const pool = await api.post<{ data: { id: string } }>(`/api/v2/organizations/${opts.org}/agent-pools`, {
    data: { type: 'agent-pools', attributes: { name: `idle-${Date.now().toString(36)}` } },
  });
  const pollers: Poller[] = [];
  for (let i = 0; i < opts.executors; i++) {
    if (i % opts.perToken === 0) {
      pollers.push({
        secret: await issueAgentToken(api, pool.data.id, `bench ${i / opts.perToken}`),
        agentId: '',
      });
    } else {
      pollers.push({ secret: pollers[pollers.length - 1].secret, agentId: '' });
    }
    pollers[i].agentId = await registerExecutor(agent, url, pollers[i].secret, `idle-${i}`);
  }
  return pollers;
}

/** Every executor polls every `intervalMs`, spread evenly over the interval; resolves with each poll's result. */
async function pollFor(
  agent: Agent,
  origin: string,
  pollers: Poller[],
  intervalMs: number,
  seconds: number,
): Promise<{ latencies: number[]; statuses: Map<number, number>; failures: number }> {
  const url = new URL(origin);
  const latencies: number[] = [];
  const statuses = new Map<number, number>();
  let failures = 0;
  const end = Date.now() + seconds * 1000;
  await Promise.all(
    pollers.map(async (p, i) => {
      await new Promise((r) => setTimeout(r, (i * intervalMs) / pollers.length));
      while (Date.now() < end) {
        const started = process.hrtime.bigint();
        try {
          const res = await agentPost(agent, url, '/api/v2/agent/jobs/claim', p.secret, p.agentId);
          statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        } catch {
          failures++;
        }
        const ms = Number(process.hrtime.bigint() - started) / 1e6;
        latencies.push(ms);
        await new Promise((r) => setTimeout(r, Math.max(0, intervalMs - ms)));
      }
    }),
  );
  return { latencies, statuses, failures };
}

const percentile = (sorted: number[], q: number) =>
  sorted.length
    ? Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] * 10) / 10
    : 0;

export async function idleExecutors(
  api: Api,
  opts: IdleExecutorOptions,
  rss: () => { stop: () => number },
  cpu: CpuMeters,
): Promise<Measured> {
  const agent = new Agent({ keepAlive: true, maxSockets: opts.executors });
  try {
    const pollers = await registerExecutors(api, agent, opts);
    if (opts.warmup > 0) await pollFor(agent, opts.origin, pollers, opts.intervalMs, opts.warmup);
    const sampler = rss();
    const statements0 = await cpu.statements();
    const [server0, database0] = [cpu.server(), cpu.database()];
    const { latencies, statuses, failures } = await pollFor(
      agent,
      opts.origin,
      pollers,
      opts.intervalMs,
      opts.duration,
    );
    const [server1, database1] = [cpu.server(), cpu.database()];
    const statements1 = await cpu.statements();
    const rssBytes = sampler.stop();
    const polls = latencies.length;
    const perPoll = (seconds: number) => (polls ? (seconds * 1000) / polls : 0);
    const sorted = [...latencies].sort((a, b) => a - b);
    const noWork = statuses.get(204) ?? 0;
    return {
      scenario: { ...SCENARIO, title: `${opts.executors} ${SCENARIO.title}` },
      rps: polls / opts.duration,
      p50: percentile(sorted, 0.5),
      p99: percentile(sorted, 0.99),
      errors: polls - noWork + failures,
      bytesPerResponse: 0,
      rssBytes,
      serverCpuMs: perPoll(server1 - server0),
      databaseCpuMs: perPoll(database1 - database0),
      queriesPerRequest:
        statements0 === undefined || statements1 === undefined || !polls
          ? null
          : (statements1 - statements0) / polls,
      fromMemory: null,
    };
  } finally {
    agent.destroy();
  }
}
