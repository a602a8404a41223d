import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Connection, RowDataPacket } from 'mysql2/promise';
import { AppConfig } from '../../src/config/app-config';
import { openDataSource } from '../../src/persistence/data-source-options';

/**
 * A migrated MySQL/MariaDB schema made once per test run and copied into each suite's database.
 *
 * Running the migrations costs MariaDB dozens of table rebuilds per app; copying the finished
 * tables is one CREATE per table in one round trip. The copy is exact: the template's own
 * `SHOW CREATE TABLE` (foreign keys, indexes, charsets) and its rows (the migrations table and
 * whatever the migrations seed). The template is named after the run (`PLINTH_TEST_RUN`, set by
 * test/helpers/mysql-template.global.js, which drops it at the end) and the migration files' digest,
 * and made under a named lock so that the run's workers make it once between them.
 */

const MIGRATIONS = join(__dirname, '../../src/persistence/migrations/mysql');

export interface SchemaCopy {
  /** The statements that make an empty database into a migrated one (after `USE`). */
  statements: string[];
}

function migrationsDigest(): string {
  const hash = createHash('sha256');
  for (const f of readdirSync(MIGRATIONS).sort()) hash.update(f).update(readFileSync(join(MIGRATIONS, f)));
  return hash.digest('hex').slice(0, 12);
}

/** The template's name for this run, or undefined outside a run that set one up. */
export function templateName(): string | undefined {
  const run = process.env.PLINTH_TEST_RUN;
  return run ? `plinth_e2e_tpl_${run}_${migrationsDigest()}` : undefined;
}

async function tablesOf(c: Connection, db: string): Promise<string[]> {
  const [rows] = await c.query<RowDataPacket[]>(
    'SELECT table_name AS t FROM information_schema.tables WHERE table_schema = ? AND table_type = ? ORDER BY table_name',
    [db, 'BASE TABLE'],
  );
  return rows.map((r) => r.t as string);
}

async function makeTemplate(c: Connection, name: string, serverUrl: string): Promise<void> {
  await c.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  const config = new AppConfig({
    DATABASE_URL: `${serverUrl}/${name}`,
    DATA_DIR: '.',
    SIGNING_SECRET: 'template-signing-secret-of-at-least-32-bytes',
    LOG_LEVEL: 'silent',
  });
  const ds = await (await openDataSource(config)).initialize();
  try {
    await ds.runMigrations({ transaction: 'each' });
  } finally {
    await ds.destroy();
  }
  // Marks the template complete: a worker that finds the database without it makes it again.
  await c.query(`CREATE TABLE \`${name}\`.\`zz_template_complete\` (id INT PRIMARY KEY)`);
}

/** The template's copy statements, made (once per run) if they are not there yet. */
export async function templateCopy(c: Connection, serverUrl: string): Promise<SchemaCopy | undefined> {
  const name = templateName();
  if (!name) return undefined;
  const [[lock]] = await c.query<RowDataPacket[]>('SELECT GET_LOCK(?, 600) AS got', [name]);
  if (lock.got !== 1) throw new Error(`could not lock the schema template ${name}`);
  try {
    let tables = await tablesOf(c, name);
    if (!tables.includes('zz_template_complete')) {
      await c.query(`DROP DATABASE IF EXISTS \`${name}\``);
      await makeTemplate(c, name, serverUrl);
      tables = await tablesOf(c, name);
    }
    const statements = ['SET FOREIGN_KEY_CHECKS = 0'];
    for (const table of tables.filter((t) => t !== 'zz_template_complete')) {
      const [[shown]] = await c.query<RowDataPacket[]>(`SHOW CREATE TABLE \`${name}\`.\`${table}\``);
      statements.push(shown['Create Table'] as string);
      const [[count]] = await c.query<RowDataPacket[]>(`SELECT COUNT(*) AS n FROM \`${name}\`.\`${table}\``);
      if (Number(count.n) > 0) statements.push(`INSERT INTO \`${table}\` SELECT * FROM \`${name}\`.\`${table}\``);
    }
    statements.push('SET FOREIGN_KEY_CHECKS = 1');
    return { statements };
  } finally {
    await c.query('SELECT RELEASE_LOCK(?)', [name]);
  }
}
