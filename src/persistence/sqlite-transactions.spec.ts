import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { DataSource, QueryFailedError } from 'typeorm';
import { isDatabaseBusy } from '../common/errors/db-errors';
import { guardTransactions, SecondConnectionError } from '../common/sql/transaction-scope';
import { TtlMemo } from '../common/cache/ttl-memo';
import { inTransaction } from '../common/sql/transaction';
import { AppConfig } from '../config/app-config';
import { dataSourceOptions, newDataSource } from './data-source-options';
import { ConnectionTurns, SQLITE_BUSY_TIMEOUT_MS } from './sqlite-transactions';

/**
 * Another process's writer, played by a thread with a connection of its own: it takes the write
 * lock, says so, then inserts `row` and commits once `holdMs` have passed.
 */
function otherWriter(
  file: string,
  row: string,
  holdMs: number,
): { locked: Promise<void>; done: Promise<void> } {
  const worker = new Worker(
    `
    const { parentPort, workerData } = require('node:worker_threads');
    const Database = require('better-sqlite3');
    const db = new Database(workerData.file, { timeout: 0 });
    db.exec('BEGIN IMMEDIATE');
    parentPort.postMessage('locked');
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, workerData.holdMs);
    db.prepare('INSERT INTO events (who) VALUES (?)').run(workerData.row);
    db.exec('COMMIT');
    db.close();
    `,
    { eval: true, workerData: { file, row, holdMs } },
  );
  const locked = new Promise<void>((resolve, reject) => {
    worker.once('message', () => resolve());
    worker.once('error', reject);
  });
  const done = new Promise<void>((resolve, reject) => {
    worker.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`writer exited with ${code}`))));
    worker.once('error', reject);
  });
  return { locked, done };
}

describe('transactions on SQLite shared by several processes', () => {
  let dir: string;
  let file: string;
  let ds: DataSource;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'plinth-sqlite-tx-'));
    file = join(dir, 'plinth.sqlite');
    const options = dataSourceOptions(new AppConfig({ DATA_DIR: dir }));
    ds = await newDataSource({ ...options, migrations: [] }).initialize();
    await ds.query('CREATE TABLE events (n INTEGER PRIMARY KEY AUTOINCREMENT, who TEXT NOT NULL)');
  });

  afterEach(async () => {
    await ds.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  it('open the file in WAL mode with the busy timeout on the connection', async () => {
    expect(await ds.query('PRAGMA journal_mode')).toEqual([{ journal_mode: 'wal' }]);
    expect(await ds.query('PRAGMA busy_timeout')).toEqual([{ timeout: SQLITE_BUSY_TIMEOUT_MS }]);
  });

  it('begin IMMEDIATE: a transaction holds the write lock from its BEGIN, before it writes anything', async () => {
    const other = new Database(file, { timeout: 0 });
    try {
      const tried = await ds.transaction(async (m) => {
        await m.query('SELECT COUNT(*) AS n FROM events');
        try {
          other.exec('BEGIN IMMEDIATE');
          other.exec('ROLLBACK');
          return 'the other connection took the write lock';
        } catch (err) {
          return (err as { code?: string }).code;
        }
      });
      expect(tried).toBe('SQLITE_BUSY');
    } finally {
      other.close();
    }
  });

  it('wait for the write lock another process holds, then read its commit and write after it', async () => {
    const writer = otherWriter(file, 'other process', 300);
    await writer.locked;
    const seen = await ds.transaction(async (m) => {
      const rows = await m.query<{ who: string }[]>('SELECT who FROM events ORDER BY n');
      await m.query('INSERT INTO events (who) VALUES (?)', ['this process']);
      return rows.map((r) => r.who);
    });
    await writer.done;
    expect(seen).toEqual(['other process']);
    expect(await ds.query('SELECT who FROM events ORDER BY n')).toEqual([
      { who: 'other process' },
      { who: 'this process' },
    ]);
  });

  it('take turns with the transactions of another data source of the same process on the same file', async () => {
    const second = await newDataSource({ ...ds.options, migrations: [] }).initialize();
    try {
      const order: string[] = [];
      const first = inTransaction(ds, async (m) => {
        await m.query('INSERT INTO events (who) VALUES (?)', ['first']);
        // Holds the write lock across a turn of the event loop, as a transaction awaiting I/O does.
        await new Promise((r) => setTimeout(r, 50));
        order.push('first');
      });
      const next = inTransaction(second, async (m) => {
        await m.query('INSERT INTO events (who) VALUES (?)', ['second']);
        order.push('second');
      });
      await Promise.all([first, next]);
      expect(order).toEqual(['first', 'second']);
    } finally {
      await second.destroy();
    }
  });

  it('keep savepoints for transactions nested on one query runner', async () => {
    const runner = ds.createQueryRunner();
    await runner.startTransaction();
    await runner.query('INSERT INTO events (who) VALUES (?)', ['outer']);
    await runner.startTransaction();
    await runner.query('INSERT INTO events (who) VALUES (?)', ['inner']);
    await runner.rollbackTransaction();
    await runner.commitTransaction();
    expect(await ds.query('SELECT who FROM events ORDER BY n')).toEqual([{ who: 'outer' }]);
  });
});

