import { DataSource } from 'typeorm';
import { guardTransactions, SecondConnectionError, withinTransaction } from '../common/sql/transaction-scope';
import { enforceAcquireDeadline, poolStats } from './mysql-pool';

type Cb = (err: Error | null, connection?: { release(): void }) => void;

function fakeMysql(getConnection: (cb: Cb) => void) {
  const pool = {
    getConnection,
    _allConnections: { length: 4 },
    _freeConnections: { length: 1 },
    _connectionQueue: { length: 2 },
  };
  const ds = { options: { type: 'mariadb' }, driver: { pool } } as unknown as DataSource;
  return { ds, pool };
}

const acquire = (pool: { getConnection(cb: Cb): void }) =>
  new Promise<{ err: Error | null; connection?: unknown }>((resolve) =>
    pool.getConnection((err, connection) => resolve({ err, connection })),
  );

describe('enforceAcquireDeadline', () => {
  beforeAll(() => guardTransactions());
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('fails a waiter with a connection error once the deadline passes, and returns a late connection to the pool', async () => {
    let deliver: Cb = () => undefined;
    const { ds, pool } = fakeMysql((cb) => (deliver = cb));
    enforceAcquireDeadline(ds, 4000);
    const waiting = acquire(pool);
    jest.advanceTimersByTime(4000);
    const { err } = await waiting;
    expect(err).toMatchObject({ code: 'POOL_ACQUIRE_TIMEOUT' });
    const release = jest.fn();
    deliver(null, { release });
    expect(release).toHaveBeenCalledTimes(1);
  });

  it('hands over a connection that arrives in time', async () => {
    const connection = { release: jest.fn() };
    const { ds, pool } = fakeMysql((cb) => setTimeout(() => cb(null, connection), 10));
    enforceAcquireDeadline(ds, 4000);
    const waiting = acquire(pool);
    jest.advanceTimersByTime(10);
    expect(await waiting).toEqual({ err: null, connection });
    jest.advanceTimersByTime(5000);
    expect(connection.release).not.toHaveBeenCalled();
  });

  it("refuses a second connection to code that holds a transaction's, and only while it does", async () => {
    const connection = { release: jest.fn() };
    const underlying = jest.fn((cb: Cb) => cb(null, connection));
    const { ds, pool } = fakeMysql(underlying);
    enforceAcquireDeadline(ds, 4000);
    let later: Promise<unknown> = Promise.resolve();
    const inside = await withinTransaction(async () => {
      later = new Promise((resolve) => setTimeout(resolve, 10)).then(() => acquire(pool));
      return acquire(pool);
    });
    expect(inside.err).toBeInstanceOf(SecondConnectionError);
    expect(underlying).not.toHaveBeenCalled();
    jest.advanceTimersByTime(10);
    expect(await later).toEqual({ err: null, connection });
    expect(await acquire(pool)).toEqual({ err: null, connection });
  });

  it('reports pool sizes on MySQL and nothing on SQLite', () => {
    expect(poolStats(fakeMysql(() => undefined).ds)).toEqual({ all: 4, free: 1, queued: 2 });
    expect(poolStats({ options: { type: 'better-sqlite3' } } as unknown as DataSource)).toBeUndefined();
  });
});
