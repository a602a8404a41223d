import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { DataSource, DataSourceOptions } from 'typeorm';
import { ensurePrivateFile } from '../common/private-files';
import { AppConfig, DatabaseDialect } from '../config/app-config';
import { withServerFlavour } from './server-flavour';
import { SnakeNamingStrategy } from './snake-naming.strategy';
import { prepareSqliteConnection, SQLITE_BUSY_TIMEOUT_MS } from './sqlite-transactions';

const MIGRATIONS_ROOT = join(__dirname, 'migrations');

/**
 * Loads every migration class of one dialect. Requiring the files (rather than handing TypeORM
 * a glob) works the same under node, ts-node and jest.
 */
export function loadMigrations(dialect: DatabaseDialect): (new () => unknown)[] {
  const dir = join(MIGRATIONS_ROOT, dialect);
  return (
    readdirSync(dir)
      .filter((f) => /\.(js|ts)$/.test(f) && !f.endsWith('.d.ts'))
      .sort()
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- synchronous load of migration classes
      .flatMap((f) => Object.values(require(join(dir, f)) as Record<string, new () => unknown>))
  );
}

/**
 * The data source as configured. On MySQL the dialect still follows the URL's scheme: open it with
 * `openDataSourceOptions` (or pass these through withServerFlavour), which asks the server.
 */
export function dataSourceOptions(config: AppConfig): DataSourceOptions {
  const common = {
    namingStrategy: new SnakeNamingStrategy(),
    migrations: loadMigrations(config.dialect),
    migrationsRun: false,
    synchronize: false,
    // TypeORM would print failed queries with their parameters (password hashes, token digests) as
    // plain text; expected failures (unique keys) are control flow, and the exception filter logs
    // the unexpected ones as structured JSON.
    logging: false,
  };
  if (config.dialect === 'sqlite') {
    if (config.sqlitePath !== ':memory:') ensurePrivateFile(config.sqlitePath);
    return {
      ...common,
      type: 'better-sqlite3',
      database: config.sqlitePath,
      // Other processes' readers never wait for a writer, nor it for them; writers take turns, and a
      // process's own statements wait for its open transaction (sqlite-transactions.ts).
      enableWAL: config.sqlitePath !== ':memory:',
      timeout: SQLITE_BUSY_TIMEOUT_MS,
    };
  }
  const mysql = config.mysql!;
  return {
    ...common,
    // What the scheme says; withServerFlavour replaces it with what the server is.
    type: mysql.scheme,
    // The parts, decoded by the configuration, rather than a URL: a password is used as given,
    // whatever characters it holds, and it may come from DATABASE_PASSWORD.
    host: mysql.host,
    port: mysql.port,
    username: mysql.user,
    password: mysql.password,
    database: mysql.database,
    charset: 'utf8mb4_unicode_ci',
    timezone: 'Z',
    connectTimeout: config.dbConnectTimeoutMs,
    poolSize: config.dbPoolSize,
    extra: {
      connectionLimit: config.dbPoolSize,
      enableKeepAlive: true,
      waitForConnections: true,
      queueLimit: 500,
      // mysql2 would capture a stack trace for every query (to decorate errors): measurable CPU on
      // every request, for stacks the exception filter does not need.
      trace: false,
      // Prepared statements kept per connection (reads, row writes and transactions' statements
      // run as such: prepared-statements.ts), least recently used closed first: a run's path is
      // some thirty texts and the hot reads a few dozen. The server's limit
      // (max_prepared_stmt_count, 16,382 by default) is shared by every connection of every
      // process: 10 connections × 4 workers × 100 stays far below it, and a statement the server
      // refuses to prepare at its limit runs as text (docs/operations.md, DB_POOL_SIZE).
      maxPreparedStatements: 100,
    },
  };
}

/** The configured data source, speaking the dialect of the server it reaches. */
export function openDataSourceOptions(config: AppConfig): Promise<DataSourceOptions> {
  return withServerFlavour(dataSourceOptions(config));
}

/**
 * A data source (not yet initialized) for `options`. The server, its cluster primary and the CLI
 * make theirs here, so that several processes can write one SQLite file: their transactions begin
 * IMMEDIATE and wait for one another, and no statement of the process reads into its open
 * transaction (sqlite-transactions.ts).
 */
export function newDataSource(options: DataSourceOptions): DataSource {
  const ds = new DataSource(options);
  prepareSqliteConnection(ds);
  return ds;
}

/** The configured data source (not yet initialized), as `newDataSource` makes it. */
export async function openDataSource(config: AppConfig): Promise<DataSource> {
  return newDataSource(await openDataSourceOptions(config));
}
