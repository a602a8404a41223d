import { STATUS_CODES } from 'node:http';
import { ErrorWriter, JsonApiExceptionFilter } from '../../common/errors/jsonapi-exception.filter';
import { PLAIN_ERRORS_SCHEMA } from '../../common/jsonapi/openapi-schemas';

/**
 * The registry protocol's error shape, `{"errors": ["message", …]}` (not JSON:API): each item's
 * detail, else the status's reason phrase.
 */
export const writeRegistryProtocolErrors: ErrorWriter = (res, failure) => {
  const messages = failure.items.map((i) => i.detail).filter((d): d is string => !!d);
  res
    .status(failure.status)
    .json({ errors: messages.length ? messages : [STATUS_CODES[failure.status] ?? 'Error'] });
};

/**
 * The one catch-all filter, writing the registry protocol's shape: every failure on its routes,
 * including the 401 of the bearer guard, is mapped and logged as on every other route.
 */
export const registryProtocolExceptionFilter = new JsonApiExceptionFilter(writeRegistryProtocolErrors);

/** OpenAPI schema of the protocol's error shape. */
export const REGISTRY_PROTOCOL_ERRORS = PLAIN_ERRORS_SCHEMA;
