/**
 * npm run bench — builds Plinth, starts `node dist/main.js` on a fresh database, seeds a realistic
 * organization through the API and drives it with autocannon. See docs/benchmarks.md.
 *
 *   BENCH_DATABASE_URL / DATABASE_URL  mysql:// or mariadb:// server → its own database (created
 *                                      and dropped); anything else → SQLite in a temp DATA_DIR
 *   BENCH_SCALE=1          multiplies every seed count (0.1 for a quick run)
 *   BENCH_DURATION=20      seconds per scenario (after a warm-up of a quarter of it, at most 5 s)
 *   BENCH_CONNECTIONS=32   keep-alive connections
 *   BENCH_SCENARIOS=a,b    only these scenarios (names as printed; `scaling` for the scaling check)
 *   BENCH_WORKERS=1        WEB_CONCURRENCY of the server
 *   BENCH_HISTORY_SCALE=1  size of the year of history of the `history` scenario (run only when named
 *                          in BENCH_SCENARIOS): 1 is 1,000,000 runs, 10,000,000 audit events, …
 *   BENCH_PRUNE_RETENTION_DAYS=n  after the history lists, a second server with AUDIT_RETENTION_DAYS=n
 *                          prunes the year's audit events while a list is read, stopped and let go
 *                          on in alternating rounds (BENCH_PRUNE_ROUNDS, 4, of BENCH_DURATION s each)
 *   BENCH_PRUNE_RUN_LOGS=n  then the same with n archived run logs (rows and files) past those days
 *                          and RUN_LOG_RETENTION_DAYS=n on the second server (MySQL/MariaDB)
 *   BENCH_PRUNE_PLAN_JSON=n then the same with n plans' JSON files past those days and
 *                          PLAN_JSON_RETENTION_DAYS=n on the second server (MySQL/MariaDB)
 *   BENCH_EXECUTORS=200    executors of the idle-executors scenario (each polls once a second)
 *   BENCH_RUN_EXECUTORS=8  executors of the runs-while-reading scenario (each runs runs end to end)
 *   BENCH_COST_PROBES=n    with run-cost: then n of each single request (pings, a heartbeat), one at a time
 *   BENCH_COST_RUNS=50, BENCH_COST_ROUNDS=4  the run-cost scenario (run-cost.ts, only when named):
 *                          rounds of that many runs by one executor, CPU and statements per run
 *   BENCH_NOTIFY_WORKSPACES=50, BENCH_NOTIFY_EXECUTORS=4  the notifications scenario (notifications.ts):
 *                          20 configurations per workspace, one run per workspace in the burst
 *   BENCH_WAIT_JOBS=20     runs queued per latency figure of the claim-waits scenario (its fleet:
 *                          BENCH_EXECUTORS; a second server on the same database for the other node)
 *   BENCH_SKIP_BUILD=1     use the existing dist/
 *   BENCH_PROFILE=dir      run the server with --cpu-prof into dir (summarise with profile-top.ts)
 *   BENCH_JSON=file        also write the measurements as JSON
 *   BENCH_KEEP=1           keep the database afterwards (and what was seeded, in its data directory)
 *   BENCH_DATABASE_PID=n   count only this process as the database's CPU (a server of the bench's own)
 *   BENCH_REUSE=dir        skip seeding: use the database a BENCH_KEEP=1 run kept in that data directory
 *   BENCH_NODE_OPTIONS=…   NODE_OPTIONS of the server (V8 flags, e.g. --max-semi-space-size=32)
 *   BENCH_REFERENCE=1      (MySQL) also drive the hand-written node:http + mysql2 server of
 *                          reference-server.ts through the scenarios it answers, after checking its
 *                          answers equal Plinth's, and print both CPU columns side by side, the two
 *                          servers driven in alternating rounds
 *   BENCH_REFERENCE_ROUNDS=n  rounds of that comparison (4), each a 1/n share of BENCH_DURATION
 *   BENCH_MIXED_ROUNDS=n   rounds of each *-while-writing scenario beside its quiet read (4), likewise
 *   BENCH_WRITE_RATE=n     the writers of the *-while-writing scenarios send n requests/s in all
 *                          (default: each as soon as its last answer is in); the verdict is judged
 *                          at a paced rate, beside pings paced the same (the floor)
 *   BENCH_RUN_RATE=n       the executors of runs-while-reading start n runs/s in all, judged beside
 *                          the quiet reads and pings at the executors' request rate, in rounds
 *   BENCH_MIXED_SIDE=reads the control: beside the reads, computed reads that write nothing
 *   BENCH_MIXED_SIDE=ping  the floor: beside the reads, /api/v2/ping (no database, no credentials)
 *   RESPONSE_CACHE_MB, CACHE_TTL_MS   passed to the server (RESPONSE_CACHE_MB=0: every read does its queries)
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { resolve } from 'node:path';
import { claimWaits } from './claim-waits';
import { Api, bootstrapAdmin, inParallel } from './http';
import { historyScenarios, historyTable, setUpHistory } from './history';
import { auditBacklog, measurePruning, seedPlanJsonBacklog, seedRunLogBacklog } from './history-pruning';
import { idleExecutors } from './idle-executors';
import { notificationBurst } from './notifications';
import { runCost, runCostSummary } from './run-cost';
import { runsWhileReading } from './run-traffic';
import { bulkInsertWorkspaces } from './scale';
import {
  alternating,
  besideReads,
  measureBeside,
  mixedSides,
  positiveRate,
  QUIET_OF,
  runSides,
} from './mixed';
import { CpuMeters, drive, DriveOptions, Measured, Scenario, scalingScenarios, scenarios } from './scenarios';
import { compareAnswers, REFERENCE_SCENARIOS, ReferenceProcess, referenceTable, RoundsOf } from './reference';
import { Seeded, Seeder, seedSize } from './seed';
import {
  BenchDatabase,
  BenchServer,
  createBenchDatabase,
  databaseCpuSeconds,
  reuseBenchDatabase,
  samplePeak,
  statementsRun,
} from './server';

const env = process.env;
const scale = Number(env.BENCH_SCALE ?? '1');
const duration = Number(env.BENCH_DURATION ?? '20');
const connections = Number(env.BENCH_CONNECTIONS ?? '32');
const workers = Number(env.BENCH_WORKERS ?? '1');
const only = env.BENCH_SCENARIOS ? new Set(env.BENCH_SCENARIOS.split(',').map((s) => s.trim())) : null;
const SCALING_SMALL = 100;
const SCALING_LARGE = Math.max(1_000, Math.round(100_000 * Math.min(scale, 1)));

const log = (line: string) => process.stderr.write(`${line}\n`);

function wanted(name: string): boolean {
  return !only || only.has(name) || (name.startsWith('workspaces-') && only.has('scaling'));
}

/** Bootstraps the administrator and seeds the organization; with BENCH_KEEP=1 remembers both. */
async function seedFresh(origin: string, db: BenchDatabase): Promise<{ token: string; seed: Seeded }> {
  const token = await bootstrapAdmin(origin);
  // The history and run-cost scenarios set up organizations of their own; nothing else reads this one.
  if (only && [...only].every((name) => SEEDLESS.has(name)))
    return { token, seed: { org: '', workspaceIds: [] } as unknown as Seeded };
  const size = seedSize(scale);
  log(`seeding (scale ${scale}): ${JSON.stringify(size)}`);
  const seed = await new Seeder(new Api(origin, token), size, log).run('bench');
  if (env.BENCH_KEEP === '1') writeFileSync(`${db.dataDir}/${SEED_FILE}`, JSON.stringify({ token, seed }));
  return { token, seed };
}

