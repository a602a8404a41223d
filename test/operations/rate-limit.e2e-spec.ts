import request from 'supertest';
import { bootstrapAdmin, createOrganization, createTeam, createUser, unique } from '../helpers/fixtures';
import { RawResponse, send } from '../helpers/raw-http';
import { tcpReachable } from '../helpers/reachable';
import { startApp, TestApp } from '../helpers/test-app';

jest.setTimeout(30_000);

const LIMIT = '3';
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const redisUp = tcpReachable(REDIS_URL);
if (!redisUp) {
  process.stderr.write(
    `Skipping "rate limits, counted in Redis": nothing answers at ${REDIS_URL} (start Redis or set TEST_REDIS_URL).\n`,
  );
}
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Lets every one-second window of the previous step run out. */
const nextWindow = () => pause(1100);

const tooMany = {
  errors: [{ status: '429', title: 'too many requests', detail: "You have exceeded the API's rate limit." }],
};

/** Longer than this, a burst may have outlived the window its first request opened. */
const BURST_WITHIN_MS = 900;

/**
 * Fires all requests at once so they land in one window; returns the responses. A window opens at
 * its key's first request and lasts a second: a burst that took longer (a loaded machine) may have
 * straddled two, so it is fired again in a fresh window, up to three times.
 */
async function burst(requests: () => Promise<RawResponse>[]): Promise<RawResponse[]> {
  for (let attempt = 1; ; attempt += 1) {
    const started = Date.now();
    const responses = await Promise.all(requests());
    if (Date.now() - started < BURST_WITHIN_MS || attempt === 3) return responses;
    await nextWindow();
  }
}

const statuses = (responses: RawResponse[]) => responses.map((r) => r.status).sort();

describe('rate limits, counted in memory', () => {
  let t: TestApp;
  let admin: Awaited<ReturnType<typeof bootstrapAdmin>>;

  beforeAll(async () => {
    t = await startApp({ RATE_LIMIT_PER_SECOND: LIMIT });
    admin = await bootstrapAdmin(t);
    await nextWindow();
  });
  afterAll(() => t.close());

  it('announces the limit on every response, whatever the route or the outcome', async () => {
    const paths = [
      '/api/v2/ping',
      '/api/v2/organizations',
      '/api/v2/no-such-thing',
      '/api/registry/v1/x',
      '/healthz',
    ];
    for (const path of paths) {
      const res = await send(t.origin, { path, localAddress: '127.0.0.9' });
      expect(res.headers['x-ratelimit-limit']).toBe(LIMIT);
    }
    const signedIn = await admin.api.get('/api/v2/account/details').expect(200);
    expect(signedIn.headers['x-ratelimit-limit']).toBe(LIMIT);
  });

  it('refuses anonymous requests past the budget of their address with a JSON:API 429', async () => {
    const responses = await burst(() =>
      Array.from({ length: 5 }, () => send(t.origin, { path: '/api/v2/ping', localAddress: '127.0.0.2' })),
    );
    expect(statuses(responses)).toEqual([204, 204, 204, 429, 429]);
    const refused = responses.find((r) => r.status === 429)!;
    expect(refused.headers['content-type']).toBe('application/vnd.api+json');
    expect(JSON.parse(refused.text)).toEqual(tooMany);
    expect(refused.headers['x-ratelimit-limit']).toBe(LIMIT);
    expect(refused.headers['x-ratelimit-reset']).toMatch(/^\d+(\.\d+)?$/);
    expect(Number(refused.headers['x-ratelimit-reset'])).toBeGreaterThan(0);
    expect(Number(refused.headers['x-ratelimit-reset'])).toBeLessThanOrEqual(1);
    expect(refused.headers['x-request-id']).toEqual(expect.any(String));

    const otherAddress = await send(t.origin, { path: '/api/v2/ping', localAddress: '127.0.0.3' });
    expect(otherAddress.status).toBe(204);
  });

  it('counts a user once across all of their tokens, and each user on their own', async () => {
    await nextWindow();
    const alice = await createUser(t, admin);
    await nextWindow();
    const bob = await createUser(t, admin);
    await nextWindow();
    const second = await request(t.origin)
      .post(`/api/v2/users/${alice.userId}/authentication-tokens`)
      .set('Authorization', `Bearer ${alice.token}`)
      .expect(201);
    const aliceToken2 = second.body.data.attributes.token as string;
    await nextWindow();

    const as = (token: string) =>
      send(t.origin, { path: '/api/v2/account/details', headers: { Authorization: `Bearer ${token}` } });
    const alices = await burst(() => [as(alice.token), as(aliceToken2), as(alice.token), as(aliceToken2)]);
    expect(statuses(alices)).toEqual([200, 200, 200, 429]);
    expect(JSON.parse(alices.find((r) => r.status === 429)!.text)).toEqual(tooMany);
    expect((await as(bob.token)).status).toBe(200);
  });

  it('counts a team token against its team, not against the user who made it', async () => {
    await nextWindow();
    const org = await createOrganization(admin);
    const teamId = await createTeam(admin, org);
    await nextWindow();
    const created = await admin.api.post(`/api/v2/teams/${teamId}/authentication-token`).expect(201);
    const teamToken = created.body.data.attributes.token as string;
    await nextWindow();

    const asTeam = () =>
      send(t.origin, {
        path: `/api/v2/organizations/${org}/teams`,
        headers: { Authorization: `Bearer ${teamToken}` },
      });
    expect(statuses(await burst(() => [asTeam(), asTeam(), asTeam(), asTeam()]))).toEqual([
      200, 200, 200, 429,
    ]);
    await admin.api.get('/api/v2/account/details').expect(200);
  });

  it('counts failed authentication against the address', async () => {
    const bogus = () =>
      send(t.origin, {
        path: '/api/v2/organizations',
        headers: { Authorization: `Bearer ${unique('not-a-token')}` },
        localAddress: '127.0.0.4',
      });
    expect(statuses(await burst(() => [bogus(), bogus(), bogus(), bogus(), bogus()]))).toEqual([
      401, 401, 401, 429, 429,
    ]);
  });

  it('never refuses health probes or metrics scrapes', async () => {
    const probes = await burst(() =>
      ['/healthz', '/readyz', '/metrics'].flatMap((path) =>
        Array.from({ length: 4 }, () => send(t.origin, { path, localAddress: '127.0.0.5' })),
      ),
    );
    expect(new Set(probes.map((r) => r.status))).toEqual(new Set([200]));
  });
});

