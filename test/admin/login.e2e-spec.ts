import { Actor, bootstrapAdmin, createUser, ISO_MILLIS, unique } from '../helpers/fixtures';
import { loginFrom as login, PASSWORD } from '../helpers/login';
import { client, startApp, TestApp } from '../helpers/test-app';
import { errorsOf, tokenShape } from '../helpers/shapes';

describe('POST /api/v2/login: a username and password for a token', () => {
  let t: TestApp;
  let admin: Actor;

  beforeAll(async () => {
    t = await startApp({
      LOGIN_MAX_FAILURES: '3',
      LOGIN_LOCKOUT_SECONDS: '2',
      LOGIN_ATTEMPTS_PER_MINUTE: '6',
    });
    admin = await bootstrapAdmin(t);
  });
  afterAll(() => t.close());

  const newUser = async () => {
    const username = unique('login');
    const user = await createUser(t, admin, username);
    return { ...user, username };
  };

  it('issues a user token that expires after LOGIN_TOKEN_TTL_HOURS, shown once', async () => {
    const user = await newUser();
    const before = Date.now();
    const res = await login(t, '127.0.0.21', { username: user.username, password: PASSWORD });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      data: tokenShape(res.body.data.id, {
        kind: 'user',
        description: 'login',
        secret: true,
        createdBy: user.userId,
        expiredAt: expect.stringMatching(ISO_MILLIS),
      }),
    });
    const expires = Date.parse(res.body.data.attributes['expired-at']);
    expect(expires).toBeGreaterThanOrEqual(before + 24 * 3_600_000 - 1000);
    expect(expires).toBeLessThanOrEqual(Date.now() + 24 * 3_600_000 + 1000);
    const me = await client(t, res.body.data.attributes.token).get('/api/v2/account/details').expect(200);
    expect(me.body.data.id).toBe(user.userId);
  });

  it('takes the token’s description and expiry from the request', async () => {
    const user = await newUser();
    const expiredAt = new Date(Date.now() + 3_600_000).toISOString();
    const res = await login(t, '127.0.0.22', {
      username: user.username,
      password: PASSWORD,
      description: 'laptop',
      'expired-at': expiredAt,
    });
    expect(res.status).toBe(201);
    expect(res.body.data.attributes).toMatchObject({ description: 'laptop', 'expired-at': expiredAt });
  });

  it('answers the same 401 for a wrong password, an unknown user and a suspended user', async () => {
    const user = await newUser();
    const expected = errorsOf(401, { detail: 'Invalid username or password' });
    const wrong = await login(t, '127.0.0.23', { username: user.username, password: 'not-the-password' });
    expect([wrong.status, wrong.body]).toEqual([401, expected]);
    const unknown = await login(t, '127.0.0.23', { username: unique('nobody'), password: PASSWORD });
    expect([unknown.status, unknown.body]).toEqual([401, expected]);
    await admin.api.post(`/api/v2/admin/users/${user.userId}/actions/suspend`).expect(200);
    const suspended = await login(t, '127.0.0.24', { username: user.username, password: PASSWORD });
    expect([suspended.status, suspended.body]).toEqual([401, expected]);
  });

  it('refuses an address that keeps failing for a username, not the user elsewhere, until the window ends', async () => {
    const user = await newUser();
    for (let i = 0; i < 3; i++) {
      const res = await login(t, '127.0.0.31', { username: user.username, password: 'wrong-password!' });
      expect(res.status).toBe(401);
    }
    // Even the right password, from that address: nothing tells the guesser it was right.
    const refused = await login(t, '127.0.0.31', { username: user.username, password: PASSWORD });
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual(
      errorsOf(429, {
        detail: expect.stringMatching(/^Too many login attempts; try again in [12] seconds$/),
      }),
    );
    expect(refused.headers['retry-after']).toMatch(/^[12]$/);
    expect(refused.body.errors[0].detail).toContain(`in ${refused.headers['retry-after']} seconds`);
    // The user, from an address of their own, and with the tokens they hold, is not affected.
    expect((await login(t, '127.0.0.32', { username: user.username, password: PASSWORD })).status).toBe(201);
    await user.api.get('/api/v2/account/details').expect(200);
    await new Promise((r) => setTimeout(r, 2100));
    const back = await login(t, '127.0.0.31', { username: user.username, password: PASSWORD });
    expect(back.status).toBe(201);
  });

  it('forgets an address’s failures against a username when it logs in', async () => {
    const user = await newUser();
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < 2; i++) {
        const res = await login(t, '127.0.0.41', { username: user.username, password: 'wrong-password!' });
        expect(res.status).toBe(401);
      }
      const ok = await login(t, '127.0.0.41', { username: user.username, password: PASSWORD });
      expect(ok.status).toBe(201);
    }
  });

  it('limits the attempts one address makes per minute, whatever the usernames', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) {
      statuses.push(
        (await login(t, '127.0.0.51', { username: unique('guess'), password: 'guess-guess' })).status,
      );
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 401, 429]);
    const other = await login(t, '127.0.0.52', { username: unique('guess'), password: 'guess-guess' });
    expect(other.status).toBe(401);
  });

  it('refuses a body without credentials with one error per attribute', async () => {
    const res = await login(t, '127.0.0.61', { username: '' });
    expect(res.status).toBe(422);
    expect(res.body).toEqual(
      errorsOf(
        422,
        { detail: "Username can't be blank", pointer: '/data/attributes/username' },
        { detail: "Password can't be blank", pointer: '/data/attributes/password' },
      ),
    );
  });
});
