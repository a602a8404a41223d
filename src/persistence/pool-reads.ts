import { DataSource, EntityManager, QueryFailedError } from 'typeorm';
import { mysqlPool } from './mysql-pool';
import { statementOn } from './prepared-statements';
import { noteReadOnly } from './statement-tracking';

/**
 * The rows of one SELECT outside any transaction. On MySQL/MariaDB it runs on the driver's pool
 * directly: TypeORM's `DataSource.query` builds a query runner, a promise wrapper of the
 * connection, its broadcaster's events and a copy of the rows for every statement, which the hot
 * reads (RowReader) pay on every request. What stays the same: the pool and its acquisition
 * deadline (mysql-pool.ts), the statement tracking (the tables read are noted as the runners
 * note them), and the error (a QueryFailedError around the driver's, as the runner throws).
 * A statement that writes, and every statement on SQLite, goes through `DataSource.query`.
 *
 * It runs as a prepared statement (mysql2's `execute`, remembered per connection): the server
 * parses a statement text once per connection instead of on every request, and the driver sends
 * the parameters as they are instead of quoting them into the text. For the policy-set relations
 * (a UNION of six parts) that is 40 % less database CPU and 35 % less driver CPU per statement
 * (docs/benchmarks.md). The rows read the same as through `query`. Parameters `execute` cannot
 * bind as `query` does (a list expanded into `IN (?)`, an object) go the text way.
 */
export function readRows<R = Record<string, unknown>>(
  ds: DataSource,
  sql: string,
  params: unknown[] = [],
): Promise<R[]> {
  const pool = mysqlPool(ds);
  if (!pool || !noteReadOnly(ds, sql)) return ds.query(sql, params);
  return new Promise((resolve, reject) => {
    statementOn(pool, sql, params, (err, rows) => {
      if (err) reject(new QueryFailedError(sql, params, err));
      else resolve(rows as R[]);
    });
  });
}

/**
 * `readRows` through `manager`: inside a transaction on its connection (TypeORM's runner, so the
 * statement sees the transaction's writes and takes its locks); outside one, on the pool directly.
 */
export function readRowsWith<R = Record<string, unknown>>(
  manager: EntityManager,
  sql: string,
  params: unknown[] = [],
): Promise<R[]> {
  return manager.queryRunner ? manager.query(sql, params) : readRows<R>(manager.connection, sql, params);
}
