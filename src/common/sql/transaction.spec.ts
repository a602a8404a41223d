import { DataSource, EntityManager } from 'typeorm';
import { inTransaction } from './transaction';
import { guardTransactions, holdsTransaction, SecondConnectionError } from './transaction-scope';

function fakeDataSource(type: string): DataSource {
  const manager = {} as EntityManager;
  return {
    options: { type },
    transaction: (work: (m: EntityManager) => Promise<unknown>) => work(manager),
  } as unknown as DataSource;
}

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
