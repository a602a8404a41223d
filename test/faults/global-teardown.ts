import { startMariaDb } from './mariadb';

/** Whatever happened in the fault tests, leave MariaDB running for everyone else. */
export default async function ensureMariaDbRuns(): Promise<void> {
  await startMariaDb();
}
