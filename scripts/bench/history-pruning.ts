/**
 * Reads while a retention pruner works through a backlog, in alternating rounds. The `history`
 * scenario's server keeps reading (its retention covers the seeded year); a second server on the
 * same database is started with the retention to measure (AUDIT_RETENTION_DAYS, or the run logs'
 * and plans' JSON's), and once its first prune is under way the bench stops it (SIGSTOP) for a
 * quiet round of the read and lets it go on (SIGCONT) for a busy round, round after round: the
 * pruner's work on the database and its share of the two cores are in the busy rounds, while the
 * machine's swings fall on both alike. Target: the reads keep at least 80 % of the quiet rate.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadavg } from 'node:os';
import Database from 'better-sqlite3';
import { createConnection } from 'mysql2/promise';
import { median } from './reference';
import { CpuMeters, drive, DriveOptions, Measured, Scenario } from './scenarios';
import { BenchDatabase, BenchServer, samplePeak } from './server';

const DAY_MS = 24 * 3600 * 1000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const sqlCutoff = (days: number) =>
  new Date(Date.now() - days * DAY_MS).toISOString().replace('T', ' ').replace('Z', '');

/** One value of a statement, on either database. */
async function scalar(db: BenchDatabase, sql: string, params: unknown[]): Promise<number> {
  if (db.dialect === 'sqlite') {
    const sqlite = new Database(db.sqlitePath, { readonly: true, timeout: 10_000 });
    try {
      return Number(Object.values(sqlite.prepare(sql).get(...params) as object)[0]);
    } finally {
      sqlite.close();
    }
  }
  const c = await mysqlConnection(db);
  try {
    const [rows] = await c.query(sql, params);
    return Number(Object.values((rows as object[])[0])[0]);
  } finally {
    await c.end();
  }
}

function mysqlConnection(db: BenchDatabase) {
  return createConnection({
    uri: `${(db.mysqlServerUrl as string).replace(/^mariadb:/, 'mysql:')}/${db.mysqlDatabase}`,
  });
}

/** What a pruner removes: its settings on the pruning server, and how much is left to remove. */
export interface Backlog {
  /** "audit events", "run logs". */
  what: string;
  env: Record<string, string>;
  left: () => Promise<number>;
}

/** Audit events older than `days` days. */
export function auditBacklog(db: BenchDatabase, days: number): Backlog {
  return {
    what: 'audit events',
    env: { AUDIT_RETENTION_DAYS: String(days) },
    left: () => scalar(db, 'SELECT COUNT(*) FROM audit_events WHERE occurred_at < ?', [sqlCutoff(days)]),
  };
}

/**
 * Run logs of `count` of the seeded year's oldest phases, as the server leaves them once moved to
 * the blob store (a row with `archived = 1`, the log a file under the data directory), ended
 * more than `days` days ago; the pruner (RUN_LOG_RETENTION_DAYS) removes the file, then the row.
 * MySQL/MariaDB only.
 */
export async function seedRunLogBacklog(
  db: BenchDatabase,
  days: number,
  count: number,
  log: (line: string) => void,
): Promise<Backlog> {
  if (db.dialect !== 'mysql') throw new Error('the run log backlog is seeded on MySQL/MariaDB only');
  const t0 = Date.now();
  const c = await mysqlConnection(db);
  try {
    const [rows] = await c.query(
      'SELECT p.id, p.run_id, p.updated_at FROM run_phases p LEFT JOIN run_logs l ON l.phase_id = p.id ' +
        `WHERE l.phase_id IS NULL AND p.updated_at < ? ORDER BY p.updated_at LIMIT ${Number(count)}`,
      [sqlCutoff(days)],
    );
    const phases = rows as { id: string; run_id: string; updated_at: Date }[];
    const text = 'Terraform v1.9.0\nnull_resource.bench: Creating...\nApply complete!\n'.repeat(20);
    for (const p of phases) {
      const dir = join(db.dataDir, 'blobs', 'runs', p.run_id);
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, `${p.id}.log`), text);
    }
    for (let i = 0; i < phases.length; i += 5_000) {
      const chunk = phases.slice(i, i + 5_000).map((p) => [p.id, text.length, 0, 1, p.updated_at]);
      await c.query('INSERT INTO run_logs (phase_id, size, dropped, archived, updated_at) VALUES ?', [chunk]);
    }
    log(
      `seeded ${phases.length} archived run logs (rows and files) in ${((Date.now() - t0) / 1000).toFixed(0)} s`,
    );
  } finally {
    await c.end();
  }
  return {
    what: 'run logs',
    env: { RUN_LOG_RETENTION_DAYS: String(days) },
    left: () =>
      scalar(db, 'SELECT COUNT(*) FROM run_logs WHERE archived = 1 AND updated_at < ?', [sqlCutoff(days)]),
  };
}

/**
 * Plans' JSON of `count` of the seeded year's oldest plans ended more than `days` days ago, as
 * files under the data directory where the blob store keeps them (the rows are the seed's); the
 * walk of PLAN_JSON_RETENTION_DAYS takes the ended plans in the same order and removes each file
 * it finds. MySQL/MariaDB only.
 */
