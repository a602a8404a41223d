import { DataSource } from 'typeorm';
import { Mysql2Connection, mysqlPool, Mysql2Pool, onFirstHandOut, StatementCallback } from './mysql-pool';

/*
 * Prepared statements on MySQL/MariaDB. A statement sent prepared (mysql2's `execute`) is parsed
 * by the server once per connection instead of on every call, and its parameters travel as they
 * are instead of quoted into its text: less CPU on both sides of every round trip. mysql2 keeps a
 * connection's prepared statements by text, least recently used closed first
 * (`maxPreparedStatements`, data-source-options.ts).
 */

/**
 * More parameters than this go as text: such statements (multi-row inserts of varying length)
 * are seldom sent twice with the same text, so preparing them would only push the hot statements
 * out of the connection's cache, and the protocol binds at most 65,535.
 */
export const PREPARED_PARAMS_MAX = 256;

/** The statements that run prepared: reads and row writes (not transaction control, DDL, SET…). */
const PREPARABLE = /^\s*(?:\/\*[\s\S]*?\*\/\s*)*(?:select|insert|update|delete|replace|with)\b/i;

/** The server refused to prepare: its limit of prepared statements (max_prepared_stmt_count, shared by every connection) or of parameters. */
const PREPARE_REFUSED = new Set([1461, 1390]);

/**
 * Runs one statement on a pool or a pooled connection: prepared (`execute`) where its parameters
 * allow, else as text (`query`). Where the server refuses to prepare it (its shared limit of
 * prepared statements reached), it runs as text: nothing ran, so nothing runs twice.
 */
export function statementOn(
  target: Pick<Mysql2Connection, 'query' | 'execute'>,
  sql: string,
  params: unknown[],
  done: StatementCallback,
): void {
  const prepared = bindable(params);
  if (!prepared) {
    target.query(sql, params, done);
    return;
  }
  target.execute(sql, prepared, (err, result, fields) => {
    if (err && PREPARE_REFUSED.has((err as { errno?: number }).errno ?? 0)) target.query(sql, params, done);
    else done(err, result, fields);
  });
}

/**
 * The parameters as a prepared statement binds them, or undefined when one cannot be bound as
 * `query` would quote it (a list expanded into `IN (?)`, an object) or there are too many.
 * `undefined` is NULL to `query` and an error to `execute`: NULL here too.
 */
export function bindable(params: unknown[]): unknown[] | undefined {
  if (params.length > PREPARED_PARAMS_MAX) return undefined;
  let out: unknown[] | undefined;
  for (let i = 0; i < params.length; i++) {
    const value = params[i];
    if (value === undefined) {
      out ??= params.slice();
      out[i] = null;
    } else if (
      typeof value === 'object' &&
      value !== null &&
      !(value instanceof Date) &&
      !Buffer.isBuffer(value)
    ) {
      return undefined;
    }
  }
  return out ?? params;
}

const preparing = new WeakSet<Mysql2Pool>();

/**
 * Sends the statements of TypeORM's query runners (every transaction's, and an entity manager's
 * outside one) prepared where `statementOn` would: a read or row write with parameters it can
 * bind. Each pooled connection's `query` is wrapped once, as it is first handed out; transaction
 * control, DDL, statements without parameters and mysql2's own pool calls (a command object) go
 * on as text. The rows and result headers read the same either way (the e2e suite runs on
 * MariaDB with this in place).
 */
export function prepareRunnerStatements(ds: DataSource): void {
  const pool = mysqlPool(ds);
  if (!pool || preparing.has(pool)) return;
  preparing.add(pool);
  onFirstHandOut(pool, preparedByDefault);
}

/** `c.query(sql, values, cb)` through `statementOn` where the statement may run prepared. */
export function preparedByDefault(c: Mysql2Connection): void {
  const direct = { query: c.query.bind(c), execute: c.execute.bind(c) };
  c.query = (...args: unknown[]) => {
    const [sql, values, cb] = args;
    if (typeof sql === 'string' && Array.isArray(values) && values.length > 0 && typeof cb === 'function') {
      if (PREPARABLE.test(sql)) return statementOn(direct, sql, values, cb as StatementCallback);
    }
    // mysql2's pool reads the command `query` answers (to release the connection at its end).
    return (direct.query as (...a: unknown[]) => unknown)(...args);
  };
}
