import { isConnectionError } from '../common/errors/db-errors';
import { ConfigError } from '../config/app-config';
import { createLogger } from '../observability/logger';

const sentence = (text: string) => (/[.!?]$/.test(text) ? text : `${text}.`);

function codeOf(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null | undefined)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** Whether the failure is the operator's to fix (configuration, database), not a fault in Plinth. */
function isOperational(err: unknown): boolean {
  return (
    err instanceof ConfigError ||
    isConnectionError(err) ||
    /^(ER_|ENOTFOUND|EAI_AGAIN)/.test(codeOf(err) ?? '')
  );
}

/** The one sentence that ends a failed start: what went wrong and, where known, what to do. */
export function startupFailureMessage(err: unknown): string {
  if (err instanceof ConfigError) {
    return sentence(`Plinth did not start because its configuration is invalid: ${err.message}`);
  }
  const code = codeOf(err);
  if (code === 'ER_ACCESS_DENIED_ERROR') {
    return 'Plinth did not start because the database refused the user or password in DATABASE_URL (or DATABASE_PASSWORD).';
  }
  if (code === 'ER_BAD_DB_ERROR') {
    return 'Plinth did not start because the database named in DATABASE_URL does not exist; create it first.';
  }
  if (isConnectionError(err) || code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
    return (
      `Plinth did not start because the database could not be reached (${code ?? 'no answer'}); ` +
      'check DATABASE_URL and that the database is running.'
    );
  }
  const message = err instanceof Error ? err.message : String(err);
  return sentence(`Plinth did not start: ${message}`);
}

/**
 * Ends a process whose start failed with one JSON line like every other, at fatal: the error
 * itself (with its stack only when it is a fault in Plinth), then exit code 1.
 */
export function exitOnStartupFailure(err: unknown): never {
  const fields = isOperational(err) ? { code: codeOf(err) } : { err };
  createLogger('info').fatal(fields, startupFailureMessage(err));
  process.exit(1);
}