const SEED_FILE = 'bench-seed.json';

/** Scenarios that read nothing of the seeded organization. */
const SEEDLESS = new Set(['history', 'run-cost']);

/**
 * A counter of the server's /metrics, summed over its labels: 0 when it has counted nothing yet,
 * `whenAbsent` when the server does not have it, undefined when it did not answer.
 */
async function metricSum(origin: string, name: string, whenAbsent?: number): Promise<number | undefined> {
  try {
    const text = await (await fetch(`${origin}/metrics`)).text();
    let sum = whenAbsent;
    for (const m of text.matchAll(new RegExp(`^${name}(?:\\{[^}]*\\})? (\\d+)`, 'gm')))
      sum = (sum ?? 0) + Number(m[1]);
    return sum;
  } catch {
    return undefined;
  }
}

/** Answers the server gave from its response cache so far (its /metrics, summed over routes). */
const responseCacheHits = (origin: string) => metricSum(origin, 'http_response_cache_hits_total', 0);

function keptSeed(dataDir: string): { token: string; seed: Seeded } {
  return JSON.parse(readFileSync(`${dataDir}/${SEED_FILE}`, 'utf8')) as { token: string; seed: Seeded };
}

async function main(): Promise<void> {
  for (const [name, value] of Object.entries({ scale, duration, connections, workers })) {
    if (!Number.isFinite(value) || value <= 0)
      throw new Error(`BENCH_${name.toUpperCase()} must be a positive number`);
  }
  if (env.BENCH_SKIP_BUILD !== '1') {
    log('building…');
    execFileSync('npx', ['nest', 'build'], { stdio: 'inherit' });
  }
  const reuse = env.BENCH_REUSE ? resolve(env.BENCH_REUSE) : undefined;
  const db = reuse
    ? reuseBenchDatabase(reuse)
    : await createBenchDatabase(env.BENCH_DATABASE_URL ?? env.DATABASE_URL);
  const profileDir = env.BENCH_PROFILE ? resolve(env.BENCH_PROFILE) : undefined;
  if (profileDir) mkdirSync(profileDir, { recursive: true });
  let server: BenchServer | undefined;
  try {
    log(`database: ${db.dialect} (${db.dialect === 'mysql' ? db.mysqlDatabase : db.sqlitePath})`);
    server = await BenchServer.start({ db, workers, profileDir: reuse ? profileDir : undefined });
    const { token, seed } = reuse ? keptSeed(reuse) : await seedFresh(server.origin, db);
    let api = new Api(server.origin, token);
    if (profileDir && !reuse) {
      // Profile the scenarios only: the same database, a server started again under --cpu-prof.
      await server.stop();
      server = await BenchServer.start({ db, workers, profileDir });
      api = new Api(server.origin, token);
      log(`profiling into ${profileDir}`);
    }

    const results: Measured[] = [];
    const opts = {
      origin: server.origin,
      token,
      connections,
      duration,
      warmup: Math.min(5, Math.ceil(duration / 4)),
    };
    const running = server;
    const meters: CpuMeters = {
      server: () => running.cpuSeconds(),
      database: databaseCpuSeconds,
      statements: () => statementsRun(db),
      cacheHits: () => responseCacheHits(running.origin),
    };
    const run = async (scenario: Scenario) => {
      log(`→ ${scenario.name}: ${scenario.title}`);
      const m = await drive(scenario, opts, () => samplePeak(() => running.rss()), meters);
      log(
        `  ${m.rps.toFixed(0)} req/s, p50 ${m.p50} ms, p99 ${m.p99} ms, errors ${m.errors}, ` +
          `CPU/req: server ${m.serverCpuMs.toFixed(2)} ms, database ${m.databaseCpuMs.toFixed(2)} ms` +
          (m.alongside
            ? `; alongside ${m.alongside.rps.toFixed(0)} req/s, errors ${m.alongside.errors}`
            : ''),
      );
      results.push(m);
    };
    for (const scenario of scenarios(seed).filter((s) => wanted(s.name))) await run(scenario);
    const footer: string[] =
      env.BENCH_REFERENCE === '1'
        ? await measureReference(db, scenarios(seed), results, { ...opts, origin: running.origin }, meters)
        : [];
    const mixed = (['show', 'list', 'versions'] as const).filter((r) => wanted(`${r}-while-writing`));
    const tokens = mixed.length ? await clientTokens(api, 32) : [];
    const beside = besideReads();
    const paced = { origin: running.origin, token };
    for (const read of mixed) {
      const { name, sides } = mixedSides(seed, tokens, read, beside, paced);
      const quiet = scenarios(seed).find((s) => s.name === QUIET_OF[name])!;
      const { rows, verdict } = await measureBeside(name, quiet, sides, opts, meters, () => running.rss());
      results.push(...rows);
      footer.push('', ...verdict);
    }
    if (wanted('runs-while-reading')) {
      const executors = Number(env.BENCH_RUN_EXECUTORS ?? '8');
      const runRate = positiveRate('BENCH_RUN_RATE');
      const traffic = await runsWhileReading(api, seed, token, {
        origin: running.origin,
        executors,
        runRate,
      });
      try {
        if (!runRate) await run(traffic.scenario);
        else {
          const sides = runSides(traffic.scenario, executors, paced);
          const { rows, verdict } = await measureBeside(
            traffic.scenario.name,
            traffic.quiet,
            sides,
            opts,
            meters,
            () => running.rss(),
          );
          results.push(...rows);
          footer.push('', ...verdict);
        }
      } finally {
        traffic.close();
      }
    }
    if (only?.has('run-cost')) {
      log('→ run-cost: one executor running auto-applied runs end to end, nothing else');
      const rounds = await runCost(
        api,
        {
          origin: running.origin,
          userToken: token,
          runs: Number(env.BENCH_COST_RUNS ?? '50'),
          rounds: Number(env.BENCH_COST_ROUNDS ?? '4'),
          warmupRuns: 10,
          probeRequests: Number(env.BENCH_COST_PROBES ?? '0'),
        },
        {
          server: () => running.cpuSeconds(),
          database: databaseCpuSeconds,
          databaseStatements: () => statementsRun(db),
          serverStatements: () => metricSum(running.origin, 'db_statements_total'),
        },
        log,
      );
      footer.push('', ...runCostSummary(rounds));
    }
    if (wanted('notifications')) {
      const lines = await notificationBurst(
        api,
        seed,
        {
          origin: running.origin,
          token,
          duration,
          workspaces: Number(env.BENCH_NOTIFY_WORKSPACES ?? '50'),
          configurationsPerWorkspace: 20,
          executors: Number(env.BENCH_NOTIFY_EXECUTORS ?? '4'),
          readers: 8,
        },
        meters,
        log,
      );
      lines.forEach((line) => log(`  ${line}`));
      footer.push('', ...lines);
    }
    if (wanted('idle-executors')) {
      const executors = Number(env.BENCH_EXECUTORS ?? '200');
      log(`→ idle-executors: ${executors} executors polling an empty queue once a second each`);
      const m = await idleExecutors(
        api,
        {
          origin: running.origin,
          org: seed.org,
          executors,
          perToken: 20,
          intervalMs: 1000,
          duration,
          warmup: opts.warmup,
        },
        () => samplePeak(() => running.rss()),
        {
          server: () => running.cpuSeconds(),
          database: databaseCpuSeconds,
          statements: () => statementsRun(db),
        },
      );
      log(
        `  ${m.rps.toFixed(0)} polls/s, p50 ${m.p50} ms, p99 ${m.p99} ms, not 204: ${m.errors}, ` +
          `CPU/poll: server ${m.serverCpuMs.toFixed(3)} ms, database ${m.databaseCpuMs.toFixed(3)} ms`,
      );
      results.push(m);
    }

    if (wanted('claim-waits')) {
      const executors = Number(env.BENCH_EXECUTORS ?? '200');
      log(`→ claim-waits: ${executors} idle executors polling once a second, then waiting (long poll)`);
      // Another node on the same database, without Redis: it hears of jobs through its periodic check.
      const other = await BenchServer.start({ db, workers, logName: 'server-2.log' });
      try {
        const r = await claimWaits(
          api,
          {
            origin: running.origin,
            otherOrigin: other.origin,
            executors,
            perToken: 20,
            seconds: duration,
            jobs: Number(env.BENCH_WAIT_JOBS ?? '20'),
          },
          { server: () => running.cpuSeconds() + other.cpuSeconds(), database: databaseCpuSeconds },
        );
        const core = (x: { serverCore: number; databaseCore: number }) =>
          `server ${x.serverCore.toFixed(1)} %, database ${x.databaseCore.toFixed(1)} %, ` +
          `total ${(x.serverCore + x.databaseCore).toFixed(1)} % of a core`;
        const lines = [
          `claim-waits: ${executors} idle executors, ${duration} s each (CPU of both servers and the database)`,
          `  polling once a second: ${core(r.polling)} (${r.polling.claims} claims)`,
          `  waiting (?wait=30):    ${core(r.waiting)} (${r.waiting.claims} claims)`,
          `  job queued while they wait, request to claim: same node p50 ${r.sameNode.p50} ms, ` +
            `p95 ${r.sameNode.p95} ms, max ${r.sameNode.max} ms (the run's create alone: p50 ${r.sameNode.create} ms)`,
          ...(r.otherNode
            ? [
                `  other node, no Redis: p50 ${r.otherNode.p50} ms, p95 ${r.otherNode.p95} ms, ` +
                  `max ${r.otherNode.max} ms (create p50 ${r.otherNode.create} ms)`,
              ]
            : []),
        ];
        for (const line of lines) log(line);
        footer.push('', ...lines);
      } finally {
        await other.stop();
      }
    }

    if (!only || only.has('scaling')) {
      // A kept database may hold the scaling organization of an earlier run already.
      const scaleOrg = reuse ? `bench-scale-${Date.now().toString(36)}` : 'bench-scale';
      await api.post('/api/v2/organizations', {
        data: { type: 'organizations', attributes: { name: scaleOrg, email: 'ops@bench-scale.example' } },
      });
      await inParallel(
        Array.from({ length: SCALING_SMALL }, (_, i) => i),
        16,
        (i) =>
          api.post(`/api/v2/organizations/${scaleOrg}/workspaces`, {
            data: { type: 'workspaces', attributes: { name: `ws-${String(i).padStart(6, '0')}` } },
          }),
      );
      for (const s of scalingScenarios(scaleOrg, SCALING_SMALL, String(SCALING_SMALL))) await run(s);
      log(`inserting ${SCALING_LARGE - SCALING_SMALL} workspaces by bulk SQL…`);
      await bulkInsertWorkspaces(db, scaleOrg, SCALING_SMALL, SCALING_LARGE);
      for (const s of scalingScenarios(scaleOrg, SCALING_LARGE, String(SCALING_LARGE))) await run(s);
    }

    if (only?.has('history')) {
      const history = await setUpHistory(api, running.origin, db, log);
      const small: Measured[] = [];
      for (const s of historyScenarios(history, '1000')) {
        await run(s);
        small.push(results[results.length - 1]);
      }
      const historyScale = Number(env.BENCH_HISTORY_SCALE ?? '1');
      if (!(historyScale > 0)) throw new Error('BENCH_HISTORY_SCALE must be a positive number');
      await history.grow(historyScale);
      const label = `history×${historyScale}`;
      const rows = [];
      for (const [i, s] of historyScenarios(history, label).entries()) {
        await run(s);
        rows.push({
          name: s.name.replace(/^history-|@.*$/g, ''),
          small: small[i],
          large: results[results.length - 1],
        });
      }
      footer.push(...historyTable(rows, label));
      if (env.BENCH_PRUNE_RETENTION_DAYS) {
        const days = Number(env.BENCH_PRUNE_RETENTION_DAYS);
        const read = historyScenarios(history, 'history').find((s) =>
          s.name.startsWith('history-runs-page1'),
        )!;
        const backlogs = [auditBacklog(db, days)];
        if (env.BENCH_PRUNE_RUN_LOGS)
          backlogs.push(await seedRunLogBacklog(db, days, Number(env.BENCH_PRUNE_RUN_LOGS), log));
        if (env.BENCH_PRUNE_PLAN_JSON)
          backlogs.push(await seedPlanJsonBacklog(db, days, Number(env.BENCH_PRUNE_PLAN_JSON), log));
        const rounds = Math.max(1, Number(env.BENCH_PRUNE_ROUNDS ?? '4'));
        for (const backlog of backlogs) {
          const pruning = await measurePruning({
            db,
            backlog,
            read,
            opts: { ...opts, warmup: 1 },
            rounds,
            log,
            reader: { origin: running.origin, rss: () => running.rss(), meters },
            startPruner: (settings) =>
              BenchServer.start({ db, workers, logName: 'pruner.log', env: settings }),
          });
          results.push(...pruning.rows);
          footer.push('', ...pruning.verdict);
        }
      }
    }

    printTable(results, { dialect: db.dialect, scale, duration, connections, workers }, footer);
    if (env.BENCH_JSON) writeFileSync(env.BENCH_JSON, JSON.stringify(results.map(plain), null, 2));
  } finally {
    if (server) {
      await server.stop();
      if (process.exitCode) log(`server log: ${server.logPath}`);
    }
    if (env.BENCH_KEEP === '1' || reuse) log(`kept the database: ${db.url} (BENCH_REUSE=${db.dataDir})`);
    else await db.drop();
  }
}

