import { DataSource, QueryFailedError } from 'typeorm';
import { withinTransaction } from '../common/sql/transaction-scope';
import { Mysql2Connection, Mysql2Pool } from './mysql-pool';
import { statementOn } from './pool-reads';
import { noteStatement } from './statement-tracking';

/*
 * Writes on MySQL/MariaDB beside TypeORM's query runners, for the statements every write request
 * pays: a runner costs a promise wrapper of the connection (and a `require` inside mysql2 to make
 * it), its broadcaster's events and a copy of the result, per statement. What stays the same as
 * through a runner: the pool and its acquisition deadline (mysql-pool.ts), the statement tracking
 * (what a statement wrote is noted at its end and again at its transaction's commit), and the
 * error (a QueryFailedError around the driver's). The callers retry and guard
 * (common/sql/transaction.ts: runStatement; common/cache/sql-epoch-store.ts).
 */

/** A statement on the transaction's connection: its rows, or mysql2's result header for a write. */
export type PooledStatement = <R = unknown>(sql: string, params?: unknown[]) => Promise<R>;

/**
 * One statement on its own, on whichever pooled connection is free: it commits by itself. Runs
 * prepared where its parameters allow (`statementOn`, as readRows). Resolves with the rows it changed.
 */
export function writeOnPool(
  pool: Mysql2Pool,
  ds: DataSource,
  sql: string,
  params: unknown[],
): Promise<number> {
  const wrote = noteStatement(ds, sql);
  return new Promise((resolve, reject) => {
    statementOn(pool, sql, params, (err, result) => {
      // Also when it failed: a statement that timed out on the client may still have run.
      wrote();
      if (err) reject(new QueryFailedError(sql, params, err));
      else resolve(affectedRows(result));
    });
  });
}

/**
 * Runs `work` in one transaction on one pooled connection. A failure of `work` or of the commit
 * rolls back; a connection whose rollback fails is closed rather than given back. Writes are noted
 * at each statement's end and again after the commit (a reader that learnt of them in between may
 * have read the rows before the commit).
 */
export async function transactionOnPool<T>(
  pool: Mysql2Pool,
  ds: DataSource,
  work: (statement: PooledStatement) => Promise<T>,
): Promise<T> {
  const connection = await new Promise<Mysql2Connection>((resolve, reject) =>
    pool.getConnection((err, c) => (err || !c ? reject(failed('START TRANSACTION', [], err)) : resolve(c))),
  );
  const writes: (() => void)[] = [];
  const statement: PooledStatement = <R>(sql: string, params: unknown[] = []) => {
    const wrote = noteStatement(ds, sql);
    writes.push(wrote);
    return new Promise<R>((resolve, reject) =>
      statementOn(connection, sql, params, (err, result) => {
        wrote();
        if (err) reject(failed(sql, params, err));
        else resolve(result as R);
      }),
    );
  };
  try {
    await plain(connection, 'START TRANSACTION');
    const result = await withinTransaction(() => work(statement));
    await plain(connection, 'COMMIT');
    for (const wrote of writes) wrote();
    connection.release();
    return result;
  } catch (err) {
    await plain(connection, 'ROLLBACK').then(
      () => connection.release(),
      () => connection.destroy(),
    );
    throw err;
  }
}

/** Statements that cannot be prepared (transaction control) go as text. */
function plain(connection: Mysql2Connection, sql: string): Promise<void> {
  return new Promise((resolve, reject) =>
    connection.query(sql, [], (err) => (err ? reject(failed(sql, [], err)) : resolve())),
  );
}

function failed(sql: string, params: unknown[], err: Error | null | undefined): QueryFailedError {
  return new QueryFailedError(sql, params, err ?? new Error('no connection'));
}

function affectedRows(result: unknown): number {
  const header = result as { affectedRows?: unknown } | undefined;
  return typeof header?.affectedRows === 'number' ? header.affectedRows : 0;
}
