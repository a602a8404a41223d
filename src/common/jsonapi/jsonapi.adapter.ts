import { ExpressAdapter } from '@nestjs/platform-express';
import type { Request, Response } from 'express';
import { requestOrigin } from './base-url';
import { CollectionDocument, ResourceDocument } from './document';
import { JSONAPI_MEDIA_TYPE } from './media-type';
import { paginationLinks, paginationMeta } from './pagination';

/** The body of a document controllers return: data, included, meta, and a collection's links. */
export function renderDocument(
  doc: ResourceDocument | CollectionDocument,
  req: Request,
  baseUrl: string | undefined,
): Record<string, unknown> {
  if (doc instanceof ResourceDocument) {
    const body: Record<string, unknown> = { data: doc.data };
    if (doc.included) body.included = doc.included;
    if (doc.meta) body.meta = doc.meta;
    return body;
  }
  const links = paginationLinks(requestOrigin(req, baseUrl), req.path, req.query, doc.page);
  const body: Record<string, unknown> = {
    data: doc.data,
    links: { ...links, ...doc.extraLinks },
    meta: { pagination: paginationMeta(doc.page) },
  };
  if (doc.included) body.included = doc.included;
  return body;
}

/**
 * Express, plus one step where Nest writes a handler's result: documents become JSON:API bodies
 * with the JSON:API media type. Doing it here rather than in a global interceptor keeps the
 * per-request cost of an interceptor chain (observables, async-context binding) off every route.
 */
export class JsonApiExpressAdapter extends ExpressAdapter {
  private baseUrl?: string;

  /** `BASE_URL` for absolute links, once the configuration is known (configureApp). */
  useBaseUrl(baseUrl: string | undefined): void {
    this.baseUrl = baseUrl;
  }

  override reply(response: Response, body: unknown, statusCode?: number): unknown {
    if (body instanceof ResourceDocument || body instanceof CollectionDocument) {
      response.type(JSONAPI_MEDIA_TYPE);
      return super.reply(response, renderDocument(body, response.req, this.baseUrl), statusCode);
    }
    return super.reply(response, body, statusCode);
  }
}
