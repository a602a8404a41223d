import { types } from 'node:util';
import pino, { DestinationStream, Logger } from 'pino';

export const REDACTED = '[redacted]';

/**
 * Capabilities that can travel inside any logged text: the path of a signed upload/download link,
 * a link token quoted on its own (a base64url JSON payload and a 43-character HMAC), and
 * token-like query values such as the initial admin creation token. The character classes stop at
 * a quote or backslash, so the patterns also hold on a serialized JSON line. A query value that is
 * wholly a placeholder (`token=<IACT>`, in a command the log tells the operator to run) is left as
 * it is: no token has angle brackets in it.
 */
const CAPABILITIES: [RegExp, string][] = [
  [/\/uploads\/[\w.%-]+/g, `/uploads/${REDACTED}`],
  [/eyJ[\w-]*\.[\w-]{43}(?![\w-])/g, REDACTED],
  [
    /([?&](?:[^=&"\\\s]*token[^=&"\\\s]*|signature|sig)=)(?!<[\w-]+>(?:[&#"\\\s]|$))[^&#"\\\s]*/gi,
    `$1${REDACTED}`,
  ],
];

const MAY_HOLD_CAPABILITY = /\/uploads\/|eyJ|token|sig/i;

/** `text` with every capability replaced by `[redacted]`. */
export function redactCapabilities(text: string): string {
  if (!MAY_HOLD_CAPABILITY.test(text)) return text;
  return CAPABILITIES.reduce((out, [pattern, replacement]) => out.replace(pattern, replacement), text);
}

/** Also true for errors of another realm (Node's own, seen from a test sandbox). */
const isError = (value: unknown): value is Error => value instanceof Error || types.isNativeError(value);

interface LoggedError {
  type: string;
  message: string;
  stack?: string;
  code?: unknown;
  errno?: unknown;
  syscall?: unknown;
  cause?: LoggedError;
}

/**
 * What a log keeps of an error: never its other properties, which for a failed query hold the SQL
 * and its bound parameters (user data, token digests).
 */
export function loggableError(err: unknown, depth = 0): LoggedError {
  if (!isError(err)) return { type: 'NonError', message: String(err) };
  const source = err as Error & { code?: unknown; errno?: unknown; syscall?: unknown };
  const driver = (err as { driverError?: { code?: unknown; errno?: unknown } }).driverError;
  const out: LoggedError = { type: err.name, message: err.message, stack: err.stack };
  const code = source.code ?? driver?.code;
  const errno = source.errno ?? driver?.errno;
  if (code !== undefined) out.code = code;
  if (errno !== undefined) out.errno = errno;
  if (source.syscall !== undefined) out.syscall = source.syscall;
  if (err.cause !== undefined && depth < 3) out.cause = loggableError(err.cause, depth + 1);
  return out;
}

/**
 * Every logger of the process is built here, so that every line, whichever path wrote it (access
 * log, exception filter, Nest's own messages, the cluster primary, a start-up failure), passes the
 * same redaction just before it is written.
 */
export function createLogger(level: string, destination: DestinationStream = process.stdout): Logger {
  return pino(
    {
      level,
      redact: {
        paths: ['req.headers.authorization', 'req.headers.cookie', 'req.query.token'],
        censor: REDACTED,
      },
      // An error logged as it was thrown; one the caller already reduced passes through.
      serializers: { err: (err: unknown) => (isError(err) ? loggableError(err) : err) },
      hooks: { streamWrite: redactCapabilities },
    },
    destination,
  );
}
