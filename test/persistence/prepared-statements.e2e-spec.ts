import { DataSource, EntityManager } from 'typeorm';
import { startApp, TestApp, usesMysql } from '../helpers/test-app';

/**
 * On MySQL/MariaDB the statements of a transaction run prepared where they can
 * (persistence/prepared-statements.ts): counted by the server on the transaction's own connection.
 */
(usesMysql() ? describe : describe.skip)("a transaction's statements, prepared", () => {
  let t: TestApp;
  let ds: DataSource;

  beforeAll(async () => {
    t = await startApp();
    ds = t.app.get(DataSource);
    await ds.query(
      'CREATE TABLE prepared_probe (id VARCHAR(20) PRIMARY KEY, n INT NOT NULL, at DATETIME(3) NULL)',
    );
  });
  afterAll(async () => {
    await ds.query('DROP TABLE IF EXISTS prepared_probe');
    await t.close();
  });

  /** The server's count of prepared executions and of text statements on this connection. */
  const counters = async (m: EntityManager) => {
    const rows: { Variable_name: string; Value: string }[] = await m.query(
      "SHOW SESSION STATUS WHERE Variable_name IN ('Com_stmt_execute', 'Com_update', 'Com_insert', 'Com_select')",
    );
    return Object.fromEntries(rows.map((r) => [r.Variable_name, Number(r.Value)]));
  };

  it('runs reads and writes with parameters prepared, with the same rows and results as text', async () => {
    const when = new Date('2026-11-28T10:11:12.345Z');
    await ds.transaction(async (m) => {
      const before = await counters(m);
      await m.query('INSERT INTO prepared_probe (id, n, at) VALUES (?, ?, ?)', ['a', 1, when]);
      const updated = await m.query('UPDATE prepared_probe SET n = n + ? WHERE id = ?', [2, 'a']);
      const rows = await m.query('SELECT id, n, at FROM prepared_probe WHERE id = ? FOR UPDATE', ['a']);
      const after = await counters(m);
      expect(after.Com_stmt_execute - before.Com_stmt_execute).toBe(3);
      expect(updated).toMatchObject({ affectedRows: 1 });
      expect(rows).toEqual([{ id: 'a', n: 3, at: when }]);
    });
  });

  it('sends statements without parameters, and lists expanded into IN (?), as text', async () => {
    await ds.transaction(async (m) => {
      const before = await counters(m);
      await m.query("INSERT INTO prepared_probe (id, n) VALUES ('b', 0)");
      await m.query('UPDATE prepared_probe SET n = 1');
      const rows = await m.query('SELECT id FROM prepared_probe WHERE id IN (?)', [['b', 'c']]);
      const after = await counters(m);
      expect(after.Com_stmt_execute - before.Com_stmt_execute).toBe(0);
      expect(after.Com_update - before.Com_update).toBe(1);
      expect(rows).toEqual([{ id: 'b' }]);
    });
  });
});
