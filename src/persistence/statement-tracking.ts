import { DataSource, QueryRunner } from 'typeorm';
import { StatementEffect, StatementTables } from './statement-tables';

/** Who is told what the statements did. */
export interface StatementSink {
  /** Tables a SELECT read, for the computation that ran it. */
  read(tables: readonly string[]): void;
  /** Tables a write changed: at its end outside a transaction, at the commit of its transaction inside one. */
  wrote(tables: readonly string[] | 'all'): void;
  /** Tables a statement of an open transaction changed, at the statement's end (not yet committed). */
  noted(tables: readonly string[] | 'all'): void;
}

const TRACKED = Symbol('statement-tracking');

type Query = QueryRunner['query'];
type TrackedRunner = QueryRunner & { [TRACKED]?: true };

/**
 * Every statement the data source runs, whatever issued it (repositories, query builders, raw
 * queries, migrations), passes through its query runner's `query`: this wraps it on every runner
 * the driver hands out. A write is reported when it ends; inside a transaction it is noted when it
 * ends (for the process's own caches) and reported when the outermost transaction commits (a
 * reader told of it in between could read the rows as they were before the commit), and only noted
 * if it rolls back.
 */
export function trackStatements(ds: DataSource, tables: StatementTables, sink: StatementSink): void {
  trackers.set(ds, { tables, sink });
  const driver = ds.driver as { createQueryRunner(mode: string): QueryRunner };
  const create = driver.createQueryRunner.bind(driver);
  driver.createQueryRunner = (mode: string) => track(create(mode), tables, sink);
}

const trackers = new WeakMap<DataSource, { tables: StatementTables; sink: StatementSink }>();

/**
 * For a read run beside the query runners (pool-reads.ts): tells the sink what it reads, as the
 * runners do, and answers whether it reads only. A statement that writes goes through a runner or
 * through pool-writes.ts (`noteStatement`), which reports the write at its end.
 */
export function noteReadOnly(ds: DataSource, sql: string): boolean {
  const tracker = trackers.get(ds);
  if (!tracker) return true;
  return !noteEffect(tracker.tables, tracker.sink, sql).writes;
}

/**
 * For a statement that may write, run beside the query runners and outside any transaction
 * (pool-writes.ts): tells the sink what it reads as it starts, and returns what to call once it
 * has run, or failed (a statement that timed out on the client may still have run), which tells
 * the sink what it wrote, as a runner does at a statement's end.
 */
export function noteStatement(ds: DataSource, sql: string): () => void {
  const tracker = trackers.get(ds);
  if (!tracker) return () => undefined;
  const { writes } = noteEffect(tracker.tables, tracker.sink, sql);
  return writes ? () => tracker.sink.wrote(writes) : () => undefined;
}

/**
 * What a statement does, its reads told to the sink as it starts. Its writes are the caller's to
 * report, once the statement has run.
 */
function noteEffect(tables: StatementTables, sink: StatementSink, sql: string): StatementEffect {
  const effect = tables.effectOf(sql);
  if (effect.reads.length) sink.read(effect.reads);
  return effect;
}

function track(runner: TrackedRunner, tables: StatementTables, sink: StatementSink): QueryRunner {
  if (runner[TRACKED]) return runner;
  runner[TRACKED] = true;
  const query = runner.query.bind(runner) as (...args: unknown[]) => Promise<unknown>;
  /** What the open transaction wrote, to report at its commit. */
  let pending: Set<string> | 'all' | null = null;

  const noteWrite = (writes: readonly string[] | 'all') => {
    if (!runner.isTransactionActive) {
      sink.wrote(writes);
      return;
    }
    sink.noted(writes);
    if (writes === 'all' || pending === 'all') pending = 'all';
    else {
      pending ??= new Set();
      for (const t of writes) pending.add(t);
    }
  };

  runner.query = ((sql: string, ...rest: unknown[]) => {
    const writes = noteEffect(tables, sink, sql).writes;
    if (writes) {
      // Also when it failed: a statement that timed out on the client may still have run.
      return query(sql, ...rest).finally(() => noteWrite(writes));
    }
    if (sql === 'COMMIT' || sql === 'ROLLBACK') {
      const announce = () => {
        const wrote = pending;
        pending = null;
        if (sql === 'COMMIT' && wrote) sink.wrote(wrote === 'all' ? 'all' : [...wrote]);
      };
      // A COMMIT that failed on the client (a lost connection) may still have committed: announced.
      return query(sql, ...rest).finally(announce);
    }
    return query(sql, ...rest);
  }) as Query;
  return runner;
}
