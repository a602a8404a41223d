import { DomainError } from './domain-error';

/** What body-parser attaches to the errors it raises before any handler runs. */
interface ParserError {
  type?: unknown;
  status?: number;
  statusCode?: number;
}

/**
 * A body-parser's failure (JSON or form) as the domain error the client gets: `bodyParserError`'s,
 * else a 400. Broken compression surfaces as a bare zlib error: still the body could not be read.
 */
export function unreadableBody(err: unknown): DomainError {
  return (
    bodyParserError(err) ?? new DomainError('bad-request', [{ detail: 'request body could not be read' }])
  );
}

/**
 * The domain error for a request body the server could not read, or undefined when `err` did not
 * come from body-parser. Parser messages quote the input, so none of them reaches the client.
 */
export function bodyParserError(err: unknown): DomainError | undefined {
  if (!err || typeof err !== 'object') return undefined;
  const { type, status, statusCode } = err as ParserError;
  if (typeof type !== 'string') return undefined;
  switch (type) {
    case 'entity.too.large':
      return new DomainError('too-large', [{ detail: 'request body is too large' }]);
    case 'entity.parse.failed':
      return new DomainError('bad-request', [{ detail: 'request body is not valid JSON' }]);
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return new DomainError('unsupported-media-type', [
        { detail: 'request body encoding or charset is not supported' },
      ]);
  }
  const code = status ?? statusCode;
  if (code !== undefined && code >= 400 && code < 500) {
    return new DomainError('bad-request', [{ detail: 'request body could not be read' }]);
  }
  return undefined;
}