export async function seedPlanJsonBacklog(
  db: BenchDatabase,
  days: number,
  count: number,
  log: (line: string) => void,
): Promise<Backlog> {
  if (db.dialect !== 'mysql') throw new Error('the plan JSON backlog is seeded on MySQL/MariaDB only');
  const t0 = Date.now();
  const c = await mysqlConnection(db);
  let files: string[];
  try {
    const [rows] = await c.query(
      "SELECT id, run_id FROM run_phases WHERE kind = 'plan' AND status IN ('finished', 'errored', 'canceled') " +
        `AND updated_at < ? ORDER BY updated_at, id LIMIT ${Number(count)}`,
      [sqlCutoff(days)],
    );
    const plans = rows as { id: string; run_id: string }[];
    const json = JSON.stringify({
      format_version: '1.2',
      resource_changes: Array.from({ length: 40 }, (_, i) => ({
        address: `null_resource.bench[${i}]`,
        change: { actions: ['create'], before: null, after: { triggers: { at: 'bench' } } },
      })),
    });
    files = plans.map((p) => join(db.dataDir, 'blobs', 'runs', p.run_id, `${p.id}.json`));
    for (const [i, p] of plans.entries()) {
      mkdirSync(join(db.dataDir, 'blobs', 'runs', p.run_id), { recursive: true });
      writeFileSync(files[i], json);
    }
    log(`seeded ${plans.length} plans' JSON files in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
  } finally {
    await c.end();
  }
  return {
    what: "plans' JSON",
    env: { PLAN_JSON_RETENTION_DAYS: String(days) },
    left: () => Promise.resolve(files.filter((f) => existsSync(f)).length),
  };
}

export interface PruneRun {
  db: BenchDatabase;
  backlog: Backlog;
  /** The reading server: its origin, meters and RSS. */
  reader: { origin: string; meters: CpuMeters; rss: () => number };
  /** Starts the pruning server with these settings added to the bench's environment. */
  startPruner: (env: Record<string, string>) => Promise<BenchServer>;
  read: Scenario;
  opts: DriveOptions;
  rounds: number;
  log: (line: string) => void;
}

/** A pruning server's processes stopped or let go on. */
function signal(server: BenchServer, sig: 'SIGSTOP' | 'SIGCONT'): void {
  for (const pid of server.pids()) process.kill(pid, sig);
}

export async function measurePruning(run: PruneRun): Promise<{ rows: Measured[]; verdict: string[] }> {
  const { backlog, log } = run;
  const before = await backlog.left();
  const pruner = await run.startPruner(backlog.env);
  try {
    log(
      `→ pruning ${backlog.what}: ${before} past retention; waiting for the first prune (a minute after start)`,
    );
    let left = before;
    for (let i = 0; i < 90 && left >= before; i++) {
      await sleep(2_000);
      left = await backlog.left();
    }
    if (left >= before) throw new Error(`the pruner did not start on the ${backlog.what} within 3 minutes`);
    const opts = { ...run.opts, origin: run.reader.origin, warmup: 1 };
    const quiet: Measured[] = [];
    const busy: Measured[] = [];
    const shares: number[] = [];
    const rates: number[] = [];
    const prunerCpu: number[] = [];
    const loads: number[] = [];
    for (let r = 0; r < run.rounds; r++) {
      loads.push(loadavg()[0]);
      signal(pruner, 'SIGSTOP');
      await sleep(500);
      const q = await drive(
        { ...run.read, name: run.read.name.replace(/@.*/, '@pruner-stopped') },
        opts,
        () => samplePeak(run.reader.rss),
        run.reader.meters,
      );
      signal(pruner, 'SIGCONT');
      const left0 = await backlog.left();
      const cpu0 = pruner.cpuSeconds();
      const t0 = Date.now();
      const b = await drive(
        { ...run.read, name: run.read.name.replace(/@.*/, '@while-pruning') },
        opts,
        () => samplePeak(run.reader.rss),
        run.reader.meters,
      );
      const removed = left0 - (await backlog.left());
      const seconds = (Date.now() - t0) / 1000;
      quiet.push(q);
      busy.push(b);
      shares.push(b.rps / q.rps);
      rates.push(removed / seconds);
      if (removed > 0) prunerCpu.push(((pruner.cpuSeconds() - cpu0) * 1000 * 1000) / removed);
      loads.push(loadavg()[0]);
      log(
        `  round ${r + 1}: ${b.rps.toFixed(0)} req/s while ${removed} ${backlog.what} went ` +
          `(${(removed / seconds).toFixed(0)}/s), ${q.rps.toFixed(0)} req/s with the pruner stopped ` +
          `(load average ${loadavg()[0].toFixed(1)})`,
      );
      if (removed === 0 && (await backlog.left()) === 0) break;
    }
    const share = median(shares);
    const span = (v: number[], f: (x: number) => string) => `${f(Math.min(...v))}–${f(Math.max(...v))}`;
    const pct = (x: number) => (x * 100).toFixed(0);
    const cpu = (ms: Measured[]) => median(ms.map((m) => m.serverCpuMs + m.databaseCpuMs)).toFixed(2);
    return {
      rows: [quiet[0], busy[0]].filter(Boolean),
      verdict: [
        `pruning ${backlog.what} (${run.read.name.replace(/@.*/, '')}, ${shares.length} alternating rounds of ${opts.duration} s, ` +
          `load average (1 min) ${span(loads, (x) => x.toFixed(1))}): ${before} past retention, ` +
          `${median(rates).toFixed(0)}/s removed while the reads ran (${span(rates, (x) => x.toFixed(0))})` +
          (prunerCpu.length ? `, ${median(prunerCpu).toFixed(0)} µs of the pruning server's CPU each` : ''),
        `  reads while it prunes: ${pct(share)} % of the reads with it stopped (${span(shares, pct)} %; ` +
          `${median(busy.map((m) => m.rps)).toFixed(0)} vs ${median(quiet.map((m) => m.rps)).toFixed(0)} req/s), ` +
          `CPU per read ${cpu(quiet)} → ${cpu(busy)} ms (server + database) ${share >= 0.8 ? '✓' : '✗ (≥ 80 %)'}`,
      ],
    };
  } finally {
    signal(pruner, 'SIGCONT');
    await pruner.stop();
  }
}
