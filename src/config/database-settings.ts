import { join } from 'node:path';

type Env = Record<string, string | undefined>;

export type DatabaseDialect = 'sqlite' | 'mysql';

/** Where a MySQL or MariaDB database is, with the user name and password decoded. */
export interface MysqlConnection {
  /** What the URL's scheme says; at connect Plinth asks the server which one it is. */
  scheme: 'mysql' | 'mariadb';
  host: string;
  port: number;
  user: string;
  /** Undefined: log in without a password. */
  password?: string;
  database: string;
}

export interface DatabaseSettings {
  /** DATABASE_URL as given (or the default); never logged, it may hold a password. */
  url: string;
  dialect: DatabaseDialect;
  /** The SQLite file (or `:memory:`) when the dialect is sqlite. */
  sqlitePath?: string;
  mysql?: MysqlConnection;
}

/** A database setting that cannot work; AppConfig turns it into a ConfigError. */
export class DatabaseSettingError extends Error {}

const ENCODE_HINT =
  'percent-encode the user name and password in the URL (e.g. encodeURIComponent), or leave the ' +
  'password out of the URL and set DATABASE_PASSWORD';

function decoded(part: string, what: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    throw new DatabaseSettingError(`DATABASE_URL has a badly percent-encoded ${what}; ${ENCODE_HINT}`);
  }
}

/**
 * `mysql://user[:password]@host[:port]/database` (or `mariadb://`). The password may instead come
 * from DATABASE_PASSWORD, so that it never has to be written into a URL; not from both.
 */
function mysqlConnection(url: string, env: Env): MysqlConnection {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new DatabaseSettingError(`DATABASE_URL is not a valid URL; ${ENCODE_HINT}`);
  }
  const database = parsed.pathname.replace(/^\//, '');
  if (!parsed.hostname || !database || database.includes('/')) {
    throw new DatabaseSettingError(
      `DATABASE_URL must name a host and a database (mysql://user@host:3306/plinth); ${ENCODE_HINT}`,
    );
  }
  if (parsed.search || parsed.hash) {
    throw new DatabaseSettingError(
      `DATABASE_URL must not have a query or fragment (?…, #…): Plinth reads no options from it; ${ENCODE_HINT}`,
    );
  }
  if (!parsed.username)
    throw new DatabaseSettingError('DATABASE_URL must name a user (mysql://user@host/db)');
  const separate = env.DATABASE_PASSWORD;
  if (separate !== undefined && separate !== '' && parsed.password) {
    throw new DatabaseSettingError(
      'DATABASE_PASSWORD is set and DATABASE_URL has a password too: give it in one place only',
    );
  }
  const password = parsed.password ? decoded(parsed.password, 'password') : separate || undefined;
  return {
    scheme: parsed.protocol === 'mariadb:' ? 'mariadb' : 'mysql',
    host: parsed.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: parsed.port ? Number(parsed.port) : 3306,
    user: decoded(parsed.username, 'user name'),
    password,
    database: decoded(database, 'database name'),
  };
}

/** The versions that decide whether the embedded SQLite driver can run. */
export interface Runtime {
  node: string;
  /** better-sqlite3's version. */
  sqliteDriver: string;
}

function currentRuntime(): Runtime {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the installed driver's own version
  const driver = require('better-sqlite3/package.json') as { version: string };
  return { node: process.versions.node, sqliteDriver: driver.version };
}

/**
 * Why SQLite cannot be used on this runtime, if it cannot. From Node 24.19 on, `node::ObjectWrap`
 * removes an environment cleanup hook in its destructor and aborts the process (SIGABRT,
 * `Assertion failed: (env) != nullptr`) when the garbage collector finalizes a wrapped object
 * outside a JavaScript context. better-sqlite3 before 13 wraps every prepared statement that way,
 * so a server on SQLite dies at its first idle garbage collection (reproduced on Node 24.21 with
 * better-sqlite3 12). better-sqlite3 13 uses Node-API and is not affected, but needs Node 22.
 */
export function sqliteRuntimeProblem(runtime: Runtime): string | undefined {
  const [major, minor] = runtime.node.split('.').map(Number);
  const driverMajor = Number(runtime.sqliteDriver.split('.')[0]);
  const affected = major > 24 || (major === 24 && minor >= 19);
  if (!affected || driverMajor >= 13) return undefined;
  return (
    `the embedded SQLite database cannot run on Node.js ${runtime.node} with better-sqlite3 ` +
    `${runtime.sqliteDriver} (the process would abort at its first idle garbage collection): ` +
    'use Node.js 22 (or 20.19+), or a mysql:// or mariadb:// DATABASE_URL'
  );
}

/** DATABASE_URL (default: SQLite under DATA_DIR) and DATABASE_PASSWORD, checked. */
export function databaseSettings(
  env: Env,
  dataDir: string,
  runtime: () => Runtime = currentRuntime,
): DatabaseSettings {
  const given = env.DATABASE_URL;
  const url = given === undefined || given === '' ? `sqlite:${join(dataDir, 'plinth.sqlite')}` : given;
  if (/^(mysql|mariadb):\/\//.test(url)) {
    return { url, dialect: 'mysql', mysql: mysqlConnection(url, env) };
  }
  if (!/^sqlite:/.test(url)) {
    throw new DatabaseSettingError('DATABASE_URL must start with mysql://, mariadb:// or sqlite:');
  }
  if (env.DATABASE_PASSWORD) {
    throw new DatabaseSettingError('DATABASE_PASSWORD is only for a mysql:// or mariadb:// DATABASE_URL');
  }
  const problem = sqliteRuntimeProblem(runtime());
  if (problem) throw new DatabaseSettingError(problem);
  return { url, dialect: 'sqlite', sqlitePath: url.replace(/^sqlite:(\/\/)?/, '') };
}
