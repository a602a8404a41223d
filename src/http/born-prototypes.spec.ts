import express from 'express';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Socket } from 'node:net';
import { classesBornAs } from './born-prototypes';

describe('classesBornAs', () => {
  it("makes requests and responses with the application's prototypes, still Node's classes", () => {
    const app = express();
    const classes = classesBornAs(app)!;
    const req = new classes.IncomingMessage(new Socket());
    const res = new classes.ServerResponse(req);
    expect(Object.getPrototypeOf(req)).toBe(app.request);
    expect(Object.getPrototypeOf(res)).toBe(app.response);
    expect(req).toBeInstanceOf(http.IncomingMessage);
    expect(res).toBeInstanceOf(http.ServerResponse);
  });

  it('serves requests that already have the prototypes Express sets, with the same answers', async () => {
    const app = express();
    const born: boolean[] = [];
    app.get('/echo', (req, res) => {
      res.set('X-Same', String(Object.getPrototypeOf(req) === app.request));
      res.json({ query: req.query, path: req.path, ip: typeof req.ip });
    });
    const server = http.createServer(classesBornAs(app)!, app);
    // Before Express sees the request: made with the prototype, not given it.
    server.prependListener('request', (req, res) => {
      born.push(Object.getPrototypeOf(req) === app.request && Object.getPrototypeOf(res) === app.response);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      for (let i = 0; i < 2; i++) {
        const answer = await fetch(`http://127.0.0.1:${port}/echo?a=1&b=two`);
        expect(answer.status).toBe(200);
        expect(answer.headers.get('x-same')).toBe('true');
        expect(await answer.json()).toEqual({ query: { a: '1', b: 'two' }, path: '/echo', ip: 'string' });
      }
      const missing = await fetch(`http://127.0.0.1:${port}/none`);
      expect(missing.status).toBe(404);
      expect(born).toEqual([true, true, true]);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
