import { DataSource } from 'typeorm';
import { Mysql2Connection, StatementCallback } from './mysql-pool';
import {
  bindable,
  PREPARED_PARAMS_MAX,
  preparedByDefault,
  prepareRunnerStatements,
  statementOn,
} from './prepared-statements';

/** A connection that records which way each statement went and answers as told. */
function fakeConnection(executeError?: { errno: number }) {
  const sent: { how: 'query' | 'execute'; args: unknown[] }[] = [];
  const connection = {
    query: jest.fn((...args: unknown[]) => {
      sent.push({ how: 'query', args });
      const cb = args.find((a) => typeof a === 'function') as StatementCallback | undefined;
      cb?.(null, { affectedRows: 1 }, undefined);
      return { command: 'query' };
    }),
    execute: jest.fn((...args: unknown[]) => {
      sent.push({ how: 'execute', args });
      const cb = args[2] as StatementCallback;
      if (executeError) cb(Object.assign(new Error('refused'), executeError));
      else cb(null, [{ id: 1 }], ['fields']);
    }),
    release: jest.fn(),
    destroy: jest.fn(),
  };
  return { connection: connection as unknown as Mysql2Connection, sent };
}

const run = (c: Mysql2Connection, sql: string, values: unknown[]) =>
  new Promise<{ err: Error | null; result: unknown; fields: unknown }>((resolve) =>
    c.query(sql, values, (err, result, fields) => resolve({ err, result, fields })),
  );

describe('bindable', () => {
  it('binds scalars, dates and buffers as they are, and undefined as NULL', () => {
    const when = new Date(0);
    const bytes = Buffer.from('x');
    expect(bindable(['a', 1, true, null, when, bytes])).toEqual(['a', 1, true, null, when, bytes]);
    expect(bindable(['a', undefined])).toEqual(['a', null]);
  });

  it('leaves to the text protocol a list (expanded into IN (?)), an object, or too many parameters', () => {
    expect(bindable([['a', 'b']])).toBeUndefined();
    expect(bindable([{ a: 1 }])).toBeUndefined();
    expect(bindable(new Array(PREPARED_PARAMS_MAX).fill(1))).toHaveLength(PREPARED_PARAMS_MAX);
    expect(bindable(new Array(PREPARED_PARAMS_MAX + 1).fill(1))).toBeUndefined();
  });
});

describe('statementOn', () => {
  it('runs a statement as text where the server refuses to prepare it, and passes other errors on', async () => {
    for (const errno of [1461, 1390]) {
      const { connection, sent } = fakeConnection({ errno });
      const answer = await new Promise<unknown>((resolve) =>
        statementOn(connection, 'SELECT 1 FROM t WHERE id = ?', ['x'], (err, result) =>
          resolve(err ?? result),
        ),
      );
      expect(sent.map((s) => s.how)).toEqual(['execute', 'query']);
      expect(answer).toEqual({ affectedRows: 1 });
    }
    const { connection, sent } = fakeConnection({ errno: 1062 });
    const err = await new Promise<unknown>((resolve) =>
      statementOn(connection, 'INSERT INTO t (id) VALUES (?)', ['x'], (e) => resolve(e)),
    );
    expect(err).toMatchObject({ errno: 1062 });
    expect(sent.map((s) => s.how)).toEqual(['execute']);
  });
});

describe('preparedByDefault', () => {
  it('sends reads and row writes with parameters prepared, with their rows and fields', async () => {
    const { connection, sent } = fakeConnection();
    preparedByDefault(connection);
    for (const sql of [
      'SELECT id FROM t WHERE id = ? FOR UPDATE',
      '  insert into t (id) values (?)',
      'UPDATE t SET a = ? WHERE id = ?',
      'DELETE FROM t WHERE id = ?',
      '/* unseen */ UPDATE t SET a = ? WHERE id = ?',
      'WITH x AS (SELECT ?) SELECT * FROM x',
    ]) {
      expect(await run(connection, sql, ['x', 'y'])).toEqual({
        err: null,
        result: [{ id: 1 }],
        fields: ['fields'],
      });
    }
    expect(sent.map((s) => s.how)).toEqual(new Array(6).fill('execute'));
  });

  it('sends transaction control, DDL, statements without parameters or with lists as text', async () => {
    const { connection, sent } = fakeConnection();
    preparedByDefault(connection);
    await run(connection, 'START TRANSACTION', []);
    await run(connection, 'SELECT 1', []);
    await run(connection, 'SET SESSION x = ?', [1]);
    await run(connection, 'ALTER TABLE t ADD c INT', []);
    await run(connection, 'SELECT * FROM t WHERE id IN (?)', [['a', 'b']]);
    expect(sent.map((s) => s.how)).toEqual(new Array(5).fill('query'));
  });

  it("passes mysql2's own pool calls (a command object) through, with the command it answers", () => {
    const { connection, sent } = fakeConnection();
    preparedByDefault(connection);
    const command = { sql: 'SELECT ?', values: [1] };
    expect((connection.query as unknown as (c: unknown) => unknown)(command)).toEqual({ command: 'query' });
    expect(sent).toEqual([{ how: 'query', args: [command] }]);
  });
});

describe('prepareRunnerStatements', () => {
  it('wraps each pooled connection once, as it is first handed out; nothing on SQLite', async () => {
    const { connection, sent } = fakeConnection();
    const pool = {
      getConnection: (cb: (err: Error | null, c?: Mysql2Connection) => void) => cb(null, connection),
    };
    const ds = { options: { type: 'mariadb' }, driver: { pool } } as unknown as DataSource;
    prepareRunnerStatements(ds);
    prepareRunnerStatements(ds);
    const handed = () =>
      new Promise<Mysql2Connection>((resolve) => pool.getConnection((_, c) => resolve(c!)));
    const original = connection.query;
    const first = await handed();
    const wrappedQuery = first.query;
    expect(wrappedQuery).not.toBe(original);
    expect((await handed()).query).toBe(wrappedQuery);
    await run(first, 'UPDATE t SET a = ? WHERE id = ?', [1, 'x']);
    expect(sent.map((s) => s.how)).toEqual(['execute']);
    expect(() =>
      prepareRunnerStatements({ options: { type: 'better-sqlite3' } } as DataSource),
    ).not.toThrow();
  });
});