describe("a transaction on SQLite, seen from this process's other statements", () => {
  let ds: DataSource;

  beforeEach(async () => {
    const options = dataSourceOptions(new AppConfig({ DATABASE_URL: 'sqlite::memory:' }));
    ds = await newDataSource({ ...options, migrations: [] }).initialize();
    await ds.query('CREATE TABLE events (n INTEGER PRIMARY KEY AUTOINCREMENT, who TEXT NOT NULL)');
  });

  afterEach(() => ds.destroy());

  const count = async () => (await ds.query<{ n: number }[]>('SELECT COUNT(*) AS n FROM events'))[0].n;

  /** A transaction that inserts, then holds on until `release` resolves (I/O awaited inside). */
  function holding(release: Promise<unknown>, outcome: 'commit' | 'rollback') {
    let inserted!: () => void;
    const hasInserted = new Promise<void>((r) => (inserted = r));
    const done = inTransaction(ds, async (m) => {
      await m.query('INSERT INTO events (who) VALUES (?)', ['inside']);
      inserted();
      await release;
      if (outcome === 'rollback') throw new Error('rolled back');
    }).catch((err: Error) => err.message);
    return { hasInserted, done };
  }

  it('a read while it is open waits for its commit, and never sees its rows before', async () => {
    const tx = holding(new Promise((r) => setTimeout(r, 30)), 'commit');
    await tx.hasInserted;
    const order: string[] = [];
    const read = count().then((n) => order.push(`read ${n}`));
    await tx.done.then(() => order.push('committed'));
    await read;
    expect(order).toEqual(['committed', 'read 1']);
  });

  it('the rows of one that rolls back are never seen', async () => {
    const tx = holding(new Promise((r) => setTimeout(r, 30)), 'rollback');
    await tx.hasInserted;
    const read = count();
    expect(await tx.done).toBe('rolled back');
    expect(await read).toBe(0);
  });

  it('a write from outside waits, and is not undone with the transaction it would have joined', async () => {
    const tx = holding(new Promise((r) => setTimeout(r, 30)), 'rollback');
    await tx.hasInserted;
    const write = ds.query('INSERT INTO events (who) VALUES (?)', ['outside']);
    expect(await tx.done).toBe('rolled back');
    await write;
    expect(await ds.query('SELECT who FROM events')).toEqual([{ who: 'outside' }]);
  });

  it("does not wait on a memo's load that a request outside it started while it was open (peekSettled)", async () => {
    const memo = new TtlMemo(60_000);
    let outsideStarted!: () => void;
    const started = new Promise<void>((r) => (outsideStarted = r));
    const tx = inTransaction(ds, async (m) => {
      await m.query('INSERT INTO events (who) VALUES (?)', ['inside']);
      await started;
      // The outside load's statement waits for this transaction: awaiting it here never ends
      // before the busy timeout (the transaction would then roll back with a 503).
      const kept = memo.peekSettled<Promise<number>>('events');
      return kept ? `kept ${await kept}` : 'read on its own connection';
    });
    await new Promise((r) => setTimeout(r, 5));
    const outside = memo.get('events', count);
    outsideStarted();
    expect(await tx).toBe('read on its own connection');
    expect(await outside).toBe(1);
    expect(await memo.peekSettled<Promise<number>>('events')).toBe(1);
  });

  it("refuses a statement outside the transaction from the transaction's own work (DB_TRANSACTION_GUARD)", async () => {
    guardTransactions();
    const tried = inTransaction(ds, async () => {
      await ds.query('SELECT COUNT(*) AS n FROM events');
    });
    await expect(tried).rejects.toBeInstanceOf(SecondConnectionError);
    expect(await count()).toBe(0);
  });
});

describe('ConnectionTurns', () => {
  const tick = () => new Promise((r) => setImmediate(r));

  it('lets the statements that waited for a transaction in before the next one begins', async () => {
    const turns = new ConnectionTurns();
    const order: string[] = [];
    let endFirst!: () => void;
    const first = turns.transaction(() =>
      new Promise<void>((r) => (endFirst = r)).then(() => order.push('first')),
    );
    const waited = turns.statement(async () => {
      await tick();
      order.push('statement');
    });
    await tick();
    endFirst();
    await first;
    // Begins at once, as the next transaction in the queue would: after the statement that waited.
    await turns.transaction(async () => order.push('second'));
    await waited;
    expect(order).toEqual(['first', 'statement', 'second']);
  });

  it('begins a transaction once the statements under way have ended', async () => {
    const turns = new ConnectionTurns();
    const order: string[] = [];
    let endStatement!: () => void;
    const statement = turns.statement(() =>
      new Promise<void>((r) => (endStatement = r)).then(() => order.push('statement')),
    );
    const tx = turns.transaction(async () => order.push('transaction'));
    await tick();
    expect(order).toEqual([]);
    endStatement();
    await Promise.all([statement, tx]);
    expect(order).toEqual(['statement', 'transaction']);
  });

  it('fails a statement that waited longer than its limit as a busy database, and goes on', async () => {
    const turns = new ConnectionTurns(20);
    let end!: () => void;
    const tx = turns.transaction(() => new Promise<void>((r) => (end = r)));
    const ran = jest.fn(() => Promise.resolve('ran'));
    const waited = turns.statement(ran, 'SELECT 1');
    await expect(waited).rejects.toBeInstanceOf(QueryFailedError);
    await expect(waited).rejects.toMatchObject({ driverError: { code: 'SQLITE_BUSY' } });
    expect(isDatabaseBusy(await waited.catch((err: unknown) => err))).toBe(true);
    expect(ran).not.toHaveBeenCalled();
    end();
    await tx;
    // Not counted as running: the next transaction does not wait for it.
    await expect(turns.transaction(() => Promise.resolve('next'))).resolves.toBe('next');
    await expect(turns.statement(ran)).resolves.toBe('ran');
  });
});
