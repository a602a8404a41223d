import express from 'express';
import helmet from 'helmet';
import request from 'supertest';
import { fixedHeaders } from './fixed-headers';

describe('fixedHeaders', () => {
  const options = { contentSecurityPolicy: false, crossOriginEmbedderPolicy: false } as const;

  async function headersOf(middleware: express.RequestHandler): Promise<Record<string, string>> {
    const app = express();
    app.use((_req, res, next) => {
      res.setHeader('X-Powered-By', 'something');
      next();
    });
    app.use(middleware);
    app.get('/', (_req, res) => {
      res.json({});
    });
    const res = await request(app).get('/');
    const headers = { ...(res.headers as Record<string, string>) };
    delete headers.date;
    delete headers.etag;
    return headers;
  }

  it('sets exactly the headers helmet sets, and removes what it removes', async () => {
    const direct = await headersOf(helmet(options));
    const fixed = await headersOf(fixedHeaders(helmet(options)));
    expect(fixed).toEqual(direct);
    expect(fixed['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    expect(fixed['x-content-type-options']).toBe('nosniff');
    expect(fixed['x-powered-by']).toBeUndefined();
  });

  it('refuses a middleware whose headers depend on the request', () => {
    const byRequest: express.RequestHandler = (req, res, next) => {
      res.setHeader('X-Echo', String(req.headers['x-echo']));
      next();
    };
    expect(() => fixedHeaders(byRequest)).toThrow(/reads req\.headers/);
    const withNonce = helmet({
      contentSecurityPolicy: {
        directives: {
          scriptSrc: ["'self'", (_req, res) => `'nonce-${(res as express.Response).locals.nonce}'`],
        },
      },
    });
    expect(() => fixedHeaders(withNonce)).toThrow(/reads res\.locals/);
  });

  it('refuses a middleware that does more than set headers, or finishes later', () => {
    expect(() => fixedHeaders((_req, res, next) => (res.status(204), next()))).toThrow(/reads res\.status/);
    expect(() => fixedHeaders((_req, _res, next) => void setImmediate(next))).toThrow(/did not call next/);
  });
});
