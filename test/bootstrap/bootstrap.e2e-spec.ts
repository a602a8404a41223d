import request from 'supertest';
import { LOG_DESTINATION } from '../../src/observability/http-logging';
import { LogCapture } from '../helpers/log-capture';
import { client, startApp, TestApp } from '../helpers/test-app';

describe('first administrator bootstrap', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startApp();
  });
  afterAll(() => t.close());

  it('answers ping without a token, with the API version header', async () => {
    const res = await request(t.origin).get('/api/v2/ping').expect(204);
    expect(res.headers['tfp-api-version']).toBe('2.6');
  });

  it('refuses API calls without a token with a JSON:API 401', async () => {
    const res = await request(t.origin).get('/api/v2/organizations').expect(401);
    expect(res.headers['content-type']).toMatch(/application\/vnd\.api\+json/);
    expect(res.body).toEqual({ errors: [{ status: '401', title: 'unauthorized' }] });
  });

  it('refuses an unknown token with 401', async () => {
    const res = await client(t, 'nope.plinthv1.nope').get('/api/v2/account/details').expect(401);
    expect(res.body.errors[0].status).toBe('401');
  });

  it('refuses a wrong IACT without creating anything', async () => {
    const res = await request(t.origin)
      .post('/admin/initial-admin-user?token=wrong')
      .send({ username: 'mallory', email: 'm@example.com', password: 'long-enough-pw' })
      .expect(401);
    expect(res.body.errors[0].detail).toMatch(/initial admin creation token/);
    await request(t.origin).get('/admin/retrieve-iact').expect(200);
  });

  it('validates the initial admin body with 422s', async () => {
    const iact = (await request(t.origin).get('/admin/retrieve-iact').expect(200)).text;
    const res = await request(t.origin)
      .post(`/admin/initial-admin-user?token=${iact}`)
      .send({ username: '', email: 'not-an-email', password: 'short' })
      .expect(422);
    expect(res.body.errors.map((e: { detail: string }) => e.detail)).toEqual(
      expect.arrayContaining([
        "Username can't be blank",
        'Email is invalid',
        'Password is too short (minimum is 10 characters)',
      ]),
    );
  });

  it('exchanges the IACT once for a site administrator and its token', async () => {
    const iact = await request(t.origin).get('/admin/retrieve-iact').expect(200);
    expect(iact.headers['content-type']).toMatch(/^text\/plain/);
    expect(iact.text).toMatch(/^[0-9A-Za-z]{32}$/);

    const created = await request(t.origin)
      .post(`/admin/initial-admin-user?token=${iact.text}`)
      .send({ username: 'admin', email: 'admin@example.com', password: 'correct-horse-battery' })
      .expect(201);
    expect(created.body).toEqual({ status: 'created', token: expect.stringMatching(/\.plinthv1\./) });

    const me = await client(t, created.body.token).get('/api/v2/account/details').expect(200);
    // The new user's URL, as every 201 carries one: the links.self of the user it shows.
    expect(created.headers.location).toBe(`/api/v2/users/${me.body.data.id}`);
    await client(t, created.body.token).get(created.headers.location).expect(200);
    expect(me.body.data).toEqual({
      id: expect.stringMatching(/^user-[0-9A-Za-z]{16}$/),
      type: 'users',
      attributes: {
        username: 'admin',
        email: 'admin@example.com',
        'is-site-admin': true,
        'is-admin': true,
        'is-suspended': false,
        'created-at': expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      },
      links: { self: `/api/v2/users/${me.body.data.id}` },
    });

    await request(t.origin)
      .post(`/admin/initial-admin-user?token=${iact.text}`)
      .send({ username: 'second', email: 'second@example.com', password: 'correct-horse-battery' })
      .expect(401);
    await request(t.origin).get('/admin/retrieve-iact').expect(404);
  });

  it('logs on first start a hint that can be followed as written, its placeholders intact', async () => {
    const logs = new LogCapture();
    const fresh = await startApp({ LOG_LEVEL: 'info', PORT: '3000' }, [
      { provide: LOG_DESTINATION, useValue: logs },
    ]);
    try {
      const hints = logs.entries().filter((e) => /No administrator yet/.test(String(e.msg)));
      expect(hints).toHaveLength(1);
      expect(hints[0].msg).toBe(
        'No administrator yet. On this machine run: curl http://127.0.0.1:3000/admin/retrieve-iact  then  ' +
          'curl -X POST "http://127.0.0.1:3000/admin/initial-admin-user?token=<IACT>" ' +
          "-H 'Content-Type: application/json' " +
          '-d \'{"username":"admin","email":"admin@example.com","password":"<at least 10 characters>"}\'',
      );
      // The IACT itself is never logged, only its placeholder.
      const iact = (await request(fresh.origin).get('/admin/retrieve-iact').expect(200)).text;
      expect(logs.text).not.toContain(iact);
    } finally {
      await fresh.close();
    }
  });

  describe('through a proxy', () => {
    const notDirect = {
      errors: [
        {
          status: '404',
          title: 'not found',
          detail:
            "the initial administrator routes answer only clients on the server's own machine, never through a proxy",
        },
      ],
    };

    const FORWARDING = [
      ['X-Forwarded-For', '203.0.113.9'],
      ['X-Forwarded-Host', 'plinth.example'],
      ['Forwarded', 'for=203.0.113.9;proto=https'],
      ['Forwarded-For', '203.0.113.9'],
      ['X-Real-IP', '203.0.113.9'],
      ['Via', '1.1 edge-proxy'],
      ['X-Client-IP', '203.0.113.9'],
      ['Client-IP', '203.0.113.9'],
      ['True-Client-IP', '203.0.113.9'],
      ['CF-Connecting-IP', '203.0.113.9'],
      ['Fastly-Client-IP', '203.0.113.9'],
      ['X-Cluster-Client-IP', '203.0.113.9'],
      ['X-Original-Forwarded-For', '203.0.113.9'],
      ['X-ProxyUser-Ip', '203.0.113.9'],
      ['X-Envoy-External-Address', '203.0.113.9'],
      ['X-Azure-ClientIP', '203.0.113.9'],
      ['X-Azure-SocketIP', '203.0.113.9'],
      ['CloudFront-Viewer-Address', '203.0.113.9:46532'],
    ];

    it('neither hands out nor takes the IACT on a loopback request that carries a proxy’s header', async () => {
      const fresh = await startApp();
      try {
        const iact = (await request(fresh.origin).get('/admin/retrieve-iact').expect(200)).text;
        for (const [header, value] of FORWARDING) {
          const res = await request(fresh.origin).get('/admin/retrieve-iact').set(header, value);
          expect([header, res.status, res.body]).toEqual([header, 404, notDirect]);
          expect(res.headers['content-type']).toMatch(/^application\/vnd\.api\+json/);
          expect(res.text).not.toContain(iact);
          const claimed = await request(fresh.origin)
            .post(`/admin/initial-admin-user?token=${iact}`)
            .set(header, value)
            .send({ username: 'mallory', email: 'mallory@example.com', password: 'correct-horse-battery' });
          expect([header, claimed.status, claimed.body]).toEqual([header, 404, notDirect]);
        }
        // Nothing was claimed: the direct request still gets the same IACT.
        expect((await request(fresh.origin).get('/admin/retrieve-iact').expect(200)).text).toBe(iact);
      } finally {
        await fresh.close();
      }
    });

    it('does not hand the IACT to a request from a peer that TRUST_PROXY names as a proxy', async () => {
      const fresh = await startApp({ TRUST_PROXY: 'loopback' });
      try {
        const forwarded = await request(fresh.origin)
          .get('/admin/retrieve-iact')
          .set('X-Forwarded-For', '203.0.113.9')
          .expect(404);
        expect(forwarded.body).toEqual(notDirect);
        const bare = await request(fresh.origin).get('/admin/retrieve-iact').expect(404);
        expect(bare.body).toEqual(notDirect);
      } finally {
        await fresh.close();
      }
    });

    it('refuses to exchange a valid IACT through a proxy, before reading the body, and creates nothing', async () => {
      const fresh = await startApp();
      try {
        const iact = (await request(fresh.origin).get('/admin/retrieve-iact').expect(200)).text;
        const claimed = await request(fresh.origin)
          .post(`/admin/initial-admin-user?token=${iact}`)
          .set('X-Forwarded-For', '203.0.113.9')
          .send({ username: 'mallory', email: 'mallory@example.com', password: 'correct-horse-battery' })
          .expect(404);
        expect(claimed.body).toEqual(notDirect);
        const invalid = await request(fresh.origin)
          .post(`/admin/initial-admin-user?token=${iact}`)
          .set('X-Real-IP', '203.0.113.9')
          .send({ username: '' })
          .expect(404);
        expect(invalid.body).toEqual(notDirect);
        // Still unclaimed: the IACT is handed out and exchanged directly.
        expect((await request(fresh.origin).get('/admin/retrieve-iact').expect(200)).text).toBe(iact);
        await request(fresh.origin)
          .post(`/admin/initial-admin-user?token=${iact}`)
          .send({ username: 'admin', email: 'admin@example.com', password: 'correct-horse-battery' })
          .expect(201);
      } finally {
        await fresh.close();
      }
    });
  });
});
