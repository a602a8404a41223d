import express, { Request, Response } from 'express';
import request from 'supertest';
import { JsonApiExpressAdapter } from './jsonapi.adapter';
import { RouteTable } from './route-table';

function appWith(add: (table: RouteTable) => void) {
  const app = express();
  const table = new RouteTable({ caseSensitive: false, strict: false });
  add(table);
  app.use(table.middleware);
  app.use((_req, res) => void res.status(404).send('none'));
  return app;
}

const answer =
  (name: string) =>
  (req: Request, res: Response): void =>
    void res.json({ name, params: req.params, route: (req.route as { path: string }).path });

describe('RouteTable', () => {
  const app = appWith((t) => {
    t.add('get', '/api/v2/things/:id', answer('show'));
    t.add('get', '/api/v2/things/special', answer('special (registered later)'));
    t.add('get', '/api/v2/:kind/count', answer('count'));
    t.add('post', '/api/v2/things', answer('create'));
    t.add('get', '/api/v2/skip/:id', (_req, _res, next) => next());
    t.add('get', '/api/v2/skip/:id', answer('second'));
    t.add('get', '/uploads/:token', answer('upload'));
  });

  it('matches as Express does: params decoded, req.route set, first registered wins', async () => {
    expect((await request(app).get('/api/v2/things/a%20b').expect(200)).body).toEqual({
      name: 'show',
      params: { id: 'a b' },
      route: '/api/v2/things/:id',
    });
    expect((await request(app).get('/api/v2/things/special').expect(200)).body.name).toBe('show');
  });

  it('keeps routes whose parameter comes earlier than the request’s static segments', async () => {
    expect((await request(app).get('/api/v2/things/count').expect(200)).body.name).toBe('show');
    expect((await request(app).get('/api/v2/widgets/count').expect(200)).body).toMatchObject({
      name: 'count',
      params: { kind: 'widgets' },
    });
  });

  it('ignores case and one trailing slash, serves HEAD by GET, and dispatches by method', async () => {
    expect((await request(app).get('/API/V2/Things/x/').expect(200)).body.name).toBe('show');
    await request(app).head('/api/v2/things/x').expect(200);
    expect((await request(app).post('/api/v2/things').expect(200)).body.name).toBe('create');
    await request(app).delete('/api/v2/things').expect(404);
  });

  it('goes on to the next route that matches when a handler calls next()', async () => {
    expect((await request(app).get('/api/v2/skip/1').expect(200)).body.name).toBe('second');
  });

  it('falls through to what follows it when no route matches', async () => {
    expect((await request(app).get('/api/v3/things/x').expect(404)).text).toBe('none');
    expect((await request(app).get('/api/v2/things/x/y').expect(404)).text).toBe('none');
    expect((await request(app).get('/uploads/abc').expect(200)).body.name).toBe('upload');
  });

  it('answers 400 for a parameter that cannot be decoded, as Express does', async () => {
    await request(app).get('/api/v2/things/%E0%A4%A').expect(400);
  });

  it('finds the route a request would reach without dispatching it', () => {
    const table = new RouteTable({ caseSensitive: false, strict: false });
    table.add('get', '/api/v2/things/:id', answer('show'));
    table.add('patch', '/api/v2/things/:id', answer('update'));
    table.add('post', '/api/v2/:kind/count', answer('count'));
    expect(table.find('PATCH', '/api/v2/things/a%20b')).toEqual({
      path: '/api/v2/things/:id',
      params: { id: 'a b' },
    });
    expect(table.find('HEAD', '/api/v2/things/x')?.path).toBe('/api/v2/things/:id');
    expect(table.find('POST', '/api/v2/widgets/count')).toEqual({
      path: '/api/v2/:kind/count',
      params: { kind: 'widgets' },
    });
    expect(table.find('DELETE', '/api/v2/things/x')).toBeUndefined();
    expect(table.find('GET', '/api/v2/things/%E0%A4%A')).toBeUndefined();
    expect(table.find('GET', '/elsewhere')).toBeUndefined();
  });

  it('takes routes added after it first answered', async () => {
    const table = new RouteTable({ caseSensitive: false, strict: false });
    const late = express();
    table.add('get', '/a/:x', answer('a'));
    late.use(table.middleware);
    await request(late).get('/a/1').expect(200);
    table.add('get', '/b', answer('b'));
    expect((await request(late).get('/b').expect(200)).body.name).toBe('b');
  });
});

