import { DataSource, EntityManager, QueryFailedError, QueryRunner } from 'typeorm';
import { holdsTransaction, SecondConnectionError } from '../common/sql/transaction-scope';

/**
 * How long a statement on SQLite waits for a lock another process holds (better-sqlite3's
 * `timeout`: SQLite's busy timeout, set on every connection it opens) before it fails with
 * SQLITE_BUSY, which the exception filter answers with 503 and Retry-After. A statement from
 * outside this process's open transaction waits for it as long (ConnectionTurns).
 */
export const SQLITE_BUSY_TIMEOUT_MS = 10_000;

/** What TypeORM's SQLite query runners send to begin a transaction (not a savepoint). */
const DEFERRED_BEGIN = 'BEGIN TRANSACTION';
const IMMEDIATE_BEGIN = 'BEGIN IMMEDIATE TRANSACTION';

/** The mode `inOwnTurn` asks the driver for: the transactions' query runner, not the shared one. */
const TRANSACTIONS_MODE = 'transactions';

const PREPARED = Symbol('sqlite-runner');

type Runner = QueryRunner & { [PREPARED]?: true };

/**
 * One data source's SQLite connection, shared by two query runners: one for `inTransaction`'s
 * transactions and one for every other statement. They take turns (ConnectionTurns).
 */
interface SqliteConnection {
  turns: ConnectionTurns;
  /** The transactions' runner, with its manager; made at the first transaction (`inOwnTurn`). */
  transactions?: QueryRunner;
}

const connections = new WeakMap<DataSource, SqliteConnection>();

/**
 * On SQLite, prepares `ds`'s one connection for transactions that other requests of this process
 * cannot see into, and that other processes' wait for.
 *
 * Every transaction begins IMMEDIATE: it takes the database's one write lock at its BEGIN, waiting
 * up to the busy timeout while another process (a second worker, the admin CLI) holds it. TypeORM
 * begins them DEFERRED, taking the lock at the first write; a transaction that has read by then
 * cannot wait for the lock (SQLite answers SQLITE_BUSY at once, since two readers each waiting for
 * the other to finish would never end), nor write once another process has committed since its
 * first read (SQLITE_BUSY_SNAPSHOT): "database is locked". Within one process the transactions
 * already take turns (common/sql/transaction.ts), so this costs them nothing; it only orders them
 * with other processes'.
 *
 * A transaction's statements and everyone else's run on the same connection, so a statement from
 * outside an open transaction would read its rows before the commit (and those of one that then
 * rolls back), and a write from outside would become part of it. So `inTransaction` runs its
 * transactions on a query runner of their own (`inOwnTurn`), and the statements of the shared
 * runner wait while one is open.
 */
export function prepareSqliteConnection(ds: DataSource): void {
  if (ds.options.type !== 'better-sqlite3') return;
  const driver = ds.driver as { createQueryRunner(mode: string): QueryRunner };
  const create = driver.createQueryRunner.bind(driver);
  const connection: SqliteConnection = { turns: new ConnectionTurns() };
  connections.set(ds, connection);
  driver.createQueryRunner = (mode: string) => {
    const shared = create(mode);
    if (mode !== TRANSACTIONS_MODE) return outsideTransactions(shared, connection.turns);
    // The driver hands out its one runner every time: the transactions' runner is a second one on
    // the same connection (made once, by `inOwnTurn`).
    return immediate(new (shared.constructor as new (d: unknown) => QueryRunner)(driver));
  };
}

/**
 * Runs `work` in a transaction on `ds`'s transactions runner, once the statements of the shared
 * runner under way have ended; those that come meanwhile wait for its end. Undefined when `ds` is
 * not SQLite. One at a time: the caller takes its turn in the process's queue for the file first.
 */
