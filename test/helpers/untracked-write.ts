import { DataSource } from 'typeorm';

/**
 * A change made behind the API's back and around the statement tracking (on the driver's own
 * connection or pool), so no process announces it: what tests use to tell an answer given from
 * memory from one computed again. A write through the DataSource would be announced.
 */
export async function writeAroundTracking(ds: DataSource, sql: string): Promise<void> {
  const driver = ds.driver as unknown as {
    databaseConnection?: { prepare(sql: string): { run(): unknown } };
    pool?: { query(sql: string, cb: (err: Error | null) => void): void };
  };
  if (driver.pool) {
    const pool = driver.pool;
    await new Promise<void>((resolve, reject) => pool.query(sql, (err) => (err ? reject(err) : resolve())));
  } else {
    driver.databaseConnection!.prepare(sql).run();
  }
}