describe('RouteTable beside Express', () => {
  type Add = (
    method: 'get' | 'post' | 'head' | 'delete' | 'all',
    path: string,
    handler: express.RequestHandler,
  ) => void;
  const seen = (req: Request) => ({
    params: { ...req.params },
    route: (req.route as { path: string } | undefined)?.path,
  });
  function routes(add: Add): void {
    add('get', '/api/v2/things/:id', (req, res, next) =>
      req.params.id === 'pass' ? next() : void res.json(seen(req)),
    );
    add('get', '/api/v2/things/:id', (req, res, next) =>
      req.params.id === 'pass' ? next('route') : void res.json(seen(req)),
    );
    add('get', '/api/v2/things/:other', (req, res) => void res.json({ last: true, ...seen(req) }));
    add('get', '/api/v2/fail/:id', (_req, _res, next) => next(new Error('failed')));
    add('get', '/api/v2/fail/:id', (req, res) => void res.json(seen(req)));
    add('get', '/api/v2/throws', () => {
      throw new Error('thrown');
    });
    add('get', '/api/v2/rejects', () => Promise.reject(new Error('rejected')));
    add('get', '/api/v2/leave', (_req, _res, next) => next('router'));
    add('get', '/api/v2/leave', (req, res) => void res.json(seen(req)));
    add('post', '/api/v2/things', (req, res) => void res.status(201).json(seen(req)));
    add('head', '/api/v2/only-head', (_req, res) => void res.set('X-Head', '1').end());
    add('delete', '/api/v2/things/:id', (req, res) => void res.json(seen(req)));
    add('all', '/api/v2/any/:x', (req, res) => void res.json({ method: req.method, ...seen(req) }));
  }
  const after = (app: express.Express) => {
    app.use((req: Request, res: Response) => void res.status(404).json({ fellThrough: true, ...seen(req) }));
    app.use(
      (err: Error, _req: Request, res: Response, _next: express.NextFunction) =>
        void res.status(500).json({ error: err.message }),
    );
    return app;
  };
  const plain = express();
  routes((method, path, handler) => plain[method](path, handler));
  after(plain);
  const tabled = express();
  const table = new RouteTable({ caseSensitive: false, strict: false });
  routes((method, path, handler) => table.add(method, path, handler));
  tabled.use(table.middleware);
  after(tabled);

  const cases: [string, string][] = [
    ['GET', '/api/v2/things/1'],
    ['GET', '/api/v2/things/pass'],
    ['GET', '/API/v2/Things/a%2Fb/'],
    ['GET', '/api/v2/things/%E0%A4%A'],
    ['GET', '/api/v2/fail/1'],
    ['GET', '/api/v2/throws'],
    ['GET', '/api/v2/rejects'],
    ['GET', '/api/v2/nothing'],
    ['POST', '/api/v2/things'],
    ['POST', '/api/v2/things/1'],
    ['HEAD', '/api/v2/things/1'],
    ['HEAD', '/api/v2/only-head'],
    ['GET', '/api/v2/only-head'],
    ['DELETE', '/api/v2/things/2'],
    ['PATCH', '/api/v2/any/3'],
    ['OPTIONS', '/api/v2/things/1'],
    ['OPTIONS', '/api/v2/nothing'],
  ];

  it.each(cases)('%s %s: the same status, headers that matter and body as Express', async (method, path) => {
    const send = (app: express.Express) => request(app)[method.toLowerCase() as 'get'](path);
    const [expected, actual] = [await send(plain), await send(tabled)];
    expect(actual.status).toBe(expected.status);
    expect(actual.headers.allow).toBe(expected.headers.allow);
    expect(actual.headers['x-head']).toBe(expected.headers['x-head']);
    expect(actual.text).toBe(expected.text);
  });

  it("leaves the table, not the application, on next('router')", async () => {
    const res = await request(tabled).get('/api/v2/leave').expect(404);
    expect(res.body).toEqual({ fellThrough: true, params: {}, route: '/api/v2/leave' });
  });
});

describe('JsonApiExpressAdapter routes', () => {
  it('puts consecutive routes in one table and keeps a middleware mounted between them in its place', async () => {
    const adapter = new JsonApiExpressAdapter();
    const app = adapter.getInstance<express.Express>();
    adapter.get('/one/:x', answer('one'));
    adapter.get('/two', answer('two'));
    app.use((req, res, next) => (req.path === '/three' ? void res.send('middleware') : next()));
    adapter.get('/three', answer('three'));
    adapter.post('/one/:x', answer('one by post'));
    expect(app.router.stack.length).toBeLessThan(6);
    expect((await request(app).get('/two').expect(200)).body.name).toBe('two');
    expect((await request(app).get('/three').expect(200)).text).toBe('middleware');
    expect((await request(app).post('/one/1').expect(200)).body.name).toBe('one by post');
    expect(adapter.routeFor('POST', '/one/1')).toEqual({ path: '/one/:x', params: { x: '1' } });
    expect(adapter.routeFor('GET', '/three')?.path).toBe('/three');
    expect(adapter.routeFor('PUT', '/two')).toBeUndefined();
    adapter.set('x-setting', 'kept');
    expect(adapter.getInstance<express.Express>().get('x-setting')).toBe('kept');
  });
});
