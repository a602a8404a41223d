import { resolve } from 'node:path';
import {
  DataSource,
  EntityManager,
  EntityTarget,
  FindOptionsOrder,
  FindOptionsSelect,
  FindOptionsWhere,
  MoreThan,
  ObjectLiteral,
  ObjectType,
  Repository,
  SelectQueryBuilder,
} from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { isRetryableTransactionError } from '../errors/db-errors';
import { mysqlPool } from '../../persistence/mysql-pool';
import { writeOnPool } from '../../persistence/pool-writes';
import { inOwnTurn } from '../../persistence/sqlite-transactions';
import { holdsTransaction, SecondConnectionError, withinTransaction } from './transaction-scope';

/**
 * A data source has one SQLite connection: its transactions take turns through this queue instead
 * of nesting on it. Other processes' transactions on the same file wait for the write lock at their
 * BEGIN (persistence/sqlite-transactions.ts).
 */
class SerialQueue {
  private tail: Promise<unknown> = Promise.resolve();

  run<T>(work: () => Promise<T>): Promise<T> {
    const result = this.tail.then(work, work);
    this.tail = result.catch(() => undefined);
    return result;
  }
}

/**
 * One queue per database file, shared by every data source of the process that opens it: waiting
 * for the write lock blocks the thread (better-sqlite3 is synchronous), so a transaction must never
 * begin while another of the same process holds that lock, or neither could go on until the busy
 * timeout ran out. An in-memory database is a connection's own.
 */
const fileQueues = new Map<string, SerialQueue>();
const memoryQueues = new WeakMap<DataSource, SerialQueue>();

function queueFor(ds: DataSource): SerialQueue | undefined {
  const o = ds.options;
  if (o.type !== 'better-sqlite3') return undefined;
  if (o.database === ':memory:') {
    let q = memoryQueues.get(ds);
    if (!q) memoryQueues.set(ds, (q = new SerialQueue()));
    return q;
  }
  const file = resolve(o.database);
  let q = fileQueues.get(file);
  if (!q) fileQueues.set(file, (q = new SerialQueue()));
  return q;
}

/**
 * Runs `work` in one transaction, again (up to `attempts` times) when it lost a deadlock. Every
 * query of `work` goes through its manager; with DB_TRANSACTION_GUARD a transaction inside a
 * transaction is refused, as is (on MySQL) any query on another connection.
 */
export async function inTransaction<T>(
  ds: DataSource,
  work: (manager: EntityManager) => Promise<T>,
  attempts = 4,
): Promise<T> {
  // On SQLite a nested transaction would wait forever in the queue behind its own parent.
  if (holdsTransaction()) throw new SecondConnectionError();
  const once = async () => {
    let committed: EntityManager | undefined;
    const begun = async (manager: EntityManager) => {
      committed = manager;
      return withinTransaction(() => work(manager));
    };
    // On SQLite, on a query runner of its own that other statements wait for (sqlite-transactions).
    const result = await (inOwnTurn(ds, begun) ?? ds.transaction(begun));
    if (committed) runAfterCommit(committed);
    return result;
  };
  const queue = queueFor(ds);
  return retried(() => (queue ? queue.run(once) : once()), attempts);
}

/** What each transaction asked to run once it has committed; an attempt that rolls back is forgotten. */
const afterCommits = new WeakMap<EntityManager, (() => void)[]>();

/**
 * Runs `effect` once the transaction of `manager` (one `inTransaction` attempt) has committed, and
 * never if it rolls back: telling others of rows they can only read after the commit. Outside a
 * transaction it runs at once. `effect` must not throw.
 */
export function afterCommit(manager: EntityManager, effect: () => void): void {
  if (!manager.queryRunner?.isTransactionActive) {
    effect();
    return;
  }
  const effects = afterCommits.get(manager);
  if (effects) effects.push(effect);
  else afterCommits.set(manager, [effect]);
}

function runAfterCommit(manager: EntityManager): void {
  const effects = afterCommits.get(manager);
  if (!effects) return;
  afterCommits.delete(manager);
  for (const effect of effects) effect();
}

/**
 * Runs `work`, which issues exactly one writing statement through its manager, atomically and with
 * the fewest round trips: on MySQL/MariaDB the statement commits by itself (no BEGIN and COMMIT
 * around it); on SQLite it takes its turn in the transaction queue, because the one connection may
 * be inside another request's transaction at that moment. Retried like `inTransaction`.
 */
export async function inOneStatement<T>(
  ds: DataSource,
  work: (manager: EntityManager) => Promise<T>,
  attempts = 4,
): Promise<T> {
  if (queueFor(ds)) return inTransaction(ds, work, attempts);
  if (holdsTransaction()) throw new SecondConnectionError();
  return retried(() => work(ds.manager), attempts);
}

