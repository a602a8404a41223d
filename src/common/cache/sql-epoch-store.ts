import { DataSource, EntityManager } from 'typeorm';
import { inTransaction, retried } from '../sql/transaction';
import { Advance, EpochRead, EpochStore } from './change-epoch';
import { readRows } from '../../persistence/pool-reads';
import { mysqlPool } from '../../persistence/mysql-pool';
import { BatchedStatement, BatchedTransactions } from '../../persistence/batched-transactions';

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
  /** MySQL/MariaDB: the advances' own connection; SQLite has no round trips to save. */
  private readonly batches: BatchedTransactions | undefined;

  constructor(private readonly ds: DataSource) {
    this.q = (name) => ds.driver.escape(name);
    this.batches = mysqlPool(ds) ? new BatchedTransactions(ds) : undefined;
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
   * Every write request waits for one (ChangeEpoch.flush), so on MySQL/MariaDB the advance is one
   * round trip: its transaction goes as one batch on a connection of its own
   * (persistence/batched-transactions.ts), retried after a lost deadlock as `inTransaction` would.
   * Four round trips cost every write ~0.2 ms of server CPU more, and its answer three network
   * round trips more (docs/benchmarks.md).
   */
  async advance(what: Advance): Promise<void> {
    const batches = this.batches;
    if (batches) {
      await retried(() => batches.run(this.advanceMysql(what)));
      return;
    }
    await inTransaction(this.ds, (m) => this.advanceSqlite(m, what));
  }

  /** Closes the advances' connection (Nest calls it through ChangeEpoch at shutdown). */
  close(): Promise<void> {
    return this.batches?.close() ?? Promise.resolve();
  }

  /** The rows to add one to: ALL always; TRACKED unless the tables are not known; ACCESS if asked. */
  private rows(what: Advance): number[] {
    return [ALL, ...(what.access ? [ACCESS] : []), ...(what.everything ? [] : [TRACKED])];
  }

  private advanceMysql(what: Advance): BatchedStatement[] {
    const { q } = this;
    // The new value of ALL stays in the connection (LAST_INSERT_ID) for the stamps below.
    const statements: BatchedStatement[] = [
      {
        sql:
          `UPDATE ${q('change_epoch')} SET ${q('value')} = CASE WHEN ${q('id')} = ${ALL}` +
          ` THEN LAST_INSERT_ID(${q('value')} + 1) ELSE ${q('value')} + 1 END WHERE ${q('id')} IN (${this.rows(what).join(', ')})`,
      },
    ];
    if (what.everything || !what.tables.length) return statements;
    statements.push({
      sql:
        `INSERT INTO ${q('changed_tables')} (${q('name')}, ${q('stamp')}) VALUES ` +
        what.tables.map(() => '(?, LAST_INSERT_ID())').join(', ') +
        ` ON DUPLICATE KEY UPDATE ${q('stamp')} = GREATEST(${q('stamp')}, VALUES(${q('stamp')}))`,
      params: what.tables,
    });
    return statements;
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
