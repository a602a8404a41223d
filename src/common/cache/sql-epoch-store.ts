import { DataSource, EntityManager } from 'typeorm';
import { inTransaction, retried } from '../sql/transaction';
import { Advance, EpochRead, EpochStore } from './change-epoch';
import { readRows } from '../../persistence/pool-reads';
import { mysqlPool } from '../../persistence/mysql-pool';
import { PooledStatement, transactionOnPool } from '../../persistence/pool-writes';

/** Row ids in `change_epoch`: every advance; access; advances that named their tables. */
const ALL = 1;
const ACCESS = 2;
const TRACKED = 3;

/** The tables the counters live in: statements on them are not changes of anything a reader sees. */
export const EPOCH_TABLES = ['change_epoch', 'changed_tables'] as const;

/**
 * The `change_epoch` counters and the `changed_tables` stamps. An advance is one transaction: it
 * moves the counter every advance moves (its row lock orders the advances of all processes), and
 * stamps the written tables with the counter's new value, so a reader's one-statement snapshot that
 * shows the counter at N shows every stamp up to N, and the next read asks only for newer stamps.
 */
export class SqlEpochStore implements EpochStore {
  private readonly q: (name: string) => string;

  constructor(private readonly ds: DataSource) {
    this.q = (name) => ds.driver.escape(name);
  }

  async read(after: number): Promise<EpochRead> {
    const { q } = this;
    const rows = await readRows<{ id: unknown; name: string | null; value: unknown }>(
      this.ds,
      `SELECT ${q('id')} AS id, NULL AS name, ${q('value')} AS value FROM ${q('change_epoch')}` +
        ` UNION ALL SELECT NULL, ${q('name')}, ${q('stamp')} FROM ${q('changed_tables')} WHERE ${q('stamp')} > ?`,
      [after],
    );
    const read: EpochRead = { all: 0, access: 0, tracked: 0, tables: [] };
    for (const row of rows) {
      const value = Number(row.value);
      if (row.name !== null) read.tables.push([row.name, value]);
      else if (Number(row.id) === ALL) read.all = value;
      else if (Number(row.id) === ACCESS) read.access = value;
      else if (Number(row.id) === TRACKED) read.tracked = value;
    }
    return read;
  }

  /**
   * Every write request waits for one (ChangeEpoch.flush): on MySQL/MariaDB it runs on a pooled
   * connection beside TypeORM's query runner (persistence/pool-writes.ts), retried after a lost
   * deadlock as `inTransaction` would.
   */
  advance(what: Advance): Promise<void> {
    const pool = mysqlPool(this.ds);
    if (pool) return retried(() => transactionOnPool(pool, this.ds, (run) => this.advanceMysql(run, what)));
    return inTransaction(this.ds, (m) => this.advanceSqlite(m, what));
  }

  /** The rows to add one to: ALL always; TRACKED unless the tables are not known; ACCESS if asked. */
  private rows(what: Advance): number[] {
    return [ALL, ...(what.access ? [ACCESS] : []), ...(what.everything ? [] : [TRACKED])];
  }

  private async advanceMysql(run: PooledStatement, what: Advance): Promise<void> {
    const { q } = this;
    // The new value of ALL stays in the connection (LAST_INSERT_ID) for the stamps below.
    await run(
      `UPDATE ${q('change_epoch')} SET ${q('value')} = CASE WHEN ${q('id')} = ${ALL}` +
        ` THEN LAST_INSERT_ID(${q('value')} + 1) ELSE ${q('value')} + 1 END WHERE ${q('id')} IN (${this.rows(what).join(', ')})`,
    );
    if (what.everything || !what.tables.length) return;
    await run(
      `INSERT INTO ${q('changed_tables')} (${q('name')}, ${q('stamp')}) VALUES ` +
        what.tables.map(() => '(?, LAST_INSERT_ID())').join(', ') +
        ` ON DUPLICATE KEY UPDATE ${q('stamp')} = GREATEST(${q('stamp')}, VALUES(${q('stamp')}))`,
      [...what.tables],
    );
  }

  private async advanceSqlite(m: EntityManager, what: Advance): Promise<void> {
    const { q } = this;
    const rows = await m.query<{ id: unknown; value: unknown }[]>(
      `UPDATE ${q('change_epoch')} SET ${q('value')} = ${q('value')} + 1 WHERE ${q('id')} IN (${this.rows(what).join(', ')}) RETURNING ${q('id')} AS id, ${q('value')} AS value`,
    );
    if (what.everything || !what.tables.length) return;
    const stamp = Number(rows.find((r) => Number(r.id) === ALL)?.value);
    await m.query(
      `INSERT INTO ${q('changed_tables')} (${q('name')}, ${q('stamp')}) VALUES ` +
        what.tables.map(() => '(?, ?)').join(', ') +
        ` ON CONFLICT (${q('name')}) DO UPDATE SET ${q('stamp')} = MAX(${q('stamp')}, excluded.${q('stamp')})`,
      what.tables.flatMap((t) => [t, stamp]),
    );
  }
}
