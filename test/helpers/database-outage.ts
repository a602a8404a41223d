import { INestApplication } from '@nestjs/common';
import { DataSource } from 'typeorm';

/** What the tests touch of mysql2's pool (its own fields). */
interface Mysql2Pool {
  config: { connectionConfig: { port: number } };
  _freeConnections: { length: number; get(i: number): { destroy(): void } };
  _allConnections: { length: number };
}

/**
 * A real outage for a MySQL/MariaDB test app: the pool is pointed at a closed port and every open
 * connection is closed, including one a background flush holds at this moment (it returns to the
 * free list when its statement ends), so that every query after this needs a connection that cannot
 * be made. Returns what undoes it.
 */
export async function cutOffDatabase(app: INestApplication): Promise<() => void> {
  const pool = (app.get(DataSource).driver as unknown as { pool: Mysql2Pool }).pool;
  const port = pool.config.connectionConfig.port;
  pool.config.connectionConfig.port = 1;
  const deadline = Date.now() + 5_000;
  while (pool._allConnections.length && Date.now() < deadline) {
    while (pool._freeConnections.length) pool._freeConnections.get(0).destroy();
    if (pool._allConnections.length) await new Promise((r) => setTimeout(r, 10));
  }
  if (pool._allConnections.length) throw new Error('a database connection stayed busy for 5 s');
  return () => {
    pool.config.connectionConfig.port = port;
  };
}
