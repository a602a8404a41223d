/**
 * How the bench tells a running server that rows changed behind its back (its direct multi-row
 * INSERTs): as a process using the same database (src/common/cache/epoch-lease.ts). A server alone on
 * its database does not read the change counters, so the bench first joins its members, waits until
 * none is alone (the server reads the counters again), advances the counter of every change (the
 * server lets go of everything it remembered), and leaves.
 */
import { randomUUID } from 'node:crypto';
import type Database from 'better-sqlite3';
import type { Connection } from 'mysql2/promise';
import { DATABASE_NOW_MS } from '../../src/common/cache/sql-epoch-store';

/** Runs one statement on the bench's own connection; the rows of a SELECT. */
export type RunSql = (sql: string, params?: unknown[]) => Promise<Record<string, unknown>[]>;

export const mysqlRun =
  (c: Connection): RunSql =>
  async (sql, params) => {
    const [rows] = await c.query(sql, params);
    return Array.isArray(rows) ? (rows as Record<string, unknown>[]) : [];
  };

export const sqliteRun =
  (db: Database.Database): RunSql =>
  (sql, params = []) => {
    const statement = db.prepare(sql);
    return Promise.resolve(
      statement.reader
        ? (statement.all(...params) as Record<string, unknown>[])
        : (statement.run(...params), []),
    );
  };

export async function announceBulkChange(run: RunSql, dialect: 'mysql' | 'sqlite'): Promise<void> {
  const id = randomUUID();
  const now = DATABASE_NOW_MS[dialect];
  // Under the members' lock, as a server joins: a server alone either sees this member at its next
  // renewal or was marked alone before, which the wait below sees.
  await run(dialect === 'mysql' ? 'START TRANSACTION' : 'BEGIN IMMEDIATE');
  await run('UPDATE change_epoch SET value = value + 1 WHERE id = 4');
  await run(`INSERT INTO epoch_members (id, lease_until, alone) VALUES (?, ${now} + 600000, 0)`, [id]);
  await run('COMMIT');
  try {
    for (;;) {
      const [row] = await run(
        `SELECT COUNT(*) AS n FROM epoch_members WHERE id <> ? AND alone <> 0 AND lease_until > ${now}`,
        [id],
      );
      if (Number(row.n) === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await run('UPDATE change_epoch SET value = value + 1 WHERE id = 1');
  } finally {
    await run('DELETE FROM epoch_members WHERE id = ?', [id]);
  }
}