/**
 * `count` tokens of the bench's user, as many clients of one installation hold: each has its own
 * entry in every process's token cache.
 */
async function clientTokens(api: Api, count: number): Promise<string[]> {
  const me = await api.get<{ data: { id: string } }>('/api/v2/account/details');
  const tokens: string[] = [];
  for (let i = 0; i < count; i++) {
    const res = await api.post<{ data: { attributes: { token: string } } }>(
      `/api/v2/users/${me.data.id}/authentication-tokens`,
      { data: { type: 'authentication-tokens', attributes: { description: `bench client ${i}` } } },
    );
    tokens.push(res.data.attributes.token);
  }
  return tokens;
}

function plain(m: Measured) {
  return {
    scenario: m.scenario.name,
    rps: Math.round(m.rps),
    p50: m.p50,
    p99: m.p99,
    errors: m.errors,
    kbPerResponse: Math.round(m.bytesPerResponse / 102.4) / 10,
    rssMb: Math.round(m.rssBytes / 1024 / 1024),
    serverCpuMs: Math.round(m.serverCpuMs * 100) / 100,
    databaseCpuMs: Math.round(m.databaseCpuMs * 100) / 100,
    queriesPerRequest: m.queriesPerRequest === null ? null : Math.round(m.queriesPerRequest * 100) / 100,
    fromMemoryPercent: m.fromMemory === null ? null : Math.round(m.fromMemory * 1000) / 10,
    target: m.scenario.target ?? null,
  };
}

