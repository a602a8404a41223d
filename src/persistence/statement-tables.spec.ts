import { StatementTables, UNSEEN_WRITE } from './statement-tables';

const tables = new StatementTables(
  [
    'organizations',
    'workspaces',
    'run_triggers',
    'runs',
    'policy_sets',
    'policy_set_workspaces',
    'change_epoch',
  ],
  [
    { parent: 'organizations', child: 'workspaces', on: ['delete'] },
    { parent: 'workspaces', child: 'run_triggers', on: ['delete'] },
    { parent: 'workspaces', child: 'policy_set_workspaces', on: ['delete'] },
    { parent: 'policy_sets', child: 'policy_set_workspaces', on: ['delete', 'update'] },
  ],
  ['change_epoch', 'changed_tables'],
);

describe(StatementTables.name, () => {
  it('reads every table a SELECT names, quoted or not, once each', () => {
    expect(
      tables.effectOf(
        'SELECT `ps`.`id` FROM `policy_sets` `ps` LEFT JOIN `policy_set_workspaces` `psw` ON psw.policy_set_id = ps.id ' +
          'WHERE `ps`.`id` IN (SELECT id FROM "policy_sets")',
      ),
    ).toEqual({ reads: ['policy_sets', 'policy_set_workspaces'], writes: null });
  });

  it('reads no table a string literal names, unless a backslash makes the literals uncertain', () => {
    expect(
      tables.effectOf(
        "SELECT 'workspaces' AS rel, m.id FROM policy_set_workspaces m UNION ALL SELECT 'it''s runs', r.id FROM policy_sets r",
      ),
    ).toEqual({ reads: ['policy_set_workspaces', 'policy_sets'], writes: null });
    expect(tables.effectOf("SELECT 'a\\', id FROM policy_sets WHERE name = 'runs'").reads).toEqual([
      'policy_sets',
      'runs',
    ]);
  });

  it('writes the target of an insert, and nothing a foreign key cascades to', () => {
    expect(tables.effectOf('INSERT INTO `workspaces`(`id`, `name`) VALUES (?, ?)')).toEqual({
      reads: [],
      writes: ['workspaces'],
    });
  });

  it('writes the target of a delete and every table its ON DELETE actions reach, transitively', () => {
    const del = tables.effectOf('DELETE FROM "organizations" WHERE "id" = ?');
    expect(del.writes).toEqual(['organizations', 'workspaces', 'run_triggers', 'policy_set_workspaces']);
    expect(tables.effectOf('REPLACE INTO workspaces (id) VALUES (?)').writes).toEqual([
      'workspaces',
      'run_triggers',
      'policy_set_workspaces',
    ]);
    expect(tables.effectOf('INSERT OR REPLACE INTO workspaces (id) VALUES (?)').writes).toEqual([
      'workspaces',
      'run_triggers',
      'policy_set_workspaces',
    ]);
  });

  it('writes the target of an update and only the tables its ON UPDATE actions reach', () => {
    expect(tables.effectOf('UPDATE `workspaces` SET `locked` = ? WHERE `id` = ?').writes).toEqual([
      'workspaces',
    ]);
    expect(tables.effectOf('UPDATE `policy_sets` SET `name` = ? WHERE `id` = ?').writes).toEqual([
      'policy_sets',
      'policy_set_workspaces',
    ]);
    expect(
      tables.effectOf('INSERT INTO policy_sets (id) VALUES (?) ON DUPLICATE KEY UPDATE id = id').writes,
    ).toEqual(['policy_sets', 'policy_set_workspaces']);
    expect(
      tables.effectOf('INSERT INTO workspaces (id) VALUES (?) ON CONFLICT (id) DO UPDATE SET id = id').writes,
    ).toEqual(['workspaces']);
  });

  it('writes every table a write names when its target cannot be told', () => {
    expect(
      tables.effectOf('UPDATE runs r JOIN workspaces w ON w.id = r.workspace_id SET r.status = ?').writes,
    ).toEqual(['runs', 'workspaces']);
    expect(
      tables.effectOf(
        'WITH gone AS (SELECT id FROM workspaces) DELETE FROM runs WHERE id IN (SELECT id FROM gone)',
      ).writes,
    ).toEqual(['workspaces', 'runs', 'run_triggers', 'policy_set_workspaces']);
  });

  it('writes everything for a statement that changes tables it does not name, or of an unknown kind', () => {
    expect(tables.effectOf('CREATE TABLE "new_things" ("id" varchar(32))').writes).toBe('all');
    expect(tables.effectOf('TRUNCATE TABLE runs').writes).toEqual(['runs']);
    expect(tables.effectOf('CALL something()').writes).toBe('all');
  });

  it('sees nothing in transaction control, session settings, and the change counters themselves', () => {
    for (const sql of [
      'START TRANSACTION',
      'BEGIN TRANSACTION',
      'COMMIT',
      'ROLLBACK TO SAVEPOINT typeorm_1',
      'SAVEPOINT typeorm_1',
      'SET TRANSACTION ISOLATION LEVEL READ COMMITTED',
      'PRAGMA foreign_keys = ON',
      'UPDATE `change_epoch` SET `value` = `value` + 1 WHERE `id` IN (1, 3)',
      'SELECT id, NULL AS name, value FROM change_epoch UNION ALL SELECT NULL, name, stamp FROM changed_tables WHERE stamp > ?',
    ]) {
      expect(tables.effectOf(sql)).toEqual({ reads: [], writes: null });
    }
  });

  it('sees nothing in a write marked unseen, and the same write unmarked as a write', () => {
    const sql = 'UPDATE runs SET status = ? WHERE id = ? AND EXISTS (SELECT 1 FROM workspaces w WHERE w.id = ?)';
    expect(tables.effectOf(`${UNSEEN_WRITE}${sql}`)).toEqual({ reads: [], writes: null });
    expect(tables.effectOf(sql).writes).toContain('runs');
  });

  it('reads a CTE as a read, and one that writes as a write', () => {
    expect(tables.effectOf('WITH x AS (SELECT id FROM runs) SELECT * FROM x').writes).toBeNull();
    expect(
      tables.effectOf('WITH x AS (SELECT id FROM runs) DELETE FROM workspaces WHERE id IN (SELECT id FROM x)')
        .writes,
    ).toEqual(expect.arrayContaining(['workspaces', 'run_triggers']));
  });
});
