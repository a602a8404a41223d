/**
 * Reads beside other traffic, each against the same reads with nothing beside them, in alternating
 * rounds: the `*-while-writing` scenarios (writes, the control's computed reads or pings beside the
 * reads) and `runs-while-reading` when its executors are paced. This machine's speed swings by ×2
 * within minutes; a swing between a quiet run and a busy one taken apart would show as the busy
 * one's loss, so each round measures the quiet reads and then each side load, and the verdict is
 * the median of the rounds' shares.
 */
import { loadavg } from 'node:os';
import { pacedLoad } from './paced';
import { median } from './reference';
import {
  BesideReads,
  CpuMeters,
  drive,
  DriveOptions,
  Measured,
  pacedPings,
  PACED_CONNECTIONS,
  ReadWhileWriting,
  readWhileWriting,
  Scenario,
  WRITING_CONNECTIONS,
} from './scenarios';
import { Seeded } from './seed';
import { samplePeak } from './server';

const env = process.env;
const log = (line: string) => process.stderr.write(`${line}\n`);

/**
 * Alternating rounds: how many (`name` in the environment, 4 by default) and the options of each,
 * a share of BENCH_DURATION (at least 2 s) after a 1 s warm-up.
 */
export function alternating(opts: DriveOptions, name: string): { rounds: number; each: DriveOptions } {
  const rounds = Math.max(1, Number(env[name] ?? '4'));
  return { rounds, each: { ...opts, duration: Math.max(2, Math.round(opts.duration / rounds)), warmup: 1 } };
}

/** What BENCH_MIXED_SIDE and BENCH_WRITE_RATE ask to run beside the reads of the mixed scenarios. */
export function besideReads(): BesideReads {
  const kind = env.BENCH_MIXED_SIDE ?? 'writes';
  if (kind !== 'writes' && kind !== 'reads' && kind !== 'ping') {
    throw new Error(`BENCH_MIXED_SIDE: writes, reads or ping, not ${kind}`);
  }
  return { kind, rate: positiveRate('BENCH_WRITE_RATE') };
}

/** A rate in the environment (requests or runs per second), if it is set. */
export function positiveRate(name: string): number | undefined {
  const value = env[name];
  if (value === undefined || value === '') return undefined;
  const rate = Number(value);
  if (!(rate > 0)) throw new Error(`${name}: a number per second, not ${value}`);
  return rate;
}

export const SIDE_WORDS: Record<BesideReads['kind'], string> = {
  writes: 'writes',
  reads: 'computed reads that write nothing (the control)',
  ping: 'pings (the floor)',
};

/** The read each mixed scenario is compared with: the same read with nothing written. */
export const QUIET_OF: Record<string, string> = {
  'show-while-writing': 'show-policy-set',
  'list-while-writing': 'list-policy-sets',
  'versions-while-writing': 'provider-versions',
};

/**
 * The sides of a `*-while-writing` scenario: what BENCH_MIXED_SIDE asks for and, when it is paced
 * (BENCH_WRITE_RATE), the ping floor at the same rate; the paced writes are judged.
 */
export function mixedSides(
  seed: Seeded,
  tokens: string[],
  read: ReadWhileWriting,
  beside: BesideReads,
  paced: { origin: string; token: string },
): { name: string; sides: Side[] } {
  const busy = readWhileWriting(seed, tokens, read, beside, paced);
  const sides: Side[] = [
    {
      words:
        SIDE_WORDS[beside.kind] + (beside.rate ? '' : `, ${WRITING_CONNECTIONS} connections closed-loop`),
      scenario: () => busy,
      judged: beside.kind === 'writes' && beside.rate !== undefined,
    },
  ];
  if (beside.rate && beside.kind !== 'ping') {
    const floor = readWhileWriting(seed, tokens, read, { kind: 'ping', rate: beside.rate }, paced);
    sides.push({ words: SIDE_WORDS.ping, scenario: () => ({ ...floor, name: `${busy.name} (ping floor)` }) });
  }
  return { name: busy.name, sides };
}

