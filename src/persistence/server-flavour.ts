import type { RowDataPacket } from 'mysql2/promise';
import { DataSourceOptions } from 'typeorm';

export type MysqlFlavour = 'mysql' | 'mariadb';

/** MariaDB names itself in `VERSION()` ("10.11.6-MariaDB-0+deb12u1"); MySQL never does. */
export function flavourOfVersion(version: string): MysqlFlavour {
  return /mariadb/i.test(version) ? 'mariadb' : 'mysql';
}

/** Where to connect: the connection options of a MySQL-family data source. */
export interface ServerAddress {
  host: string;
  port?: number;
  username?: string;
  password?: string;
  database?: string;
}

/** What the server at `address` is, asked over one short-lived connection. */
export async function detectServerFlavour(
  address: ServerAddress,
  connectTimeoutMs: number,
): Promise<MysqlFlavour> {
  // Loaded here, not with the module: SQLite installations never load mysql2.
  const { createConnection } = await import('mysql2/promise');
  const connection = await createConnection({
    host: address.host,
    port: address.port,
    user: address.username,
    password: address.password,
    database: address.database,
    connectTimeout: connectTimeoutMs,
  });
  try {
    const [rows] = await connection.query<(RowDataPacket & { version: string })[]>(
      'SELECT VERSION() AS version',
    );
    return flavourOfVersion(String(rows[0]?.version ?? ''));
  } finally {
    await connection.end();
  }
}

/**
 * The options with the dialect of the server they point at, whichever of `mysql://` and
 * `mariadb://` was written: the two differ in SQL TypeORM writes (MySQL 8's `FOR SHARE` is a
 * syntax error on MariaDB) and in how they report column defaults.
 */
export async function withServerFlavour<T extends DataSourceOptions>(options: T): Promise<T> {
  if (options.type !== 'mysql' && options.type !== 'mariadb') return options;
  const { host, port, username, password, database, connectTimeout } = options;
  if (!host) return options;
  const flavour = await detectServerFlavour(
    { host, port, username, password: typeof password === 'string' ? password : undefined, database },
    connectTimeout ?? 10000,
  );
  return { ...options, type: flavour };
}
