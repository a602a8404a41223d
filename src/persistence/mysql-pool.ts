import { DataSource } from 'typeorm';
import { holdsTransaction, SecondConnectionError } from '../common/sql/transaction-scope';

/** How mysql2's callback API answers a statement: rows for a SELECT, a result header otherwise. */
export type StatementCallback = (err: Error | null, result?: unknown, fields?: unknown) => void;

/** The parts of a pooled mysql2 connection that Plinth uses beside TypeORM (pool-writes.ts). */
export interface Mysql2Connection {
  query(sql: string, values: unknown[], cb: StatementCallback): void;
  execute(sql: string, values: unknown[], cb: StatementCallback): void;
  release(): void;
  destroy(): void;
}

type Callback = (err: Error | null, connection?: Mysql2Connection) => void;

/** The parts of a mysql2 callback pool that Plinth reads (sizes) or wraps (acquisition). */
export interface Mysql2Pool {
  getConnection(cb: Callback): void;
  query(sql: string, values: unknown[], cb: StatementCallback): void;
  execute(sql: string, values: unknown[], cb: StatementCallback): void;
  _allConnections: { length: number };
  _freeConnections: { length: number };
  _connectionQueue: { length: number };
}

export interface PoolStats {
  /** Open connections, busy or idle. */
  all: number;
  free: number;
  /** Requests waiting for a connection. */
  queued: number;
}

export function mysqlPool(ds: DataSource): Mysql2Pool | undefined {
  if (ds.options.type !== 'mysql' && ds.options.type !== 'mariadb') return undefined;
  return (ds.driver as unknown as { pool?: Mysql2Pool }).pool;
}

export function poolStats(ds: DataSource): PoolStats | undefined {
  const pool = mysqlPool(ds);
  if (!pool) return undefined;
  return {
    all: pool._allConnections.length,
    free: pool._freeConnections.length,
    queued: pool._connectionQueue.length,
  };
}

/** Raised when no pooled connection could be had in time; mapped to 503 like other connection errors. */
export class PoolAcquireTimeoutError extends Error {
  readonly code = 'POOL_ACQUIRE_TIMEOUT';

  constructor(ms: number) {
    super(`no database connection became available within ${ms} ms`);
    this.name = 'PoolAcquireTimeoutError';
  }
}

/**
 * mysql2 pools queue waiters without limit in time: with the database gone, a request could wait
 * behind connection attempts for far longer than a client does. This bounds the wait; a connection
 * that arrives after its waiter gave up goes straight back to the pool. Under DB_TRANSACTION_GUARD,
 * code inside a transaction gets no second connection: waiting for one while holding the first can
 * deadlock the pool.
 */
export function enforceAcquireDeadline(ds: DataSource, ms: number): void {
  const pool = mysqlPool(ds);
  if (!pool) return;
  const acquire = pool.getConnection.bind(pool);
  pool.getConnection = (cb: Callback) => {
    if (holdsTransaction()) {
      cb(new SecondConnectionError());
      return;
    }
    let settled = false;
    const timer = setTimeout(() => {
      settled = true;
      cb(new PoolAcquireTimeoutError(ms));
    }, ms);
    acquire((err, connection) => {
      if (settled) {
        connection?.release();
        return;
      }
      settled = true;
      clearTimeout(timer);
      cb(err, connection);
    });
  };
}

/**
 * Runs `prepare` on each pooled connection once, as the pool first hands it out: how the wrappers
 * around a connection's own calls (statement counts, prepared statements) are put in place.
 */
export function onFirstHandOut(pool: Mysql2Pool, prepare: (c: Mysql2Connection) => void): void {
  const prepared = new WeakSet<Mysql2Connection>();
  const acquire = pool.getConnection.bind(pool);
  pool.getConnection = (cb: Callback) =>
    acquire((err, c) => {
      if (c && !prepared.has(c)) {
        prepared.add(c);
        prepare(c);
      }
      cb(err, c);
    });
}

const statementCounts = new WeakMap<Mysql2Pool, { sent: number }>();

/**
 * Counts every statement sent on the pool's connections (TypeORM's runners, the pool reads and
 * writes, transactions' BEGIN and COMMIT alike): each connection is wrapped once, as it is first
 * handed out. What a request or a run costs the database, exactly, whoever else uses that server.
 */
export function countStatements(ds: DataSource): void {
  const pool = mysqlPool(ds);
  if (!pool || statementCounts.has(pool)) return;
  const count = { sent: 0 };
  statementCounts.set(pool, count);
  onFirstHandOut(pool, (c) => {
    const [query, execute] = [c.query.bind(c), c.execute.bind(c)];
    c.query = (...args: Parameters<Mysql2Connection['query']>) => {
      count.sent++;
      // mysql2's own pool reads the command this answers: pass it on.
      return query(...args);
    };
    c.execute = (...args: Parameters<Mysql2Connection['execute']>) => {
      count.sent++;
      return execute(...args);
    };
  });
}

/** Statements sent since `countStatements` (undefined without it, or off MySQL). */
export function statementsSent(ds: DataSource): number | undefined {
  const pool = mysqlPool(ds);
  return pool && statementCounts.get(pool)?.sent;
}
