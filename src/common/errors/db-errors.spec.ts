import Database from 'better-sqlite3';
import { QueryFailedError } from 'typeorm';
import { whenDuplicate } from './db-errors';
import { DomainError, notFound, taken } from './domain-error';

/** What better-sqlite3 throws for a statement, wrapped as TypeORM wraps it. */
function sqliteFailure(statement: string): QueryFailedError {
  const db = new Database(':memory:');
  db.pragma('foreign_keys = ON');
  db.exec(`CREATE TABLE orgs (id TEXT PRIMARY KEY, name TEXT NOT NULL UNIQUE);
           CREATE TABLE teams (id TEXT PRIMARY KEY, org_id TEXT NOT NULL REFERENCES orgs(id));
           INSERT INTO orgs VALUES ('o1', 'acme');`);
  try {
    db.exec(statement);
  } catch (err) {
    return new QueryFailedError(statement, [], err as Error);
  } finally {
    db.close();
  }
  throw new Error(`${statement} did not fail`);
}

/** mysql2's error for a statement MariaDB refused, as TypeORM wraps it. */
function mariadbFailure(errno: number, code: string, sqlMessage: string): QueryFailedError {
  const driverError = Object.assign(new Error(sqlMessage), { errno, code, sqlState: '23000', sqlMessage });
  return new QueryFailedError('INSERT …', [], driverError);
}

const duplicates: [string, () => QueryFailedError][] = [
  ['SQLite unique index', () => sqliteFailure(`INSERT INTO orgs VALUES ('o2', 'acme')`)],
  ['SQLite primary key', () => sqliteFailure(`INSERT INTO orgs VALUES ('o1', 'other')`)],
  [
    'MariaDB duplicate entry',
    () => mariadbFailure(1062, 'ER_DUP_ENTRY', "Duplicate entry 'acme' for key 'ux_organizations_name'"),
  ],
];

const missingReferences: [string, () => QueryFailedError][] = [
  ['SQLite foreign key', () => sqliteFailure(`INSERT INTO teams VALUES ('t1', 'gone')`)],
  [
    'MariaDB missing parent row',
    () => mariadbFailure(1452, 'ER_NO_REFERENCED_ROW_2', 'Cannot add or update a child row'),
  ],
];

const failingWith = (err: Error) => (): Promise<string> => Promise.reject(err);

describe('whenDuplicate', () => {
  it('answers with the write when nothing is refused', async () => {
    await expect(
      whenDuplicate(
        () => Promise.resolve('saved'),
        () => taken('name'),
      ),
    ).resolves.toBe('saved');
  });

  it.each(duplicates)('throws the given refusal for a %s violation', async (_, failure) => {
    const refused = await whenDuplicate(failingWith(failure()), () => taken('name')).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(DomainError);
    expect((refused as DomainError).kind).toBe('invalid');
    expect((refused as DomainError).code).toBe('NAME_TAKEN');
    expect((refused as DomainError).items).toEqual([
      expect.objectContaining({ detail: 'Name has already been taken', pointer: '/data/attributes/name' }),
    ]);
  });

  it.each(duplicates)('returns the given value for a %s violation', async (_, failure) => {
    await expect(whenDuplicate(failingWith(failure()), () => 'was there')).resolves.toBe('was there');
  });

  it('hands the refused error to the answer, which may word itself after the index', async () => {
    const failure = sqliteFailure(`INSERT INTO orgs VALUES ('o2', 'acme')`);
    const answer = await whenDuplicate(failingWith(failure), (err) =>
      err.message.includes('orgs.name') ? 'name' : 'other',
    );
    expect(answer).toBe('name');
  });

  it.each(missingReferences)(
    'throws the missing-reference refusal for a %s violation',
    async (_, failure) => {
      await expect(
        whenDuplicate(failingWith(failure()), () => taken('name'), notFound),
      ).rejects.toMatchObject({
        kind: 'not-found',
      });
    },
  );

  it.each(missingReferences)(
    'passes a %s violation on unchanged without a missing-reference refusal',
    async (_, failure) => {
      const err = failure();
      await expect(whenDuplicate(failingWith(err), () => taken('name'))).rejects.toBe(err);
    },
  );

  it('passes any other error on unchanged', async () => {
    const lost = mariadbFailure(2013, 'PROTOCOL_CONNECTION_LOST', 'Lost connection');
    await expect(whenDuplicate(failingWith(lost), () => taken('name'), notFound)).rejects.toBe(lost);
    const plain = new Error('boom');
    await expect(whenDuplicate(failingWith(plain), () => taken('name'))).rejects.toBe(plain);
  });
});
