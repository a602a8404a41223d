import { ChildProcess, spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { BENCH_SIGNING_SECRET, BenchDatabase, cpuOf, freePort } from './server';
import { Measured, Scenario } from './scenarios';

/** The scenarios the hand-written reference server answers (reference-server.ts). */
export const REFERENCE_SCENARIOS = [
  'show-policy-set',
  'list-policy-sets',
  'inbound-run-triggers',
  'provider-versions',
] as const;

/** The hand-written `node:http` + mysql2 server, as a child process on the bench's database. */
export class ReferenceProcess {
  private constructor(
    readonly origin: string,
    private readonly child: ChildProcess,
  ) {}

  static async start(db: BenchDatabase): Promise<ReferenceProcess> {
    if (db.dialect !== 'mysql') throw new Error('BENCH_REFERENCE=1 needs a MySQL/MariaDB bench database');
    const port = await freePort();
    const log = createWriteStream(join(db.dataDir, 'reference-server.log'));
    const child = spawn(
      process.execPath,
      ['-r', 'ts-node/register/transpile-only', join(__dirname, 'reference-server.ts')],
      {
        env: {
          PATH: process.env.PATH,
          REFERENCE_DATABASE_URL: db.url,
          PORT: String(port),
          SIGNING_SECRET: BENCH_SIGNING_SECRET,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    child.stdout?.pipe(log);
    child.stderr?.pipe(log);
    const ref = new ReferenceProcess(`http://127.0.0.1:${port}`, child);
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline) {
      if (child.exitCode !== null) throw new Error(`reference server exited with ${child.exitCode}`);
      try {
        await fetch(`${ref.origin}/`);
        return ref;
      } catch {
        await new Promise((r) => setTimeout(r, 200));
      }
    }
    throw new Error('reference server not listening after 60 s');
  }

  cpuSeconds(): number {
    return this.child.pid === undefined ? 0 : cpuOf(this.child.pid);
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null) return;
    const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(timer);
  }
}

/**
 * The scenario's answer from both servers, parsed, with each server's origin taken out of its
 * links: null when they are equal, else where they first differ.
 */
export async function compareAnswers(
  scenario: Scenario,
  token: string,
  plinth: string,
  reference: string,
): Promise<string | null> {
  const path = scenario.requests[0].path;
  if (!path) throw new Error(`scenario ${scenario.name} has no fixed path`);
  const read = async (origin: string) => {
    const res = await fetch(`${origin}${path}`, { headers: { authorization: `Bearer ${token}` } });
    const text = (await res.text()).split(origin).join('');
    return { status: res.status, body: JSON.parse(text) as unknown };
  };
  const [a, b] = await Promise.all([read(plinth), read(reference)]);
  if (a.status !== b.status) return `status ${a.status} (Plinth) vs ${b.status} (reference)`;
  return firstDifference(a.body, b.body, '$');
}

function firstDifference(a: unknown, b: unknown, at: string): string | null {
  if (isDeepStrictEqual(a, b)) return null;
  if (a && b && typeof a === 'object' && typeof b === 'object') {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const k of keys) {
      const d = firstDifference(
        (a as Record<string, unknown>)[k],
        (b as Record<string, unknown>)[k],
        `${at}.${k}`,
      );
      if (d) return d;
    }
  }
  return `${at}: ${JSON.stringify(a)?.slice(0, 120)} (Plinth) vs ${JSON.stringify(b)?.slice(0, 120)} (reference)`;
}

/** One scenario measured in alternating rounds: Plinth's round, then the reference's. */
export interface RoundsOf {
  scenario: string;
  pairs: [Measured, Measured][];
}

export const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/**
 * The comparison lines printed under the bench's table: per scenario the medians of the rounds
 * (requests per second, server and database CPU per request, statements per request) and the
 * median of the rounds' CPU ratios, with their range.
 */
export function referenceTable(compared: RoundsOf[], computed: boolean): string[] {
  const cpu = (m: Measured) => m.serverCpuMs + m.databaseCpuMs;
  const rounds = compared[0]?.pairs.length ?? 0;
  const out = [
    '',
    `Plinth${computed ? "'s computed path" : ' (response cache on: mostly remembered answers)'} beside the hand-written node:http + mysql2 server computing the same answers (reference-server.ts), same database, same load, ${rounds} alternating round(s) each; medians of the rounds`,
    '',
    '| scenario | Plinth req/s | reference req/s | Plinth server + DB CPU ms/req | reference server + DB CPU ms/req | ratio (rounds) | Plinth queries/req | reference queries/req |',
    '|---|---:|---:|---:|---:|---:|---:|---:|',
  ];
  const fmt = (n: number | null) => (n === null || Number.isNaN(n) ? '–' : n.toFixed(2));
  const of = (pairs: Measured[], pick: (m: Measured) => number | null) =>
    median(pairs.map(pick).filter((v): v is number => v !== null));
  for (const { scenario, pairs } of compared) {
    const a = pairs.map(([p]) => p);
    const b = pairs.map(([, r]) => r);
    const ratios = pairs.map(([p, r]) => cpu(p) / cpu(r));
    const ratio = median(ratios);
    const verdict = computed ? (ratio <= 1.5 ? ' ✓' : ' ✗ (≤ 1.5×)') : '';
    out.push(
      `| ${scenario} | ${of(a, (m) => m.rps).toFixed(0)} | ${of(b, (m) => m.rps).toFixed(0)} | ` +
        `${fmt(of(a, (m) => m.serverCpuMs))} + ${fmt(of(a, (m) => m.databaseCpuMs))} | ` +
        `${fmt(of(b, (m) => m.serverCpuMs))} + ${fmt(of(b, (m) => m.databaseCpuMs))} | ` +
        `${ratio.toFixed(2)}× (${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)})${verdict} | ` +
        `${fmt(of(a, (m) => m.queriesPerRequest))} | ${fmt(of(b, (m) => m.queriesPerRequest))} |`,
    );
  }
  return out;
}
