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
    adapter.set('x-setting', 'kept');
    expect(adapter.getInstance<express.Express>().get('x-setting')).toBe('kept');
  });
});
