import type { NestApplicationOptions } from '@nestjs/common';
import { ExpressAdapter } from '@nestjs/platform-express';
import http from 'node:http';
import https from 'node:https';
import { classesBornAs } from './born-prototypes';
import type { Express, Request, RequestHandler, Response } from 'express';
import { FoundRoute, RouteMethod, RouteTable } from './route-table';
import { requestOrigin } from '../common/jsonapi/base-url';
import { CollectionDocument, ResourceDocument, ResourceObject } from '../common/jsonapi/document';
import { applyFieldset, parseFieldsets } from '../common/jsonapi/fields';
import { JSONAPI_MEDIA_TYPE } from '../common/jsonapi/media-type';
import { paginationLinks, paginationMeta } from '../common/jsonapi/pagination';
import { PreparedBody } from '../common/jsonapi/prepared-body';
import { requestContext } from '../common/request-context';

const JSON_MEDIA_TYPE = 'application/json';

/** The body of a document controllers return: data, included, meta, and a collection's links. */
export function renderDocument(
  doc: ResourceDocument | CollectionDocument,
  req: Request,
  baseUrl: string | undefined,
): Record<string, unknown> {
  // Sparse fieldsets (`fields[TYPE]`), already validated by JsonApiRequestGuard, apply to the
  // primary data and to included resources alike.
  const fieldsets = parseFieldsets(req.query);
  const sparse = (r: ResourceObject) => (fieldsets ? applyFieldset(r, fieldsets) : r);
  const included = doc.included && fieldsets ? doc.included.map(sparse) : doc.included;
  if (doc instanceof ResourceDocument) {
    const body: Record<string, unknown> = { data: doc.data && sparse(doc.data) };
    if (included) body.included = included;
    if (doc.meta) body.meta = doc.meta;
    return body;
  }
  const links = paginationLinks(requestOrigin(req, baseUrl), req.path, req.query, doc.page);
  const body: Record<string, unknown> = {
    data: fieldsets ? doc.data.map(sparse) : doc.data,
    links: { ...links, ...doc.extraLinks },
    meta: { ...doc.meta, pagination: paginationMeta(doc.page) },
  };
  if (included) body.included = included;
  return body;
}

/**
 * A handler's result as the bytes it will be sent as: documents as JSON:API, other objects (the
 * registry protocol) as plain JSON. Undefined for anything else (no body, strings, streams).
 */
export function prepareBody(
  result: unknown,
  req: Request,
  baseUrl: string | undefined,
): PreparedBody | undefined {
  if (result instanceof ResourceDocument || result instanceof CollectionDocument) {
    return new PreparedBody(JSONAPI_MEDIA_TYPE, JSON.stringify(renderDocument(result, req, baseUrl)));
  }
  if (result !== null && typeof result === 'object' && Object.getPrototypeOf(result) === Object.prototype) {
    return new PreparedBody(JSON_MEDIA_TYPE, JSON.stringify(result));
  }
  return undefined;
}

/**
 * Express, plus one step where Nest writes a handler's result: documents become JSON:API bodies
 * with the JSON:API media type. Doing it here rather than in a global interceptor keeps the
 * per-request cost of an interceptor chain (observables, async-context binding) off every route.
 */
export class JsonApiExpressAdapter extends ExpressAdapter {
  private baseUrl?: string;
  /** The table routes are being added to, and the layer of the application router it sits in. */
  private table?: { routes: RouteTable; layer: unknown };
  /** Every table, in the order they were mounted. */
  private readonly tables: RouteTable[] = [];

  override get(...args: unknown[]): unknown {
    return this.route('get', args);
  }
  override post(...args: unknown[]): unknown {
    return this.route('post', args);
  }
  override put(...args: unknown[]): unknown {
    return this.route('put', args);
  }
  override patch(...args: unknown[]): unknown {
    return this.route('patch', args);
  }
  override delete(...args: unknown[]): unknown {
    return this.route('delete', args);
  }
  override head(...args: unknown[]): unknown {
    return this.route('head', args);
  }
  override options(...args: unknown[]): unknown {
    return this.route('options', args);
  }
  override all(...args: unknown[]): unknown {
    return this.route('all', args);
  }

  /**
   * A route (a path and one handler) goes into a RouteTable instead of its own layer of the
   * application router. Consecutive routes share one table; anything mounted in between (a
   * middleware) closes it, so the order of layers stays the order of registration. Other calls
   * (`get('setting')`, several handlers) go to Express as they are.
   */
  private route(method: RouteMethod, args: unknown[]): unknown {
    const app = this.getInstance<Express>();
    const [path, handler] = args;
    if (args.length !== 2 || typeof path !== 'string' || typeof handler !== 'function') {
      return (app[method] as (...a: unknown[]) => unknown).apply(app, args);
    }
    const router = app.router as unknown as { stack: unknown[]; caseSensitive?: boolean; strict?: boolean };
    const stack = router.stack;
    if (!this.table || stack[stack.length - 1] !== this.table.layer) {
      const routes = new RouteTable({ caseSensitive: !!router.caseSensitive, strict: !!router.strict });
      app.use(routes.middleware);
      this.table = { routes, layer: stack[stack.length - 1] };
      this.tables.push(routes);
    }
    this.table.routes.add(method, path, handler as RequestHandler);
    return this;
  }

  /**
   * Node's HTTP server as Nest makes it, with requests and responses made with Express's
   * prototypes (born-prototypes.ts). HTTPS and forced connection closing, which Plinth does not
   * use, stay Nest's own.
   */
  override initHttpServer(options: NestApplicationOptions): void {
    const app = this.getInstance<Express>();
    const classes = classesBornAs(app);
    if (options?.forceCloseConnections || !classes) {
      super.initHttpServer(options);
      return;
    }
    this.setHttpServer(
      options?.httpsOptions
        ? https.createServer({ ...options.httpsOptions, ...classes }, app)
        : http.createServer(classes, app),
    );
  }

  /**
   * The route a request would reach (`/api/v2/workspaces/:id`) and its parameters, asked without
   * dispatching it: what the audit trail names for a write refused before routing.
   */
  routeFor(method: string, path: string): FoundRoute | undefined {
    for (const table of this.tables) {
      const found = table.find(method, path);
      if (found) return found;
    }
    return undefined;
  }

  /** `BASE_URL` for absolute links, once the configuration is known (configureApp). */
  useBaseUrl(baseUrl: string | undefined): void {
    this.baseUrl = baseUrl;
  }

  override reply(response: Response, body: unknown, statusCode?: number): unknown {
    const context = requestContext(response.req);
    const slot = context.responseSlot;
    if (body instanceof ResourceDocument && body.data && response.req.method !== 'GET')
      context.writtenResource = { type: body.data.type, id: body.data.id };
    const prepared =
      body instanceof ResourceDocument || body instanceof CollectionDocument || slot
        ? prepareBody(body, response.req, this.baseUrl)
        : undefined;
    const status = statusCode ?? response.statusCode;
    // JSON:API: a 201 carries a Location header with the new resource's URL (its links.self).
    if (status === 201 && body instanceof ResourceDocument) {
      const self = body.data?.links?.self;
      if (self) response.setHeader('Location', self);
    }
    if (!prepared) return super.reply(response, body, statusCode);
    if (slot && status === 200) slot.keep(prepared);
    return prepared.send(response, status);
  }
}
