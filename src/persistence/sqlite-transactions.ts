import { DataSource, QueryRunner } from 'typeorm';

/**
 * How long a statement on SQLite waits for a lock another process holds (better-sqlite3's
 * `timeout`: SQLite's busy timeout, set on every connection it opens) before it fails with
 * SQLITE_BUSY, which the exception filter answers with 503 and Retry-After.
 */
export const SQLITE_BUSY_TIMEOUT_MS = 10_000;

/** What TypeORM's SQLite query runners send to begin a transaction (not a savepoint). */
const DEFERRED_BEGIN = 'BEGIN TRANSACTION';
const IMMEDIATE_BEGIN = 'BEGIN IMMEDIATE TRANSACTION';

const IMMEDIATE = Symbol('immediate-transactions');

type Runner = QueryRunner & { [IMMEDIATE]?: true };

/**
 * On SQLite, makes every transaction of `ds` begin IMMEDIATE: it takes the database's one write
 * lock at its BEGIN, waiting up to the busy timeout while another process (a second worker, the
 * admin CLI) holds it. TypeORM begins them DEFERRED, taking the lock at the first write; a
 * transaction that has read by then cannot wait for the lock (SQLite answers SQLITE_BUSY at once,
 * since two readers each waiting for the other to finish would never end), nor write once another
 * process has committed since its first read (SQLITE_BUSY_SNAPSHOT): "database is locked".
 * Within one process the transactions already take turns (common/sql/transaction.ts), so this
 * costs them nothing; it only orders them with other processes'.
 */
export function beginTransactionsImmediately(ds: DataSource): void {
  if (ds.options.type !== 'better-sqlite3') return;
  const driver = ds.driver as { createQueryRunner(mode: string): QueryRunner };
  const create = driver.createQueryRunner.bind(driver);
  driver.createQueryRunner = (mode: string) => immediate(create(mode));
}

function immediate(runner: Runner): QueryRunner {
  // The driver hands out the same runner (its one connection) every time.
  if (runner[IMMEDIATE]) return runner;
  runner[IMMEDIATE] = true;
  const query = runner.query.bind(runner) as (sql: string, ...rest: unknown[]) => Promise<unknown>;
  runner.query = ((sql: string, ...rest: unknown[]) =>
    query(sql === DEFERRED_BEGIN ? IMMEDIATE_BEGIN : sql, ...rest)) as QueryRunner['query'];
  return runner;
}