/**
 * The scenarios the reference server answers: its answers are checked equal to Plinth's first (a
 * difference stops the bench), then both servers are driven the same way in alternating rounds
 * (BENCH_REFERENCE_ROUNDS, 4 by default, of a share of BENCH_DURATION each): this machine's speed
 * swings by ×2 within minutes, and a swing between one server's run and the other's would show as
 * a difference between them. The ratio is the median of the rounds' ratios.
 */
async function measureReference(
  db: BenchDatabase,
  all: Scenario[],
  plinth: Measured[],
  opts: DriveOptions,
  plinthMeters: CpuMeters,
): Promise<string[]> {
  const chosen = all.filter(
    (s) =>
      (REFERENCE_SCENARIOS as readonly string[]).includes(s.name) &&
      plinth.some((m) => m.scenario.name === s.name),
  );
  const { rounds, each } = alternating(opts, 'BENCH_REFERENCE_ROUNDS');
  const ref = await ReferenceProcess.start(db);
  const refMeters: CpuMeters = {
    server: () => ref.cpuSeconds(),
    database: databaseCpuSeconds,
    statements: () => statementsRun(db),
  };
  try {
    const compared: RoundsOf[] = [];
    for (const scenario of chosen) {
      const difference = await compareAnswers(scenario, opts.token, opts.origin, ref.origin);
      if (difference) throw new Error(`the reference's answer to ${scenario.name} differs: ${difference}`);
      log(`→ ${scenario.name}, Plinth and the reference server in turn (its answer equals Plinth's)`);
      const pairs: RoundsOf['pairs'] = [];
      for (let r = 0; r < rounds; r++) {
        const a = await drive(scenario, each, () => samplePeak(() => 0), plinthMeters);
        const b = await drive(
          scenario,
          { ...each, origin: ref.origin },
          () => samplePeak(() => 0),
          refMeters,
        );
        log(
          `  round ${r + 1}: Plinth ${a.serverCpuMs.toFixed(2)} + ${a.databaseCpuMs.toFixed(2)} ms, ` +
            `reference ${b.serverCpuMs.toFixed(2)} + ${b.databaseCpuMs.toFixed(2)} ms`,
        );
        pairs.push([a, b]);
      }
      compared.push({ scenario: scenario.name, pairs });
    }
    const computed = env.RESPONSE_CACHE_MB === '0' || env.CACHE_TTL_MS === '0';
    return referenceTable(compared, computed);
  } finally {
    await ref.stop();
  }
}