export function inOwnTurn<T>(
  ds: DataSource,
  work: (manager: EntityManager) => Promise<T>,
): Promise<T> | undefined {
  const connection = connections.get(ds);
  if (!connection) return undefined;
  // ds.createQueryRunner gives the runner its manager (and the statement tracking wraps it).
  connection.transactions ??= ds.createQueryRunner(TRANSACTIONS_MODE as 'master');
  const manager = connection.transactions.manager;
  return connection.turns.transaction(() => manager.transaction(work));
}

function immediate(runner: Runner): Runner {
  if (runner[PREPARED]) return runner;
  runner[PREPARED] = true;
  const query = runner.query.bind(runner) as (sql: string, ...rest: unknown[]) => Promise<unknown>;
  runner.query = ((sql: string, ...rest: unknown[]) =>
    query(sql === DEFERRED_BEGIN ? IMMEDIATE_BEGIN : sql, ...rest)) as QueryRunner['query'];
  return runner;
}

/** The shared runner: its statements wait while a transaction of the transactions runner is open. */
function outsideTransactions(runner: Runner, turns: ConnectionTurns): QueryRunner {
  if (runner[PREPARED]) return runner;
  immediate(runner);
  const query = runner.query.bind(runner) as (sql: string, ...rest: unknown[]) => Promise<unknown>;
  runner.query = ((sql: string, ...rest: unknown[]) => {
    // Its own transactions (migrations, `ds.transaction`) are under way already: never wait on them.
    if (runner.isTransactionActive) return query(sql, ...rest);
    // Code in a transaction's work that forgot its manager would wait for its own transaction.
    if (holdsTransaction()) return Promise.reject(new SecondConnectionError());
    return turns.statement(() => query(sql, ...rest), sql, rest[0]);
  }) as QueryRunner['query'];
  return runner;
}

/**
 * Statements and transactions taking turns on one connection. Statements run together (the
 * driver runs one at a time anyway); a transaction begins once those under way have ended, and
 * statements that come while it waits or runs wait for its end and go before the next one. A
 * statement waits at most the busy timeout: past it, it fails as a lock held by another process
 * does (SQLITE_BUSY, a 503), rather than wait forever on a transaction that waits for it.
 */
export class ConnectionTurns {
  private running = 0;
  private drained: (() => void) | undefined;
  /** While a transaction waits for its turn or runs: resolves at its end. */
  private held: Promise<void> | undefined;
  /** The statements waiting for that end: it lets them all in at once. */
  private waiting: { count: number; admitted: boolean } | undefined;

  constructor(private readonly waitMs = SQLITE_BUSY_TIMEOUT_MS) {}

  async statement<T>(run: () => Promise<T>, sql = '', params: unknown = []): Promise<T> {
    if (this.held) await this.waitForTransaction(this.held, sql, params);
    else this.running++;
    try {
      return await run();
    } finally {
      if (--this.running === 0) this.drained?.();
    }
  }

  async transaction<T>(run: () => Promise<T>): Promise<T> {
    let end!: () => void;
    this.held = new Promise<void>((resolve) => (end = resolve));
    try {
      while (this.running > 0) await new Promise<void>((resolve) => (this.drained = resolve));
      this.drained = undefined;
      return await run();
    } finally {
      // Counted as running before the next transaction can begin: it waits for them.
      const waiting = this.waiting;
      this.waiting = undefined;
      if (waiting) {
        waiting.admitted = true;
        this.running += waiting.count;
      }
      this.held = undefined;
      end();
    }
  }

  /** Resolves once let in (counted as running); rejects, not counted, after `waitMs`. */
  private async waitForTransaction(held: Promise<void>, sql: string, params: unknown): Promise<void> {
    const waiting = (this.waiting ??= { count: 0, admitted: false });
    waiting.count++;
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<void>((resolve) => (timer = setTimeout(resolve, this.waitMs)));
    await Promise.race([held, timedOut]);
    clearTimeout(timer);
    if (waiting.admitted) return;
    waiting.count--;
    const busy = Object.assign(new Error('waited too long for a transaction of this process'), {
      code: 'SQLITE_BUSY',
    });
    throw new QueryFailedError(sql, Array.isArray(params) ? params : [], busy);
  }
}
