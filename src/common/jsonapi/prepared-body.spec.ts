import express from 'express';
import request from 'supertest';
import { JSONAPI_MEDIA_TYPE } from './media-type';
import { PreparedBody } from './prepared-body';

describe('PreparedBody.send', () => {
  const body = new PreparedBody(JSONAPI_MEDIA_TYPE, JSON.stringify({ data: { id: 'x', type: 'things' } }));
  const app = express();
  app.set('etag', false);
  app.all('/thing', (_req, res) => void body.send(res, 201));

  it('writes the status, the exact media type, the length and the bytes', async () => {
    const res = await request(app).get('/thing').expect(201);
    expect(res.headers['content-type']).toBe(JSONAPI_MEDIA_TYPE);
    expect(res.headers['content-length']).toBe(String(body.bytes.length));
    expect(res.text).toBe(body.bytes.toString('utf8'));
  });

  it('sends the headers but no body to HEAD', async () => {
    const res = await request(app).head('/thing').expect(201);
    expect(res.headers['content-length']).toBe(String(body.bytes.length));
    expect(res.text).toBeUndefined();
  });

  it('leaves a conditional request to Express', async () => {
    const res = await request(app).get('/thing').set('If-None-Match', '*');
    expect(res.status).toBe(304);
  });

  it('says charset for plain JSON', () => {
    expect(new PreparedBody('application/json', '{}').contentType).toBe('application/json; charset=utf-8');
  });
});
