import { DataSource, EntityManager } from 'typeorm';
import { inTransaction, retried } from '../sql/transaction';
import { Advance, EpochRead, EpochStore } from './change-epoch';
import type { LeaseStore, MemberState } from './epoch-lease';
import { readRows } from '../../persistence/pool-reads';
import { mysqlPool } from '../../persistence/mysql-pool';
import { BatchedStatement, BatchedTransactions } from '../../persistence/batched-transactions';

/** Row ids in `change_epoch`: every advance; access; advances that named their tables. */
const ALL = 1;
const ACCESS = 2;
const TRACKED = 3;
/** The members' lock (EpochLease): every join, renewal and leave updates this row first. */
const MEMBERS_LOCK = 4;

/** The tables the counters live in: statements on them are not changes of anything a reader sees. */
export const EPOCH_TABLES = ['change_epoch', 'changed_tables', 'epoch_members'] as const;

/** The database's clock in milliseconds since 1970, as leases are kept (`epoch_members.lease_until`). */
export const DATABASE_NOW_MS = {
  mysql: 'CAST(UNIX_TIMESTAMP(NOW(3)) * 1000 AS SIGNED)',
  sqlite: "CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)",
} as const;

/**
 * The `change_epoch` counters and the `changed_tables` stamps. An advance is one transaction: it
 * moves the counter every advance moves (its row lock orders the advances of all processes), and
 * stamps the written tables with the counter's new value, so a reader's one-statement snapshot that
 * shows the counter at N shows every stamp up to N, and the next read asks only for newer stamps.
 */
export class SqlEpochStore implements EpochStore, LeaseStore {
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

  join(id: string, leaseMs: number): Promise<MemberState> {
    return this.members(id, (now) => [
      {
        sql: `INSERT INTO ${this.q('epoch_members')} (${this.q('id')}, ${this.q('lease_until')}, ${this.q('alone')})
          SELECT ?, ${now} + ?, CASE WHEN COUNT(*) = 0 THEN 1 ELSE 0 END FROM ${this.q('epoch_members')}`,
        params: [id, leaseMs],
      },
    ]).then((state) => state!);
  }

  renew(id: string, leaseMs: number): Promise<MemberState | null> {
    const { q } = this;
    const others = `SELECT COUNT(*) FROM ${q('epoch_members')} WHERE ${q('id')} <> ?`;
    // MySQL refuses a subquery on the table an UPDATE changes: there the count goes through a variable.
    const [counted, count, countParams]: [BatchedStatement[], string, string[]] = this.batches
      ? [[{ sql: others.replace(' FROM', ' INTO @plinth_others FROM'), params: [id] }], '@plinth_others', []]
      : [[], `(${others})`, [id]];
    return this.members(id, (now) => [
      ...counted,
      {
        sql: `UPDATE ${q('epoch_members')} SET ${q('lease_until')} = ${now} + ?,
          ${q('alone')} = CASE WHEN ${count} = 0 THEN 1 ELSE ${q('alone')} END WHERE ${q('id')} = ?`,
        params: [leaseMs, ...countParams, id],
      },
    ]);
  }

  async share(id: string): Promise<void> {
    await this.inMembersLock([
      {
        sql: `UPDATE ${this.q('epoch_members')} SET ${this.q('alone')} = 0 WHERE ${this.q('id')} = ?`,
        params: [id],
      },
    ]);
  }

  async leave(id: string): Promise<void> {
    await this.inMembersLock([
      { sql: `DELETE FROM ${this.q('epoch_members')} WHERE ${this.q('id')} = ?`, params: [id] },
    ]);
  }

  /** Closes the advances' connection (Nest calls it through ChangeEpoch at shutdown). */
  close(): Promise<void> {
    return this.batches?.close() ?? Promise.resolve();
  }

  /**
   * Under the members' lock: drops the expired members, runs `change` (which may use `now`, the
   * database's clock in milliseconds), and reads where `id` stands; null when it is not a member.
   */
  private async members(
    id: string,
    change: (now: string) => BatchedStatement[],
  ): Promise<MemberState | null> {
    const { q } = this;
    const now = DATABASE_NOW_MS[this.batches ? 'mysql' : 'sqlite'];
    const results = await this.inMembersLock([
      { sql: `DELETE FROM ${q('epoch_members')} WHERE ${q('lease_until')} <= ${now}` },
      ...change(now),
      {
        sql: `SELECT m.${q('alone')} AS alone,
            (SELECT COUNT(*) FROM ${q('epoch_members')} WHERE ${q('id')} <> ?) AS others,
            (SELECT COUNT(*) FROM ${q('epoch_members')} WHERE ${q('id')} <> ? AND ${q('alone')} <> 0) AS others_alone
          FROM ${q('epoch_members')} m WHERE m.${q('id')} = ?`,
        params: [id, id, id],
      },
    ]);
    const [row] = results[results.length - 1] as { alone: unknown; others: unknown; others_alone: unknown }[];
    if (!row) return null;
    return {
      alone: Number(row.alone) !== 0,
      others: Number(row.others),
      othersAlone: Number(row.others_alone),
    };
  }

  /** The statements as one transaction that first takes the members' lock; each one's result. */
  private async inMembersLock(statements: BatchedStatement[]): Promise<unknown[]> {
    const { q } = this;
    const all: BatchedStatement[] = [
      {
        sql: `UPDATE ${q('change_epoch')} SET ${q('value')} = ${q('value')} + 1 WHERE ${q('id')} = ${MEMBERS_LOCK}`,
      },
      ...statements,
    ];
    const batches = this.batches;
    if (batches) return (await retried(() => batches.run(all))).slice(1);
    return inTransaction(this.ds, async (m) => {
      const results: unknown[] = [];
      for (const s of all) results.push(await m.query(s.sql, s.params ? [...s.params] : undefined));
      return results.slice(1);
    });
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
