import request from 'supertest';
import { LOG_DESTINATION } from '../../src/observability/http-logging';
import { SignedLinks } from '../../src/storage/signed-links';
import { bootstrapAdmin } from '../helpers/fixtures';
import { LogCapture } from '../helpers/log-capture';
import { send } from '../helpers/raw-http';
import { startApp, TestApp, usesMysql } from '../helpers/test-app';

jest.setTimeout(30_000);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('request ids and logs', () => {
  let t: TestApp;
  const logs = new LogCapture();

  beforeAll(async () => {
    t = await startApp({ LOG_LEVEL: 'info', RATE_LIMIT_PER_SECOND: '2' }, [
      { provide: LOG_DESTINATION, useValue: logs },
    ]);
  });
  afterAll(() => t.close());

  it('echoes X-Request-Id on every response, including those refused before routing', async () => {
    const bodies = [
      { path: '/api/v2/ping' },
      { path: '/api/v2/organizations' },
      { path: '/no/such/route' },
      {
        path: '/api/v2/organizations',
        method: 'POST',
        body: '{"data":',
        headers: { 'Content-Type': 'application/json' },
      },
      {
        path: '/api/v2/organizations',
        method: 'POST',
        body: `{"x":"${'a'.repeat(1100 * 1024)}"}`,
        headers: { 'Content-Type': 'application/json' },
      },
    ];
    const statuses = [];
    for (const [i, b] of bodies.entries()) {
      const res = await send(t.origin, { ...b, localAddress: `127.0.1.${10 + i}` });
      statuses.push(res.status);
      expect(res.headers['x-request-id']).toMatch(UUID);
    }
    expect(statuses).toEqual([204, 401, 404, 400, 413]);
    const ping = () => send(t.origin, { path: '/api/v2/ping', localAddress: '127.0.1.1' });
    await Promise.all([ping(), ping()]);
    const limited = await ping();
    expect(limited.status).toBe(429);
    expect(limited.headers['x-request-id']).toMatch(UUID);
  });

  it('sends the security headers on every answer, refusals and the rate limit too, and no X-Powered-By', async () => {
    const answers = [
      await send(t.origin, { path: '/api/v2/ping', localAddress: '127.0.1.40' }),
      await send(t.origin, { path: '/api/v2/organizations', localAddress: '127.0.1.41' }),
      await send(t.origin, { path: '/api/v2/no-such-route', localAddress: '127.0.1.42' }),
    ];
    // Four at once against a budget of two a second: some are refused before routing.
    const burst = await Promise.all(
      [0, 1, 2, 3].map(() => send(t.origin, { path: '/api/v2/ping', localAddress: '127.0.1.43' })),
    );
    answers.push(...burst.filter((a) => a.status === 429));
    expect(answers.map((a) => a.status).slice(0, 4)).toEqual([204, 401, 404, 429]);
    for (const res of answers) {
      expect(res.headers).toMatchObject({
        'strict-transport-security': 'max-age=31536000; includeSubDomains',
        'x-content-type-options': 'nosniff',
        'x-frame-options': 'SAMEORIGIN',
        'referrer-policy': 'no-referrer',
        'cross-origin-opener-policy': 'same-origin',
        'cross-origin-resource-policy': 'same-origin',
        'x-dns-prefetch-control': 'off',
        'x-download-options': 'noopen',
        'x-permitted-cross-domain-policies': 'none',
        'x-xss-protection': '0',
        'origin-agent-cluster': '?1',
      });
      expect(res.headers['x-powered-by']).toBeUndefined();
    }
  });

  it('keeps a sane request id the client sent and replaces one that is not', async () => {
    const kept = await request(t.origin).get('/healthz').set('X-Request-Id', 'trace-42.a_b');
    expect(kept.headers['x-request-id']).toBe('trace-42.a_b');
    const replaced = await request(t.origin).get('/healthz').set('X-Request-Id', 'no spaces <allowed>');
    expect(replaced.headers['x-request-id']).toMatch(UUID);
  });

  it('hides the parser message, which could quote the input, from a bad JSON body', async () => {
    const res = await send(t.origin, {
      path: '/api/v2/organizations',
      method: 'POST',
      body: '{"secret-input": nope}',
      headers: { 'Content-Type': 'application/vnd.api+json' },
      localAddress: '127.0.1.2',
    });
    expect(JSON.parse(res.text)).toEqual({
      errors: [{ status: '400', title: 'bad request', detail: 'request body is not valid JSON' }],
    });
  });

  it('logs one JSON line per request with its id, and never a token, a password or a link capability', async () => {
    const iact = await request(t.origin).get('/admin/retrieve-iact').expect(200);
    await new Promise((r) => setTimeout(r, 1100));
    const admin = await bootstrapAdmin(t);
    await new Promise((r) => setTimeout(r, 1100));
    await admin.api.get('/api/v2/account/details').set('X-Request-Id', 'with-token').expect(200);
    const link = t.app.get(SignedLinks).token({
      purpose: 'nobody',
      resourceId: 'r',
      expiresAt: Math.floor(Date.now() / 1000) + 600,
    });
    await request(t.origin).put(`/uploads/${link}`).send(Buffer.from('x')).expect(404);

    const secrets = [admin.token, iact.text, link, link.split('.')[1], 'correct-horse-battery'];
    for (const s of secrets) expect(logs.text).not.toContain(s);

    const access = logs.entries().filter((e) => e.msg === 'request completed');
    const withToken = access.find((e) => (e.req as { id: string }).id === 'with-token');
    expect(withToken).toMatchObject({
      level: 30,
      req: { id: 'with-token', method: 'GET', url: '/api/v2/account/details' },
      res: { statusCode: 200 },
      responseTime: expect.any(Number),
    });
    expect(JSON.stringify(withToken)).not.toMatch(/authorization|bearer/i);
    const urls = access.map((e) => (e.req as { url: string }).url);
    expect(urls).toContain('/uploads/[redacted]');
    expect(urls).toContain('/admin/initial-admin-user?token=[redacted]');
  });
});

