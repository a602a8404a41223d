import { QueryFailedError } from 'typeorm';
import { DomainError } from './domain-error';

interface DriverError {
  code?: string;
  errno?: number;
  /** mysql2 marks errors after which the connection is unusable (lost, closed, protocol). */
  fatal?: boolean;
}

function driverError(err: unknown): DriverError | undefined {
  if (!(err instanceof QueryFailedError)) return undefined;
  return err.driverError as DriverError;
}

/** Unique or primary key violation on MySQL/MariaDB (1062) or SQLite. */
export function isUniqueViolation(err: unknown): boolean {
  const d = driverError(err);
  if (!d) return false;
  return (
    d.errno === 1062 ||
    d.code === 'ER_DUP_ENTRY' ||
    d.code === 'SQLITE_CONSTRAINT_UNIQUE' ||
    d.code === 'SQLITE_CONSTRAINT_PRIMARYKEY'
  );
}

/** Foreign key violation: a referenced row is missing, or a referencing row still exists. */
export function isForeignKeyViolation(err: unknown): boolean {
  const d = driverError(err);
  if (!d) return false;
  return (
    d.errno === 1451 ||
    d.errno === 1452 ||
    d.errno === 1216 ||
    d.errno === 1217 ||
    d.code === 'SQLITE_CONSTRAINT_FOREIGNKEY'
  );
}

/**
 * Runs a write that a unique index guards and answers the duplicate the index refuses (the only
 * check, or a race that slipped past the service's own): `onDuplicate` gives either the refusal to
 * throw (`() => taken('name')`, a 422) or a value to return instead. With `onMissingReference`, a
 * foreign key refusal (a row the write names went away since it was read) is thrown as what it
 * gives, usually `notFound()`. Any other error passes on unchanged.
 */
export async function whenDuplicate<T>(
  write: () => Promise<T>,
  onDuplicate: (err: QueryFailedError) => DomainError | T,
  onMissingReference?: () => DomainError,
): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (isUniqueViolation(err)) {
      const answer = onDuplicate(err as QueryFailedError);
      if (answer instanceof DomainError) throw answer;
      return answer;
    }
    if (onMissingReference && isForeignKeyViolation(err)) throw onMissingReference();
    throw err;
  }
}

/**
 * A transaction on MySQL/MariaDB that lost a deadlock or a lock wait and may simply be run again.
 * SQLite's busy errors are not: its transactions already waited out the busy timeout for the lock
 * (persistence/sqlite-transactions.ts), and waiting again would hold the worker longer still.
 */
export function isRetryableTransactionError(err: unknown): boolean {
  const d = driverError(err);
  if (!d) return false;
  return d.errno === 1213 || d.errno === 1205;
}

/**
 * SQLite still locked by another process after the busy timeout (SQLITE_BUSY and its extended
 * codes, SQLITE_LOCKED): the write may succeed later (503 with Retry-After), nothing is broken.
 */
export function isDatabaseBusy(err: unknown): boolean {
  const code = driverError(err)?.code;
  return typeof code === 'string' && /^SQLITE_(BUSY|LOCKED)(_|$)/.test(code);
}

const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'PROTOCOL_CONNECTION_LOST',
  'PROTOCOL_SEQUENCE_TIMEOUT',
  'ER_CON_COUNT_ERROR',
  'ER_SERVER_SHUTDOWN',
  'POOL_CLOSED',
  'POOL_ACQUIRE_TIMEOUT',
  'ER_CONNECTION_KILLED',
]);

/** The database cannot be reached: the caller should try again later (503), not see a 500. */
export function isConnectionError(err: unknown): boolean {
  const candidates = [err, err instanceof QueryFailedError ? err.driverError : undefined];
  for (const c of candidates) {
    if (!c || typeof c !== 'object') continue;
    const code = (c as DriverError).code;
    const errno = (c as DriverError).errno;
    if ((code && CONNECTION_CODES.has(code)) || errno === 2002 || errno === 2003 || errno === 2013)
      return true;
    if ((c as DriverError).fatal === true) return true;
    if ((c as Error).message?.includes('connect ETIMEDOUT')) return true;
  }
  return false;
}
