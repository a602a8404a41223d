import { DataSource, QueryFailedError } from 'typeorm';
import { mysqlPool } from '../../src/persistence/mysql-pool';
import { ReadSet, trackReads } from '../../src/common/cache/read-set';
import { EPOCH_TABLES } from '../../src/common/cache/sql-epoch-store';
import { readRows, readRowsWith } from '../../src/persistence/pool-reads';
import { inTransaction } from '../../src/common/sql/transaction';
import { OrganizationEntity } from '../../src/organizations/entities/organization.entity';
import { statementTablesOf } from '../../src/persistence/statement-tables';
import { startApp, TestApp, usesMysql } from '../helpers/test-app';

/**
 * What a write ends is worked out from the entities' metadata (tables and foreign-key actions).
 * The schema the migrations made is the truth: every table in it must be known, and every foreign
 * key that changes rows of another table (CASCADE, SET NULL, SET DEFAULT) must be followed.
 */
describe('the tables statements are tracked by', () => {
  let t: TestApp;
  let ds: DataSource;
  beforeAll(async () => {
    t = await startApp();
    ds = t.app.get(DataSource);
  });
  afterAll(() => t.close());

  async function schemaTables(): Promise<string[]> {
    const rows: { name: string }[] = usesMysql()
      ? await ds.query(
          'SELECT TABLE_NAME AS name FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE()',
        )
      : await ds.query(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`);
    // TypeORM's own bookkeeping, written only by migrations before the server starts.
    return rows.map((r) => r.name).filter((n) => n !== 'migrations' && n !== 'typeorm_metadata');
  }

  async function schemaCascades(tables: string[]): Promise<{ parent: string; child: string }[]> {
    const acting = (rule: string) => !['RESTRICT', 'NO ACTION'].includes(rule.toUpperCase());
    if (usesMysql()) {
      const rows: { child: string; parent: string; del: string; upd: string }[] = await ds.query(
        'SELECT TABLE_NAME AS child, REFERENCED_TABLE_NAME AS parent, DELETE_RULE AS del, UPDATE_RULE AS upd ' +
          'FROM information_schema.REFERENTIAL_CONSTRAINTS WHERE CONSTRAINT_SCHEMA = DATABASE()',
      );
      return rows
        .filter((r) => acting(r.del) || acting(r.upd))
        .map(({ parent, child }) => ({ parent, child }));
    }
    const found: { parent: string; child: string }[] = [];
    for (const child of tables) {
      const fks: { table: string; on_update: string; on_delete: string }[] = await ds.query(
        `SELECT * FROM pragma_foreign_key_list('${child}')`,
      );
      for (const fk of fks)
        if (acting(fk.on_delete) || acting(fk.on_update)) found.push({ parent: fk.table, child });
    }
    return found;
  }

  it('knows every table of the schema', async () => {
    const tracked = statementTablesOf(ds, EPOCH_TABLES);
    const tables = await schemaTables();
    expect(tables.length).toBeGreaterThan(30);
    const unknown = tables.filter(
      (name) =>
        !EPOCH_TABLES.includes(name as never) && tracked.effectOf(`SELECT 1 FROM ${name}`).reads[0] !== name,
    );
    expect(unknown).toEqual([]);
  });

  it('follows every foreign key that changes another table', async () => {
    const tracked = statementTablesOf(ds, EPOCH_TABLES);
    const cascades = await schemaCascades(await schemaTables());
    expect(cascades.length).toBeGreaterThan(10);
    const missed = cascades.filter(({ parent, child }) => {
      const writes = tracked.effectOf(`DELETE FROM ${parent} WHERE id = ?`).writes;
      return writes !== 'all' && !writes?.includes(child);
    });
    expect(missed).toEqual([]);
  });

  it('notes what a read beside the query runners reads, and fails as the runners fail', async () => {
    const reads = new ReadSet();
    const rows = await trackReads(reads, () =>
      readRows(
        ds,
        'SELECT o.name FROM organizations o JOIN teams t ON t.organization_id = o.id WHERE o.name = ?',
        ['none-such'],
      ),
    );
    expect(rows).toEqual([]);
    expect([...reads.tables].sort()).toEqual(['organizations', 'teams']);
    await expect(readRows(ds, 'SELECT nothing FROM organizations', [])).rejects.toBeInstanceOf(
      QueryFailedError,
    );
  });

  it("reads through a transaction's manager inside it, and on the pool outside", async () => {
    const name = 'read-rows-with';
    const sql = 'SELECT name FROM organizations WHERE name = ?';
    const rolledBack = new Error('roll back');
    await expect(
      inTransaction(ds, async (m) => {
        await ds
          .createQueryBuilder(m.queryRunner)
          .insert()
          .into(OrganizationEntity)
          .values({
            id: 'org-readrowswith',
            name,
            email: 'a@example.com',
            edition: 'free',
            createdAt: new Date(),
            updatedAt: new Date(),
          })
          .execute();
        // The transaction's own connection, which sees its uncommitted row (a read on the pool
        // would not, and the tests' transaction guard refuses a second connection here anyway).
        expect(await readRowsWith(m, sql, [name])).toEqual([{ name }]);
        throw rolledBack;
      }),
    ).rejects.toBe(rolledBack);
    expect(await readRowsWith(ds.manager, sql, [name])).toEqual([]);
  });

  (usesMysql() ? it : it.skip)(
    'reads the same rows as a prepared statement as through the text protocol',
    async () => {
      await ds.query(
        `CREATE TABLE read_rows_types (id INT PRIMARY KEY, at DATETIME(3) NULL, flag BOOLEAN NULL,
         size BIGINT NULL, name VARCHAR(64) NULL, body TEXT NULL)`,
      );
      try {
        await ds.query(
          `INSERT INTO read_rows_types VALUES
           (1, '2024-08-13 23:06:42.523', 1, 9007199254740993, 'ünïcode ✓', 'text'),
           (2, '1970-01-01 00:00:00.000', 0, 0, '', ''),
           (3, NULL, NULL, NULL, NULL, NULL)`,
        );
        const pool = mysqlPool(ds)!;
        const text = (sql: string, params: unknown[]) =>
          new Promise<unknown>((resolve, reject) =>
            pool.query(sql, params, (err, rows) => (err ? reject(err) : resolve(rows))),
          );
        const statements: [string, unknown[]][] = [
          ['SELECT * FROM read_rows_types ORDER BY id', []],
          ['SELECT * FROM read_rows_types WHERE id = ? OR name = ? OR flag = ?', [2, 'ünïcode ✓', true]],
          ['SELECT id FROM read_rows_types WHERE at > ? ORDER BY id', [new Date('2000-01-01T00:00:00Z')]],
          ['SELECT id, name FROM read_rows_types WHERE name = ? OR ? IS NULL ORDER BY id', ['', undefined]],
          [
            `SELECT COUNT(*) AS n, SUM(size) AS total, CAST(MAX(at) AS CHAR) AS newest, NULL AS nothing,
                  'literal' AS word, COUNT(*) OVER () AS windowed
             FROM read_rows_types WHERE id IN (?, ?, ?)`,
            [1, 2, 3],
          ],
          ['SELECT id FROM read_rows_types ORDER BY id LIMIT ? OFFSET ?', [2, 1]],
        ];
        for (const [sql, params] of statements) {
          const expected = await text(sql, params);
          expect(await readRows(ds, sql, params)).toEqual(expected);
          // A second time: from the connection's remembered statement.
          expect(await readRows(ds, sql, params)).toEqual(expected);
        }
        // A list expanded into IN (?) is `query`'s own: it still reads as the text protocol does.
        expect(
          await readRows(ds, 'SELECT id FROM read_rows_types WHERE id IN (?) ORDER BY id', [[1, 3]]),
        ).toEqual([{ id: 1 }, { id: 3 }]);
      } finally {
        await ds.query('DROP TABLE read_rows_types');
      }
    },
  );
});
