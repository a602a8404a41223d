import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { DomainError } from '../common/errors/domain-error';
import { JSONAPI_MEDIA_TYPE } from '../common/jsonapi/media-type';

/** A media type or media range split into its lower-cased type and its parameter names. */
interface MediaRange {
  type: string;
  parameters: string[];
}

function parseRange(text: string): MediaRange {
  const [type, ...params] = text.split(';');
  return {
    type: type.trim().toLowerCase(),
    parameters: params.map((p) => p.split('=')[0].trim().toLowerCase()).filter((name) => name !== ''),
  };
}

/**
 * JSON:API 1.0 content negotiation: a body sent as the JSON:API media type with any media type
 * parameter is refused (415).
 */
export function refusedContentType(contentType: string | undefined): boolean {
  if (!contentType) return false;
  const range = parseRange(contentType);
  return range.type === JSONAPI_MEDIA_TYPE && range.parameters.length > 0;
}

/**
 * An `Accept` that names the JSON:API media type only with media type parameters (406). `q` is
 * an accept parameter (a weight), not one of the media type's: `application/vnd.api+json;q=0.9`
 * is acceptable. Accept headers without the JSON:API media type (`application/json`, `*\/*`) are
 * answered as before.
 */
export function refusedAccept(accept: string | undefined): boolean {
  if (!accept || !accept.toLowerCase().includes(JSONAPI_MEDIA_TYPE)) return false;
  const ours = accept
    .split(',')
    .map(parseRange)
    .filter((r) => r.type === JSONAPI_MEDIA_TYPE);
  return ours.length > 0 && ours.every((r) => r.parameters.some((p) => p !== 'q'));
}

/**
 * Mounted before the response cache and body parsing, so that neither a remembered answer nor a
 * parser error reaches a request the spec says to refuse. `application/json` keeps working as
 * before: only the JSON:API media type with parameters is refused.
 */
export function contentNegotiation(): RequestHandler {
  return (req: Request, _res: Response, next: NextFunction) => {
    if (refusedContentType(req.headers['content-type'])) {
      return next(
        new DomainError('unsupported-media-type', [
          { detail: `${JSONAPI_MEDIA_TYPE} must be sent without media type parameters` },
        ]),
      );
    }
    if (refusedAccept(req.headers.accept)) {
      return next(
        new DomainError('not-acceptable', [
          { detail: `Accept must offer ${JSONAPI_MEDIA_TYPE} without media type parameters` },
        ]),
      );
    }
    next();
  };
}
