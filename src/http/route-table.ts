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
  dispatch?: Dispatch;

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
 * (`api` → `v2` → `policy-sets`) and meets only the routes that can match it, in the order they
 * were registered. Those routes are Express's own (a router built
 * with the application router's options), so what matches, `req.params`, `req.route`, HEAD served
 * by GET and a handler's `next()` behave as before; the table only leaves out routes whose static
 * prefix differs from the request's, and walks the few that remain itself (see Dispatch).
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
    this.forgetDispatches(this.root);
  }

  /** The middleware that dispatches to the table's routes; mount it where the routes belong. */
  readonly middleware = (req: Request, res: Response, next: NextFunction): void => {
    const path = req.path;
    this.dispatchFor(path).handle(req, res, next, path);
  };

  /**
   * The route a request with this method and path would be dispatched to first, and its
   * parameters, without dispatching it: for requests refused before routing (a body that could not
   * be read), whose record should still name the route they were sent to.
   */
  find(method: string, path: string): FoundRoute | undefined {
    return this.dispatchFor(path).find(method, path);
  }

  /** The routes of the deepest node the path's leading segments lead to. */
  private dispatchFor(path: string): Dispatch {
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
    return (node.dispatch ??= this.build(node));
  }

  private build(node: PrefixNode): Dispatch {
    const router = express.Router({ caseSensitive: this.options.caseSensitive, strict: this.options.strict });
    for (const route of node.candidates()) router[route.method](route.path, route.handler);
    return new Dispatch(router);
  }

  private key(segment: string): string {
    return this.options.caseSensitive ? segment : segment.toLowerCase();
  }

  private forgetDispatches(node: PrefixNode): void {
    node.dispatch = undefined;
    for (const child of node.children.values()) this.forgetDispatches(child);
  }
}

/** A route's template as registered and the parameters a path gives it. */
export interface FoundRoute {
  path: string;
  params: Record<string, string>;
}

/** What Express's router keeps of a route: its layer matches the path, its route the method. */
interface RouteLayer {
  match(path: string): { params: Record<string, string> } | false;
  route: {
    path: string;
    _handlesMethod(method: string): boolean;
    dispatch(req: Request, res: Response, done: (err?: unknown) => void): void;
  };
}

/**
 * Express's `Router.handle` for a router that holds only routes, one loop instead of its general
 * machinery (mounted paths, URL rewriting, parameter callbacks, per-request closures): a request
 * meets each route in registration order; the first whose layer matches the path and whose route
 * takes the method (HEAD by GET) gets `req.route` and `req.params` and dispatches through the
 * route itself. A handler's `next()` or `next('route')` goes on with the routes after it,
 * `next(err)` and a parameter that cannot be decoded leave with the error, `next('router')`
 * leaves the table without one, and no match leaves it with `req.params` as it found it. An
 * OPTIONS request only meets routes registered for OPTIONS: Express's automatic answer (the
 * methods of the routes that match) comes from a router that nothing follows, and in an
 * application something always does (Nest's 404), so the table leaves it to what follows too.
 */
class Dispatch {
  private readonly layers: RouteLayer[];

  constructor(router: Router) {
    this.layers = (router as unknown as { stack: RouteLayer[] }).stack;
  }

  /** The first route that matches, as `handle` would meet it; none for a path that cannot be decoded. */
  find(method: string, path: string): FoundRoute | undefined {
    for (const layer of this.layers) {
      let match: ReturnType<RouteLayer['match']>;
      try {
        match = layer.match(path);
      } catch {
        return undefined;
      }
      if (match && layer.route._handlesMethod(method))
        return { path: layer.route.path, params: match.params };
    }
    return undefined;
  }

  handle(req: Request, res: Response, out: NextFunction, path: string): void {
    const params = req.params;
    const outerNext = req.next;
    const leave = (err?: unknown) => {
      req.params = params;
      req.next = outerNext;
      out(err);
    };
    const from = (start: number): void => {
      for (let i = start; i < this.layers.length; i++) {
        const layer = this.layers[i];
        let match: ReturnType<RouteLayer['match']>;
        try {
          match = layer.match(path);
        } catch (err) {
          return leave(err);
        }
        if (!match || !layer.route._handlesMethod(req.method)) continue;
        const after = (err?: unknown) => {
          if (err === 'router') return void setImmediate(leave);
          if (err && err !== 'route') return leave(err);
          from(i + 1);
        };
        req.route = layer.route;
        req.params = match.params;
        req.next = after;
        return layer.route.dispatch(req, res, after);
      }
      leave();
    };
    from(0);
  }
}