/**
 * One writing statement on its own, like `inOneStatement`, without TypeORM's query runner on
 * MySQL/MariaDB (persistence/pool-writes.ts: a prepared statement on the pool). Resolves with the
 * rows it changed. Retried like `inTransaction`.
 */
export async function runStatement(
  ds: DataSource,
  sql: string,
  params: unknown[] = [],
  attempts = 4,
): Promise<number> {
  const pool = mysqlPool(ds);
  if (!pool) return inOneStatement(ds, (manager) => writeWith(manager, sql, params), attempts);
  if (holdsTransaction()) throw new SecondConnectionError();
  return retried(() => writeOnPool(pool, ds, sql, params), attempts);
}

/**
 * A writing statement through `manager` (inside a transaction, on its connection); resolves with
 * the rows it changed.
 */
export async function writeWith(
  manager: EntityManager,
  sql: string,
  params: unknown[] = [],
): Promise<number> {
  const runner = manager.queryRunner ?? manager.connection.createQueryRunner();
  try {
    const result = await runner.query(sql, params, true);
    return result.affected ?? 0;
  } finally {
    if (runner !== manager.queryRunner) await runner.release();
  }
}

/** Runs `once` again after a lost deadlock or lock wait, up to `attempts` times in all. */
export async function retried<T>(once: () => Promise<T>, attempts = 4): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await once();
    } catch (err) {
      if (attempt >= attempts || !isRetryableTransactionError(err)) throw err;
      await new Promise((r) => setTimeout(r, 5 * attempt + Math.random() * 20));
    }
  }
}

/**
 * Takes a row lock that serialises writers of one parent (e.g. an organization) for the rest of
 * the transaction; false when the row does not exist. On SQLite every transaction holds the
 * database's write lock from its BEGIN, so writers are serialised already, across processes too. Only the repository of the module that owns the table calls this:
 * other modules ask that module's service for an intent-named lock.
 */
export async function lockRow(
  manager: EntityManager,
  entity: ObjectType<{ id: string }>,
  id: string,
): Promise<boolean> {
  const table = manager.connection.getMetadata(entity).tableName;
  if (manager.connection.options.type === 'better-sqlite3') {
    const rows: unknown[] = await manager.query(`SELECT id FROM ${table} WHERE id = ?`, [id]);
    return rows.length > 0;
  }
  const rows: unknown[] = await manager.query(`SELECT id FROM ${table} WHERE id = ? FOR UPDATE`, [id]);
  return rows.length > 0;
}

/**
 * `qb` reading its rows locked for the rest of the transaction (`write`: FOR UPDATE, `share`: a
 * shared lock) where the database has row locks; on SQLite, whose transactions hold the write lock
 * from their BEGIN, it reads them as they are.
 */
export function withRowLock<T extends ObjectLiteral>(
  qb: SelectQueryBuilder<T>,
  mode: 'write' | 'share' = 'write',
): SelectQueryBuilder<T> {
  if (qb.connection.options.type === 'better-sqlite3') return qb;
  return qb.setLock(mode === 'write' ? 'pessimistic_write' : 'pessimistic_read');
}

/** A row whose value is sealed while it is sensitive (variables, policy-set parameters). */
interface SensitiveSealedRow {
  id: string;
  sensitive: boolean;
  sealedValue: string | null;
}

/** The sealed values of sensitive rows in id order after `afterId`: one batch of a key rotation. */
export async function sealedValuesAfter<T extends SensitiveSealedRow>(
  repo: Repository<T>,
  afterId: string,
  limit: number,
): Promise<{ id: string; wrapped: string }[]> {
  const rows = await repo.find({
    select: { id: true, sealedValue: true } as FindOptionsSelect<T>,
    where: { id: MoreThan(afterId), sensitive: true } as FindOptionsWhere<T>,
    order: { id: 'ASC' } as FindOptionsOrder<T>,
    take: limit,
  });
  return rows.flatMap((r) => (r.sealedValue ? [{ id: r.id, wrapped: r.sealedValue }] : []));
}

/**
 * Compare-and-set of one sealed column, as a key rotation re-wraps it: under the row's lock, `to`
 * replaces `from` only while the row still holds `from`. The comparison is made here, not in SQL,
 * because a JSON column compares differently on each database. Called by the repository that owns
 * `entity`.
 */
export async function replaceSealed<T extends ObjectLiteral>(
  manager: EntityManager,
  entity: EntityTarget<T>,
  where: FindOptionsWhere<T>,
  column: keyof T & string,
  from: string,
  to: string,
): Promise<boolean> {
  const repo = manager.getRepository(entity);
  // Named as well: a sealed column may be one the entity's reads leave out (`select: false`).
  const read = repo.createQueryBuilder('sealed').addSelect(`sealed.${column}`).where(where);
  const row = await withRowLock(read).getOne();
  if (!row || row[column] !== from) return false;
  await repo.update(where, { [column]: to } as unknown as QueryDeepPartialEntity<T>);
  return true;
}