describe('rate limits, writes costing more than reads', () => {
  let t: TestApp;
  let admin: Awaited<ReturnType<typeof bootstrapAdmin>>;

  beforeAll(async () => {
    t = await startApp({ RATE_LIMIT_PER_SECOND: '30' });
    admin = await bootstrapAdmin(t);
  });
  afterAll(() => t.close());

  it('counts a write as five requests of the principal’s budget, a read as one', async () => {
    const user = await createUser(t, admin);
    await nextWindow();
    const org = await createOrganization(user);
    await nextWindow();
    const auth = { Authorization: `Bearer ${user.token}` };
    const write = () =>
      send(t.origin, {
        method: 'PATCH',
        path: `/api/v2/organizations/${org}`,
        headers: { ...auth, 'Content-Type': 'application/vnd.api+json' },
        body: JSON.stringify({
          data: { type: 'organizations', attributes: { email: `${org}@example.com` } },
        }),
      });
    const read = () => send(t.origin, { path: `/api/v2/organizations/${org}`, headers: auth });

    const writes = await burst(() => Array.from({ length: 7 }, write));
    expect(statuses(writes)).toEqual([200, 200, 200, 200, 200, 200, 429]);
    expect(JSON.parse(writes.find((r) => r.status === 429)!.text)).toEqual(tooMany);
    await nextWindow();
    const mixed = await burst(() => [
      ...Array.from({ length: 5 }, write),
      ...Array.from({ length: 6 }, read),
    ]);
    expect(statuses(mixed)).toEqual([...Array<number>(10).fill(200), 429]);
  });
});

(redisUp ? describe : describe.skip)('rate limits, counted in Redis', () => {
  const prefix = `plinth-test-${process.pid}-${Math.random().toString(36).slice(2, 8)}:`;
  let a: TestApp;
  let b: TestApp;

  beforeAll(async () => {
    const env = { RATE_LIMIT_PER_SECOND: LIMIT, REDIS_URL, REDIS_KEY_PREFIX: prefix };
    [a, b] = await Promise.all([startApp(env), startApp(env)]);
  });
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
  });

  it('shares one budget between two processes', async () => {
    const ping = (t: TestApp) => send(t.origin, { path: '/api/v2/ping', localAddress: '127.0.0.6' });
    const responses = await burst(() => [ping(a), ping(b), ping(a), ping(b), ping(a), ping(b)]);
    expect(statuses(responses)).toEqual([204, 204, 204, 429, 429, 429]);
    for (const r of responses.filter((x) => x.status === 429)) expect(JSON.parse(r.text)).toEqual(tooMany);
  });
});

describe('rate limits when the configured Redis cannot be reached', () => {
  it('keeps serving and counting in the process', async () => {
    const t = await startApp({ RATE_LIMIT_PER_SECOND: LIMIT, REDIS_URL: 'redis://127.0.0.1:1' });
    try {
      const ping = () => send(t.origin, { path: '/api/v2/ping', localAddress: '127.0.0.7' });
      expect(statuses(await burst(() => [ping(), ping(), ping(), ping()]))).toEqual([204, 204, 204, 429]);
    } finally {
      await t.close();
    }
  });
});