function printTable(
  results: Measured[],
  setup: { dialect: string; scale: number; duration: number; connections: number; workers: number },
  footer: string[] = [],
): void {
  const p99Limit = (m: Measured) =>
    m.scenario.cls === 'list100' ? 250 : m.scenario.cls === 'single' ? 25 : null;
  const rows = results.map((m) => {
    const r = plain(m);
    const limit = p99Limit(m);
    const rpsMark = m.scenario.target
      ? m.rps >= m.scenario.target
        ? ' ✓'
        : ` ✗ (≥ ${m.scenario.target})`
      : '';
    const p99Mark = limit === null ? '' : m.p99 <= limit ? ' ✓' : ` ✗ (≤ ${limit})`;
    return [
      r.scenario,
      `${r.rps}${rpsMark}`,
      `${r.p50}`,
      `${r.p99}${p99Mark}`,
      `${r.errors}`,
      `${r.kbPerResponse}`,
      `${r.rssMb}`,
      `${r.serverCpuMs}`,
      `${r.databaseCpuMs}`,
      r.queriesPerRequest === null ? '–' : `${r.queriesPerRequest}`,
      r.fromMemoryPercent === null ? '–' : `${r.fromMemoryPercent} %`,
    ];
  });
  const cpu = cpus();
  const out: string[] = [
    '',
    `Plinth bench — ${setup.dialect}, scale ${setup.scale}, ${setup.duration} s × ${setup.connections} connections, ` +
      `${setup.workers} worker(s), ${cpu.length} × ${cpu[0]?.model ?? 'cpu'}, node ${process.version}`,
    `response cache: ${env.RESPONSE_CACHE_MB === '0' || env.CACHE_TTL_MS === '0' ? 'off' : 'on'}; ` +
      `load average at the end: ${loadavg()
        .map((v) => v.toFixed(1))
        .join(', ')}`,
    ...(rows.length
      ? [
          '',
          '| scenario | req/s | p50 ms | p99 ms | errors | KB/resp | server RSS MB | server CPU ms/req | DB CPU ms/req | queries/req | from memory |',
          '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
          ...rows.map((r) => `| ${r.join(' | ')} |`),
        ]
      : []),
  ];
  for (const m of results.filter((r) => r.alongside)) {
    out.push(
      '',
      `${m.scenario.name}: ${m.scenario.title}; the requests beside it ran at ` +
        `${Math.round(m.alongside!.rps)} req/s (errors ${m.alongside!.errors}); CPU and queries per request count both`,
    );
  }
  const byName = new Map(results.map((m) => [m.scenario.name, m]));
  for (const page of ['page1', 'last']) {
    const small = byName.get(`workspaces-${page}@${SCALING_SMALL}`);
    const large = byName.get(`workspaces-${page}@${SCALING_LARGE}`);
    if (small && large) {
      const ratio = small.rps / large.rps;
      out.push(
        '',
        `scaling, ${page === 'page1' ? 'first' : 'last'} page: ${SCALING_LARGE} vs ${SCALING_SMALL} workspaces is ` +
          `${ratio.toFixed(2)}× slower (${Math.round(large.rps)} vs ${Math.round(small.rps)} req/s) ${ratio <= 1.25 ? '✓' : '✗ (≤ 1.25×)'}`,
      );
    }
  }
  out.push(...footer);
  process.stdout.write(`${out.join('\n')}\n`);
}

main().catch((err: unknown) => {
  log(err instanceof Error ? (err.stack ?? err.message) : String(err));
  process.exitCode = 1;
});
