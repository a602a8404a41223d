import type { Pool, PoolConnection } from 'mysql2';
import { DataSource, QueryFailedError } from 'typeorm';
import { isConnectionError } from '../common/errors/db-errors';

/** One statement of a batch: its text, with `?` for `params` (quoted by the driver). */
export interface BatchedStatement {
  sql: string;
  params?: readonly unknown[];
}

/**
 * Short transactions of fixed statements on MySQL/MariaDB, each sent as one batch: `START
 * TRANSACTION; …; COMMIT` in one round trip instead of one per statement. The batch needs a
 * connection that accepts several statements in one text, which the data source's pool must never
 * do (a value quoted wrongly anywhere would then run whatever follows it), so the batches have a
 * pool of their own, of one connection, that runs only the statements its callers build from
 * fixed text and values the driver quotes. Batches take turns on it.
 *
 * Its statements bypass the statement tracking: a caller may only write tables nobody's reads
 * are remembered from (the change counters, common/cache/sql-epoch-store.ts).
 */
export class BatchedTransactions {
  /** Opened with the first batch: mysql2 is loaded only where MySQL/MariaDB is the database. */
  private pool: Promise<Pool> | undefined;
  private turn: Promise<unknown> = Promise.resolve();
  private closed = false;

  constructor(private readonly ds: DataSource) {}

  /** Runs the statements as one transaction; resolves with each statement's result, in order. */
  run(statements: readonly BatchedStatement[]): Promise<unknown[]> {
    const mine = this.turn.then(
      () => this.once(statements),
      () => this.once(statements),
    );
    this.turn = mine.catch(() => undefined);
    return mine;
  }

  /** Closes the connection once the batches already asked for have run. */
  async close(): Promise<void> {
    this.closed = true;
    await this.turn;
    const pool = await this.pool?.catch(() => undefined);
    this.pool = undefined;
    if (pool) await new Promise<void>((resolve) => pool.end(() => resolve()));
  }

  private async once(statements: readonly BatchedStatement[]): Promise<unknown[]> {
    const sql = ['START TRANSACTION', ...statements.map((s) => s.sql), 'COMMIT'].join('; ');
    const params = statements.flatMap((s) => s.params ?? []);
    const connection = await this.connection(sql, params);
    return new Promise((resolve, reject) => {
      connection.query(sql, params, (err, results) => {
        if (!err) {
          connection.release();
          // START TRANSACTION's result first and COMMIT's last.
          resolve((results as unknown[]).slice(1, -1));
          return;
        }
        const failed = new QueryFailedError(sql, [...params], err);
        // The batch stops at the failed statement: what ran before it is still open.
        if (isConnectionError(failed)) {
          connection.destroy();
          reject(failed);
          return;
        }
        connection.query('ROLLBACK', (rollbackErr) => {
          if (rollbackErr) connection.destroy();
          else connection.release();
          reject(failed);
        });
      });
    });
  }

  private async connection(sql: string, params: unknown[]): Promise<PoolConnection> {
    if (this.closed) {
      throw new QueryFailedError(sql, params, Object.assign(new Error('closed'), { code: 'POOL_CLOSED' }));
    }
    const pool = await (this.pool ??= this.open());
    return new Promise((resolve, reject) =>
      pool.getConnection((err, c) => (err ? reject(new QueryFailedError(sql, params, err)) : resolve(c))),
    );
  }

  private async open(): Promise<Pool> {
    const o = this.ds.options;
    if (o.type !== 'mysql' && o.type !== 'mariadb')
      throw new Error('batched transactions need MySQL or MariaDB');
    const { createPool } = await import('mysql2');
    return createPool({
      host: o.host,
      port: o.port,
      user: o.username,
      password: typeof o.password === 'string' ? o.password : undefined,
      database: o.database,
      charset: o.charset,
      connectTimeout: o.connectTimeout,
      connectionLimit: 1,
      // One caller at a time (run), so a waiter is only ever the next batch.
      queueLimit: 1,
      enableKeepAlive: true,
      multipleStatements: true,
      trace: false,
    });
  }
}