/**
 * The sides of `runs-while-reading` with paced executors: the runs (judged), then pings paced at
 * the rate of requests the executors sent in the same round, on as many connections.
 */
export function runSides(
  runs: Scenario,
  executors: number,
  paced: { origin: string; token: string },
): Side[] {
  return [
    { words: 'executor requests', unit: 'run', scenario: () => runs, judged: true },
    {
      words: SIDE_WORDS.ping,
      scenario: (before) => ({
        ...runs,
        name: `${runs.name} (ping floor)`,
        title: `${runs.title}: pings instead, at the executors' request rate`,
        load: pacedLoad(
          paced.origin,
          paced.token,
          Math.max(1, before[0]?.alongside?.rps ?? 1),
          Math.max(executors, PACED_CONNECTIONS),
          pacedPings(),
        ),
      }),
    },
  ];
}

/** A load driven beside the reads in each round. */
export interface Side {
  /** What it is, in the verdict: "writes", "pings (the floor)". */
  words: string;
  /** Its scenario in this round, given the sides measured before it in the round. */
  scenario: (before: Measured[]) => Scenario;
  /** The side's share decides the verdict (≥ 80 % of the quiet reads). */
  judged?: boolean;
  /** A unit of the side load bigger than a request (a run), counted by the load as `units`. */
  unit?: string;
}

export interface SideRounds {
  side: Side;
  rounds: Measured[];
  shares: number[];
  /** Server CPU per side request beyond the reads at their quiet cost, per round. */
  costs: number[];
}

const pct = (v: number) => `${(v * 100).toFixed(0)}`;
const range = (values: number[], show: (v: number) => string) =>
  values.length ? `${show(Math.min(...values))}–${show(Math.max(...values))}` : '–';

/**
 * `rounds` rounds of: the quiet reads, then each side beside the reads. Returns a row per side (its
 * rounds together) and the verdict lines: per side the median share of the quiet rate with its
 * range, the server CPU per side request (and per unit), the side's own rate, and the load average.
 */
export async function measureBeside(
  name: string,
  quiet: Scenario,
  sides: Side[],
  opts: DriveOptions,
  meters: CpuMeters,
  rss: () => number,
  roundsVar = 'BENCH_MIXED_ROUNDS',
): Promise<{ rows: Measured[]; verdict: string[] }> {
  const { rounds, each } = alternating(opts, roundsVar);
  log(`→ ${name}: beside ${quiet.name} in ${rounds} alternating rounds of ${each.duration} s`);
  const per: SideRounds[] = sides.map((side) => ({ side, rounds: [], shares: [], costs: [] }));
  const loads: number[] = [];
  const quietRounds: Measured[] = [];
  for (let r = 0; r < rounds; r++) {
    loads.push(loadavg()[0]);
    const q = await drive(quiet, each, () => samplePeak(rss), meters);
    quietRounds.push(q);
    const before: Measured[] = [];
    const words = [`${q.rps.toFixed(0)} req/s quiet`];
    for (const s of per) {
      const m = await drive(s.side.scenario(before), each, () => samplePeak(rss), meters);
      before.push(m);
      s.rounds.push(m);
      s.shares.push(m.rps / q.rps);
      const cost = sideCost(q, m);
      if (cost !== undefined) s.costs.push(cost);
      words.push(`${m.rps.toFixed(0)} beside ${m.alongside?.rps.toFixed(0) ?? 0}/s ${s.side.words}`);
    }
    loads.push(loadavg()[0]);
    log(`  round ${r + 1}: ${words.join(', ')} (load average ${loadavg()[0].toFixed(1)})`);
  }
  const verdict = [
    `${name}: ${quiet.name} alone ${median(quietRounds.map((m) => m.rps)).toFixed(0)} req/s ` +
      `(median of ${rounds} rounds of ${each.duration} s, ${range(
        quietRounds.map((m) => m.rps),
        (v) => v.toFixed(0),
      )}); load average (1 min) ${range(loads, (v) => v.toFixed(1))}`,
    ...per.map((s) => sideLine(s)),
  ];
  return { rows: per.map((s) => combineRounds(s.rounds)), verdict };
}

