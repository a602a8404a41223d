import type { Express } from 'express';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { startApp, TestApp } from '../helpers/test-app';

/**
 * The application's HTTP server makes requests and responses with the prototypes Express gives
 * them (src/http/born-prototypes.ts), so Express's per-request prototype change is a no-op.
 */
describe("the server's requests and responses", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp();
  });
  afterAll(() => t.close());

  it("are made with Express's prototypes before Express sees them", async () => {
    const express: Express = t.app.getHttpAdapter().getInstance();
    const server: Server = t.app.getHttpServer();
    const born: boolean[] = [];
    const listener = (req: IncomingMessage, res: ServerResponse) => {
      born.push(
        Object.getPrototypeOf(req) === express.request && Object.getPrototypeOf(res) === express.response,
      );
    };
    server.prependListener('request', listener);
    try {
      const ping = await fetch(`${t.origin}/api/v2/ping`);
      expect(ping.status).toBe(204);
      const missing = await fetch(`${t.origin}/api/v2/organizations`);
      expect(missing.status).toBe(401);
    } finally {
      server.removeListener('request', listener);
    }
    expect(born).toEqual([true, true]);
  });
});
