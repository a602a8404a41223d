import express, { Request } from 'express';
import { parseQueryOnce } from './query-memo';

describe('parseQueryOnce', () => {
  const app = express();
  app.set('query parser', 'simple');
  parseQueryOnce(app.request);

  function requestFor(url: string): Request {
    const req = Object.create(app.request) as Request;
    Object.assign(req, { url, app, headers: {} });
    return req;
  }

  it('parses the query string once per URL and hands out the same object', () => {
    const req = requestFor('/api/v2/things?include=a,b&page%5Bsize%5D=5');
    const first = req.query;
    expect(first).toEqual({ include: 'a,b', 'page[size]': '5' });
    expect(req.query).toBe(first);
  });

  it('parses again when the URL changed', () => {
    const req = requestFor('/x?a=1');
    expect(req.query).toEqual({ a: '1' });
    req.url = '/x?a=2';
    expect(req.query).toEqual({ a: '2' });
  });

  it('keeps requests apart', () => {
    expect(requestFor('/x?a=1').query).not.toBe(requestFor('/x?a=1').query);
  });
});
