import { DataSource, EntityManager, QueryFailedError } from 'typeorm';
import { inOneStatement, inTransaction } from './transaction';
import { guardTransactions, holdsTransaction, SecondConnectionError } from './transaction-scope';

const inTransactionManager = { in: 'transaction' } as unknown as EntityManager;
const plainManager = { in: 'autocommit' } as unknown as EntityManager;

function fakeDataSource(type: string): DataSource {
  return {
    options: { type, database: ':memory:' },
    manager: plainManager,
    transaction: (work: (m: EntityManager) => Promise<unknown>) => work(inTransactionManager),
  } as unknown as DataSource;
}

describe('inOneStatement', () => {
  it('runs the statement on its own on MySQL/MariaDB, without BEGIN and COMMIT', async () => {
    expect(await inOneStatement(fakeDataSource('mariadb'), async (m) => m)).toBe(plainManager);
  });

  it("takes its turn in SQLite's transaction queue", async () => {
    expect(await inOneStatement(fakeDataSource('better-sqlite3'), async (m) => m)).toBe(inTransactionManager);
  });

  it('runs a statement that lost a deadlock again', async () => {
    const deadlock = new QueryFailedError(
      'DELETE',
      [],
      Object.assign(new Error('deadlock'), { errno: 1213 }),
    );
    const work = jest.fn().mockRejectedValueOnce(deadlock).mockResolvedValueOnce('done');
    expect(await inOneStatement(fakeDataSource('mariadb'), work)).toBe('done');
    expect(work).toHaveBeenCalledTimes(2);
  });
});

describe('inTransaction without DB_TRANSACTION_GUARD', () => {
  it('tracks nothing, so requests pay nothing for the guard', async () => {
    expect(await inTransaction(fakeDataSource('mariadb'), async () => holdsTransaction())).toBe(false);
  });
});

describe('inTransaction with DB_TRANSACTION_GUARD', () => {
  beforeAll(() => guardTransactions());
  it.each(['mariadb', 'better-sqlite3'])(
    'refuses a transaction inside a transaction on %s instead of waiting for a second connection',
    async (type) => {
      const ds = fakeDataSource(type);
      const outer = inTransaction(ds, () => inTransaction(ds, async () => 'inner'));
      await expect(outer).rejects.toBeInstanceOf(SecondConnectionError);
    },
  );

  it('marks its work as holding a transaction, and nothing after it', async () => {
    const ds = fakeDataSource('mariadb');
    expect(await inTransaction(ds, async () => holdsTransaction())).toBe(true);
    expect(holdsTransaction()).toBe(false);
    expect(await inTransaction(ds, async () => 'again')).toBe('again');
  });
});
