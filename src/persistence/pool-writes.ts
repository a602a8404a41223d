import { DataSource, QueryFailedError } from 'typeorm';
import { Mysql2Pool } from './mysql-pool';
import { statementOn } from './prepared-statements';
import { noteStatement } from './statement-tracking';

/*
 * Writes on MySQL/MariaDB beside TypeORM's query runners, for the single statements many write
 * requests pay: a runner costs a promise wrapper of the connection (and a `require` inside mysql2
 * to make it), its broadcaster's events and a copy of the result, per statement. What stays the
 * same as through a runner: the pool and its acquisition deadline (mysql-pool.ts), the statement
 * tracking (what a statement wrote is noted at its end), and the error (a QueryFailedError around
 * the driver's). The caller retries and guards (common/sql/transaction.ts: runStatement).
 */

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

function affectedRows(result: unknown): number {
  const header = result as { affectedRows?: unknown } | undefined;
  return typeof header?.affectedRows === 'number' ? header.affectedRows : 0;
}
