import request from 'supertest';
import { SignedLinks } from '../../src/storage/signed-links';
import { startApp, TestApp } from '../helpers/test-app';

describe('signed link routes', () => {
  let t: TestApp;
  let links: SignedLinks;

  beforeAll(async () => {
    t = await startApp();
    links = t.app.get(SignedLinks);
  });
  afterAll(() => t.close());

  const future = () => Math.floor(Date.now() / 1000) + 600;

  it('answers a forged link with a JSON:API 404 and stores nothing', async () => {
    const res = await request(t.origin).put('/uploads/forged.token').send(Buffer.from('x')).expect(404);
    expect(res.body).toEqual({ errors: [{ status: '404', title: 'not found' }] });
  });

  it('answers an expired link with 410', async () => {
    const token = links.token({
      purpose: 'anything',
      resourceId: 'r',
      expiresAt: Math.floor(Date.now() / 1000) - 1,
    });
    const res = await request(t.origin).put(`/uploads/${token}`).send(Buffer.from('x')).expect(410);
    expect(res.body.errors[0]).toEqual({ status: '410', title: 'gone', detail: 'this link has expired' });
  });

  it('answers a valid link for a purpose nobody serves with 404, for PUT, GET and HEAD', async () => {
    const token = links.token({ purpose: 'nobody', resourceId: 'r', expiresAt: future() });
    await request(t.origin).put(`/uploads/${token}`).send(Buffer.from('x')).expect(404);
    await request(t.origin).get(`/uploads/${token}`).expect(404);
    await request(t.origin).head(`/uploads/${token}`).expect(404);
  });
});
