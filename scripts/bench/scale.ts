import { randomBytes } from 'node:crypto';
import Database from 'better-sqlite3';
import { createConnection } from 'mysql2/promise';
import { announceBulkChange, mysqlRun, sqliteRun } from './bulk-change';
import { BenchDatabase } from './server';

const COLUMNS = [
  'id',
  'organization_id',
  'project_id',
  'name',
  'description',
  'engine_version',
  'created_at',
  'updated_at',
];
const BATCH = 1_000;

/** A workspace id in the server's shape (`ws-` and 16 base62 characters). */
function workspaceId(): string {
  const alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
  let out = 'ws-';
  for (const byte of randomBytes(16)) out += alphabet[byte % 62];
  return out;
}

/**
 * Adds workspaces `ws-<from>` … `ws-<to - 1>` to the named organization by direct multi-row INSERTs: the
 * API would take minutes for 100,000. The rows copy the organization's first workspace (created
 * through the API) for project, engine version and timestamps, so they read like any other.
 * Nothing else refers to them. Afterwards the table statistics are refreshed, as a DBA would, and
 * the change is announced (bulk-change.ts), as every write through the API is, so that the
 * server's caches (list totals, rendered pages) let go of what they read before.
 */
export async function bulkInsertWorkspaces(
  db: BenchDatabase,
  organizationName: string,
  from: number,
  to: number,
): Promise<void> {
  const rowsFor = (template: Record<string, unknown>) => {
    const rows: unknown[][] = [];
    for (let i = from; i < to; i++) {
      rows.push([
        workspaceId(),
        template.organization_id,
        template.project_id,
        `ws-${String(i).padStart(6, '0')}`,
        null,
        template.engine_version,
        template.created_at,
        template.updated_at,
      ]);
    }
    return rows;
  };
  const templateSql = `SELECT w.organization_id, w.project_id, w.engine_version, w.created_at, w.updated_at
    FROM workspaces w JOIN organizations o ON o.id = w.organization_id
    WHERE o.name = ? ORDER BY w.name LIMIT 1`;

  if (db.dialect === 'sqlite') {
    const sqlite = new Database(db.sqlitePath, { timeout: 10_000 });
    try {
      const template = sqlite.prepare(templateSql).get(organizationName) as Record<string, unknown>;
      const rows = rowsFor(template);
      const insert = sqlite.prepare(
        `INSERT INTO workspaces (${COLUMNS.join(', ')}) VALUES (${COLUMNS.map(() => '?').join(', ')})`,
      );
      for (let i = 0; i < rows.length; i += BATCH) {
        sqlite.transaction((batch: unknown[][]) => batch.forEach((r) => insert.run(...r)))(
          rows.slice(i, i + BATCH),
        );
      }
      sqlite.exec('ANALYZE');
      await announceBulkChange(sqliteRun(sqlite), 'sqlite');
    } finally {
      sqlite.close();
    }
    return;
  }

  const c = await createConnection({
    uri: `${(db.mysqlServerUrl as string).replace(/^mariadb:/, 'mysql:')}/${db.mysqlDatabase}`,
    timezone: 'Z',
    dateStrings: true,
  });
  try {
    const [found] = await c.query(templateSql, [organizationName]);
    const template = (found as Record<string, unknown>[])[0];
    const rows = rowsFor(template);
    for (let i = 0; i < rows.length; i += BATCH) {
      await c.query(`INSERT INTO workspaces (${COLUMNS.join(', ')}) VALUES ?`, [rows.slice(i, i + BATCH)]);
    }
    await c.query('ANALYZE TABLE workspaces');
    await announceBulkChange(mysqlRun(c), 'mysql');
  } finally {
    await c.end();
  }
}
