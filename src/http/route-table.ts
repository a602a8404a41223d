import express, { NextFunction, Request, RequestHandler, Response, Router } from 'express';

/** The methods a route is registered with, as Express's application names them. */
export type RouteMethod = 'get' | 'post' | 'put' | 'patch' | 'delete' | 'head' | 'options' | 'all';

interface RegisteredRoute {
  order: number;
  method: RouteMethod;
  path: string;
  handler: RequestHandler;
}

/** A segment compared as text: word characters, dots, tildes and dashes, nothing path-to-regexp reads. */
const STATIC_SEGMENT = /^[\w.~-]+$/;

/**
 * One level of the table: the routes whose leading static segments lead here, and the next
 * static segments. `router` holds the routes of this node and of its ancestors, in the order they
 * were registered, built on first use.
 */
class PrefixNode {
  readonly children = new Map<string, PrefixNode>();
  readonly routes: RegisteredRoute[] = [];
  router?: Router;

  constructor(readonly parent?: PrefixNode) {}

  /** This node's routes and its ancestors', in registration order. */
  candidates(): RegisteredRoute[] {
    const above = this.parent?.candidates() ?? [];
    return [...above, ...this.routes].sort((a, b) => a.order - b.order);
  }
}

/**
 * Routes looked up by their leading static segments before Express matches them. Express's
 * application router tries every route layer in turn until one matches, some 180 path-to-regexp
 * matches for a route registered late; here a request walks down the static segments of its path
 * (`api` → `v2` → `policy-sets`) and hands itself to a router that holds only the routes that can
 * match it, in the order they were registered. That router is Express's own, built with the
 * application router's options, so what matches, `req.params`, `req.route`, HEAD served by GET,
 * and a handler's `next()` all behave as before; the table only leaves out routes whose static
 * prefix differs from the request's.
 */
export class RouteTable {
  private readonly root = new PrefixNode();
  private registered = 0;

  constructor(private readonly options: { caseSensitive: boolean; strict: boolean }) {}

  add(method: RouteMethod, path: string, handler: RequestHandler): void {
    let node = this.root;
    for (const segment of path.split('/').filter(Boolean)) {
      if (!STATIC_SEGMENT.test(segment)) break;
      const key = this.key(segment);
      let child = node.children.get(key);
      if (!child) {
        child = new PrefixNode(node);
        node.children.set(key, child);
      }
      node = child;
    }
    node.routes.push({ order: this.registered++, method, path, handler });
    this.forgetRouters(this.root);
  }

  /** The middleware that dispatches to the table's routes; mount it where the routes belong. */
  readonly middleware = (req: Request, res: Response, next: NextFunction): void => {
    this.routerFor(req.path)(req, res, next);
  };

  /** The router of the deepest node the path's leading segments lead to. */
  routerFor(path: string): Router {
    let node = this.root;
    let start = 1;
    while (start < path.length) {
      const slash = path.indexOf('/', start);
      const end = slash === -1 ? path.length : slash;
      const child = node.children.get(this.key(path.slice(start, end)));
      if (!child) break;
      node = child;
      start = end + 1;
    }
    return (node.router ??= this.build(node));
  }

  private build(node: PrefixNode): Router {
    const router = express.Router({ caseSensitive: this.options.caseSensitive, strict: this.options.strict });
    for (const route of node.candidates()) router[route.method](route.path, route.handler);
    return router;
  }

  private key(segment: string): string {
    return this.options.caseSensitive ? segment : segment.toLowerCase();
  }

  private forgetRouters(node: PrefixNode): void {
    node.router = undefined;
    for (const child of node.children.values()) this.forgetRouters(child);
  }
}
