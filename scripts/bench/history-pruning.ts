/**
 * Reads while the audit pruner deletes: the `history` scenario's server is started again with
 * AUDIT_RETENTION_DAYS=BENCH_PRUNE_RETENTION_DAYS, a read is measured before its first prune (a
 * minute after start), then again while the prune deletes what is older, and the two are compared
 * (target: at least 80 % of the quiet rate).
 */
import Database from 'better-sqlite3';
import { createConnection } from 'mysql2/promise';
import { CpuMeters, drive, DriveOptions, Measured, Scenario } from './scenarios';
import { BenchDatabase, samplePeak } from './server';

const DAY_MS = 24 * 3600 * 1000;

/** Audit events older than `days` days before now. */
async function olderThan(db: BenchDatabase, days: number): Promise<number> {
  const cutoff = new Date(Date.now() - days * DAY_MS).toISOString().replace('T', ' ').replace('Z', '');
  const sql = 'SELECT COUNT(*) AS n FROM audit_events WHERE occurred_at < ?';
  if (db.dialect === 'sqlite') {
    const sqlite = new Database(db.sqlitePath, { readonly: true, timeout: 10_000 });
    try {
      return Number((sqlite.prepare(sql).get(cutoff) as { n: number }).n);
    } finally {
      sqlite.close();
    }
  }
  const c = await createConnection({
    uri: `${(db.mysqlServerUrl as string).replace(/^mariadb:/, 'mysql:')}/${db.mysqlDatabase}`,
  });
  try {
    const [rows] = await c.query(sql, [cutoff]);
    return Number((rows as { n: number }[])[0].n);
  } finally {
    await c.end();
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface PruneRun {
  db: BenchDatabase;
  days: number;
  /** Starts the server again with the environment as it now is; resolves with its origin and meters. */
  restart: () => Promise<{ origin: string; meters: CpuMeters; rss: () => number }>;
  read: Scenario;
  opts: DriveOptions;
  log: (line: string) => void;
}

export async function measurePruning(run: PruneRun): Promise<{ rows: Measured[]; verdict: string }> {
  const { db, days, log } = run;
  const before = await olderThan(db, days);
  process.env.AUDIT_RETENTION_DAYS = String(days);
  const started = Date.now();
  const server = await run.restart();
  const opts = { ...run.opts, origin: server.origin };
  log(`→ ${run.read.name}, quiet: before the first prune (${before} audit events past ${days} days)`);
  const quiet = await drive(
    { ...run.read, name: run.read.name.replace(/@.*/, '@quiet') },
    opts,
    () => samplePeak(server.rss),
    server.meters,
  );
  if (Date.now() - started > 55_000)
    throw new Error('the quiet reads ran into the first prune; shorten BENCH_DURATION');
  let left = before;
  for (let i = 0; i < 60 && left >= before; i++) {
    await sleep(2_000);
    left = await olderThan(db, days);
  }
  log(`→ ${run.read.name}, while the pruner deletes (${before - left} deleted so far)`);
  const busy = await drive(
    { ...run.read, name: run.read.name.replace(/@.*/, '@while-pruning') },
    opts,
    () => samplePeak(server.rss),
    server.meters,
  );
  const after = await olderThan(db, days);
  const share = busy.rps / quiet.rps;
  const still =
    after > 0
      ? `the pruner still had ${after} to go when the reads ended`
      : 'the prune ended before the reads did';
  return {
    rows: [quiet, busy],
    verdict:
      `pruning: reads while the pruner deleted ${left - after} of ${before} audit events ran at ` +
      `${(share * 100).toFixed(0)} % of the quiet rate (${busy.rps.toFixed(0)} vs ${quiet.rps.toFixed(0)} req/s, ` +
      `CPU/req ${(busy.serverCpuMs + busy.databaseCpuMs).toFixed(2)} vs ${(quiet.serverCpuMs + quiet.databaseCpuMs).toFixed(2)} ms); ` +
      `${still} ${share >= 0.8 ? '✓' : '✗ (≥ 80 %)'}`,
  };
}
