import express, { Request, Response } from 'express';
import { Server } from 'node:http';
import request from 'supertest';
import { AppConfig } from '../config/app-config';
import { Principal } from '../common/auth/principal';
import { PreparedBody } from '../common/jsonapi/prepared-body';
import { RateLimitService } from '../common/rate-limit/rate-limit.service';
import { ChangeEpoch } from '../common/cache/change-epoch';
import { MemoryEpochStore } from '../common/cache/memory-epoch-store.testing';
import { currentReadSet } from '../common/cache/read-set';
import { Clock } from '../common/clock';
import { ResponseCache } from './response-cache';
import { requestContext } from '../common/request-context';
import { responseCacheMiddleware } from './response-cache.middleware';

const user: Principal = { kind: 'user', tokenId: 't1', userId: 'u1', username: 'u', isSiteAdmin: false };

/**
 * The middleware in front of a stand-in for the rest of the app: a route that counts how often
 * it computes, authenticates by setting `req.user` (unless public) and answers like the adapter.
 */
async function setup() {
  const store = new MemoryEpochStore();
  const epoch = new ChangeEpoch(store);
  const config = { cacheTtlMs: 60_000, responseCacheBytes: 1024 * 1024, rateLimitPerSecond: 0 } as AppConfig;
  const cache = new ResponseCache(config, epoch, new Clock());
  const computed: string[] = [];
  const app = express();
  app.use(
    responseCacheMiddleware({
      cache,
      epoch,
      limits: new RateLimitService(config),
      routeOf: (req) => req.path,
    }),
  );
  app.get('/{*path}', (req: Request, res: Response) => {
    computed.push(req.path);
    // What a query of the route would note: the table named by the path's first segment.
    currentReadSet()?.add([req.path.split('/')[1]]);
    if (req.path !== '/public') (req as Request & { user?: Principal }).user = user;
    if (req.path === '/own-header') res.setHeader('Cache-Control', 'no-store');
    const body = new PreparedBody('application/json', JSON.stringify({ n: computed.length }));
    requestContext(req).responseSlot?.keep(body);
    body.send(res);
  });
  // One listening server: links (and so cache keys) carry the origin, port included.
  const server = app.listen(0, '127.0.0.1');
  servers.push(server);
  await new Promise((resolve) => server.once('listening', resolve));
  const get = (path: string) => request(server).get(path).set('Authorization', 'Bearer secret');
  return { server, get, computed, changed: (table: string) => store.changedElsewhere(table) };
}

const servers: Server[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) server.close();
});

describe('responseCacheMiddleware', () => {
  it('answers a repeated authenticated GET without computing it again', async () => {
    const { get, computed } = await setup();
    const first = await get('/a').expect(200);
    const again = await get('/a').expect(200);
    expect(again.text).toBe(first.text);
    expect(again.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(computed).toEqual(['/a']);
  });

  it('computes again once a table the computation read changed anywhere, and only then', async () => {
    const { get, computed, changed } = await setup();
    await get('/a');
    await get('/b');
    changed('a');
    await get('/a');
    await get('/b');
    expect(computed).toEqual(['/a', '/b', '/a']);
  });

  it('does not keep answers of public routes, or answers the route added headers to', async () => {
    const { get, computed } = await setup();
    for (let i = 0; i < 2; i++) {
      await get('/public');
      const own = await get('/own-header');
      expect(own.headers['cache-control']).toBe('no-store');
    }
    expect(computed).toEqual(['/public', '/own-header', '/public', '/own-header']);
  });

  it('leaves requests without credentials, other methods and GETs with a body alone', async () => {
    const { server, get, computed } = await setup();
    await get('/a');
    await request(server).get('/a');
    await request(server).get('/a').set('Authorization', 'Bearer other');
    await request(server).post('/a').set('Authorization', 'Bearer secret');
    await get('/a').set('Content-Type', 'application/json').send('{}');
    expect(computed).toEqual(['/a', '/a', '/a', '/a']);
  });
});