function sideLine(s: SideRounds): string {
  const share = median(s.shares);
  const sideRates = s.rounds.map((m) => m.alongside?.rps ?? 0);
  const errors = s.rounds.reduce((a, m) => a + (m.alongside?.errors ?? 0), 0);
  const units = s.rounds.map((m) => m.alongside?.units ?? 0);
  const unit = s.side.unit;
  const perUnit =
    unit && s.costs.length
      ? s.rounds
          .map((m, i) => {
            const requests = m.alongside?.rps ?? 0;
            const u = m.alongside?.units ?? 0;
            return u > 0 && s.costs[i] !== undefined ? (s.costs[i] * requests) / u : undefined;
          })
          .filter((v): v is number => v !== undefined)
      : [];
  return (
    `  beside ${s.side.words} at ${median(sideRates).toFixed(1)} req/s` +
    (unit ? ` (${median(units).toFixed(1)} ${unit}s/s)` : '') +
    `: ${pct(share)} % of the quiet reads (${range(s.shares, pct)} %)` +
    (s.side.judged ? ` ${share >= 0.8 ? '✓' : '✗ (≥ 80 %)'}` : '') +
    (s.costs.length
      ? `; server CPU per side request ${median(s.costs).toFixed(2)} ms (${range(s.costs, (v) => v.toFixed(2))})`
      : '') +
    (perUnit.length
      ? `, per ${unit} ${median(perUnit).toFixed(1)} ms (${range(perUnit, (v) => v.toFixed(1))})`
      : '') +
    `; side errors ${errors}`
  );
}

/**
 * What one request beside the reads cost the server, from a quiet round and the busy round after
 * it: the busy round's server CPU less its reads at the quiet round's CPU per read, per request
 * beside them. Whatever the reads cost more while the side load runs counts to the side load, so
 * this compares side loads (a cheaper write, a dearer one) where the closed-loop share cannot: a
 * write answered sooner comes round sooner, and its share grows with its rate.
 */
export function sideCost(quiet: Measured, busy: Measured): number | undefined {
  const side = busy.alongside?.rps ?? 0;
  if (!(side > 0) || !(busy.rps > 0)) return undefined;
  const busyCpuPerSecond = busy.serverCpuMs * (busy.rps + side);
  return (busyCpuPerSecond - busy.rps * quiet.serverCpuMs) / side;
}

/** Rounds of one scenario as one row: means, the slowest p99, the errors summed. */
export function combineRounds(rounds: Measured[]): Measured {
  const mean = (pick: (m: Measured) => number) => rounds.reduce((a, m) => a + pick(m), 0) / rounds.length;
  const meanOrNull = (pick: (m: Measured) => number | null) =>
    rounds.every((m) => pick(m) !== null) ? mean((m) => pick(m)!) : null;
  const [first] = rounds;
  return {
    ...first,
    rps: mean((m) => m.rps),
    p50: median(rounds.map((m) => m.p50)),
    p99: Math.max(...rounds.map((m) => m.p99)),
    rssBytes: Math.max(...rounds.map((m) => m.rssBytes)),
    errors: rounds.reduce((a, m) => a + m.errors, 0),
    bytesPerResponse: mean((m) => m.bytesPerResponse),
    serverCpuMs: mean((m) => m.serverCpuMs),
    databaseCpuMs: mean((m) => m.databaseCpuMs),
    queriesPerRequest: meanOrNull((m) => m.queriesPerRequest),
    fromMemory: meanOrNull((m) => m.fromMemory),
    alongside: first.alongside && {
      rps: mean((m) => m.alongside?.rps ?? 0),
      errors: rounds.reduce((a, m) => a + (m.alongside?.errors ?? 0), 0),
      units: mean((m) => m.alongside?.units ?? 0),
    },
  };
}