describe('/metrics', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startApp();
  });
  afterAll(() => t.close());

  const sample = (text: string, name: string, labels: string) =>
    text
      .split('\n')
      .find((l) => l.startsWith(`${name}{${labels}}`))
      ?.split(' ')[1];

  it('counts requests and their latency by route template, method and status, but not its own scrapes', async () => {
    await request(t.origin).get('/api/v2/organizations/acme').expect(401);
    await request(t.origin).get('/api/v2/organizations/other').expect(401);
    await request(t.origin).get('/api/v2/ping').expect(204);
    await request(t.origin).get('/nowhere/at/all').expect(404);
    await request(t.origin).get('/metrics').expect(200);

    const res = await request(t.origin).get('/metrics').expect(200);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8; version=0.0.4');
    const text = res.text;
    expect(
      sample(text, 'http_requests_total', 'method="GET",route="/api/v2/organizations/:name",status="401"'),
    ).toBe('2');
    expect(sample(text, 'http_requests_total', 'method="GET",route="/api/v2/ping",status="204"')).toBe('1');
    expect(sample(text, 'http_requests_total', 'method="GET",route="(unmatched)",status="404"')).toBe('1');
    expect(
      sample(
        text,
        'http_request_duration_seconds_count',
        'method="GET",route="/api/v2/organizations/:name",status="401"',
      ),
    ).toBe('2');
    expect(
      sample(
        text,
        'http_request_duration_seconds_bucket',
        'le="+Inf",method="GET",route="/api/v2/ping",status="204"',
      ),
    ).toBe('1');
    expect(text).not.toContain('/api/v2/organizations/acme');
    expect(text).not.toContain('route="/metrics"');
    expect(text).toMatch(/^process_cpu_user_seconds_total \d/m);
    expect(text).toMatch(/^nodejs_heap_size_used_bytes \d/m);
    expect(text).toMatch(/^process_resident_memory_bytes \d/m);
  });

  it('reports the database pool on MySQL and no pool on SQLite', async () => {
    await request(t.origin).get('/readyz').expect(200);
    const text = (await request(t.origin).get('/metrics').expect(200)).text;
    if (usesMysql()) {
      expect(Number(sample(text, 'db_pool_connections', 'state="all"'))).toBeGreaterThanOrEqual(1);
      expect(sample(text, 'db_pool_connections', 'state="free"')).toMatch(/^\d+$/);
      expect(sample(text, 'db_pool_connections', 'state="queued"')).toBe('0');
    } else {
      expect(text).not.toMatch(/^db_pool_connections\{/m);
    }
  });
});
