import express, { NextFunction, Request, RequestHandler, Response } from 'express';
import http from 'node:http';
import { classesBornAs } from './born-prototypes';
import { middlewareSequence } from './middleware-sequence';
import { parseQueryOnce } from './query-memo';

/**
 * What the pieces that stand in for Express's own machinery assume of its internals, one test per
 * assumption, each failing with the assumption and the file that depends on it. An Express or
 * router upgrade that breaks one fails here before any request is answered differently.
 */

function assume(holds: boolean, assumption: string, dependent: string): void {
  if (!holds) throw new Error(`Express no longer works as ${dependent} assumes: ${assumption}`);
}

/** What Express 5's router keeps of a route registered with `app.get(path, handler)`. */
interface RouteLayer {
  match?: (path: string) => unknown;
  route?: { path?: unknown; _handlesMethod?: unknown; dispatch?: unknown };
}

describe('Express internals Plinth relies on', () => {
  it('route-table.ts: the application router is `app.router`, its layers an array `stack`', () => {
    const app = express();
    app.get('/a', (_req, res) => void res.end());
    const router = (app as unknown as { router?: { stack?: unknown } }).router;
    assume(
      Array.isArray(router?.stack),
      'app.router.stack is the array of layers',
      'http/jsonapi.adapter.ts',
    );
  });

  it('route-table.ts: a route layer matches a path to { params } (or false) and its route dispatches', () => {
    const app = express();
    app.get('/things/:id', (_req, res) => void res.end());
    const stack = (app as unknown as { router: { stack: RouteLayer[] } }).router.stack;
    const layer = stack[stack.length - 1];
    assume(typeof layer.match === 'function', 'Layer#match(path) exists', 'http/route-table.ts');
    const matched = layer.match!('/things/a%20b') as { params?: Record<string, string> } | false;
    assume(
      typeof matched === 'object' && matched.params?.id === 'a b',
      'Layer#match returns { params } with decoded values',
      'http/route-table.ts',
    );
    assume(
      layer.match!('/other') === false,
      'Layer#match returns false for another path',
      'http/route-table.ts',
    );
    assume(
      layer.route?.path === '/things/:id' &&
        typeof layer.route._handlesMethod === 'function' &&
        typeof layer.route.dispatch === 'function',
      'a route layer carries route.path, route._handlesMethod(method) and route.dispatch(req, res, done)',
      'http/route-table.ts',
    );
    const handles = layer.route!._handlesMethod as (method: string) => boolean;
    assume(
      handles.call(layer.route, 'HEAD') &&
        handles.call(layer.route, 'get') &&
        !handles.call(layer.route, 'POST'),
      'Route#_handlesMethod serves HEAD by GET and ignores case',
      'http/route-table.ts',
    );
  });

  it('route-table.ts: a path that cannot be decoded makes Layer#match throw a 400', () => {
    const app = express();
    app.get('/things/:id', (_req, res) => void res.end());
    const stack = (app as unknown as { router: { stack: Required<RouteLayer>[] } }).router.stack;
    let thrown: unknown;
    try {
      stack[stack.length - 1].match('/things/%E0%A4%A');
    } catch (err) {
      thrown = err;
    }
    assume(
      (thrown as { status?: number } | undefined)?.status === 400,
      'Layer#match throws an error with status 400 for a malformed parameter',
      'http/route-table.ts',
    );
  });

  it("query-memo.ts: `req.query` is a getter on the application's request prototype chain", () => {
    const app = express();
    let getter: unknown;
    for (let o: object | null = app.request; o && !getter; o = Object.getPrototypeOf(o) as object | null) {
      getter = Object.getOwnPropertyDescriptor(o, 'query')?.get;
    }
    assume(
      typeof getter === 'function',
      'req.query is a getter that parses on each read',
      'http/query-memo.ts',
    );
    expect(() => parseQueryOnce(express().request)).not.toThrow();
  });

  it("born-prototypes.ts: app.handle sets the application's prototypes on each request and response", async () => {
    const app = express();
    app.get('/', (req, res) => {
      res.json({
        request: Object.getPrototypeOf(req) === app.request,
        response: Object.getPrototypeOf(res) === app.response,
      });
    });
    const set = jest.spyOn(Object, 'setPrototypeOf');
    const server = http.createServer(app);
    try {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const { port } = server.address() as { port: number };
      const body = (await (await fetch(`http://127.0.0.1:${port}/`)).json()) as {
        request: boolean;
        response: boolean;
      };
      assume(
        body.request === true && body.response === true,
        'handlers see requests and responses whose prototypes are app.request and app.response',
        'http/born-prototypes.ts',
      );
      const targets = set.mock.calls.map(([, proto]) => proto);
      assume(
        targets.includes(app.request) && targets.includes(app.response),
        'app.handle calls Object.setPrototypeOf(req, app.request) and (res, app.response)',
        'http/born-prototypes.ts',
      );
    } finally {
      set.mockRestore();
      await new Promise((resolve) => server.close(resolve));
    }
    assume(
      classesBornAs(app) !== undefined,
      "Node's IncomingMessage and ServerResponse are callable constructors",
      'http/born-prototypes.ts',
    );
  });

  it("middleware-sequence.ts: a step's rejected promise reaches the error handler as Express's router passes it", async () => {
    const outcomes: string[] = [];
    const record = (where: string) => (err: unknown, _req: Request, res: Response, _next: NextFunction) => {
      outcomes.push(`${where}: ${err instanceof Error ? err.message : String(err)}`);
      res.status(500).end();
    };
    // A promise rejected without a reason, as a careless handler's can be.
    // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors
    const rejects: RequestHandler = () => Promise.reject(undefined);
    const viaRouter = express();
    viaRouter.use(rejects);
    viaRouter.use(record('router'));
    const viaSequence = express();
    viaSequence.use(middlewareSequence([rejects]));
    viaSequence.use(record('sequence'));
    for (const app of [viaRouter, viaSequence]) {
      const server = http.createServer(app);
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const { port } = server.address() as { port: number };
      await fetch(`http://127.0.0.1:${port}/`);
      await new Promise((resolve) => server.close(resolve));
    }
    assume(
      outcomes[0] === 'router: Rejected promise' && outcomes[1] === 'sequence: Rejected promise',
      'a step whose promise rejects without a reason is passed on as new Error("Rejected promise")',
      'http/middleware-sequence.ts',
    );
  });
});
