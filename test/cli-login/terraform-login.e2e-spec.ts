import { Clock } from '../../src/common/clock';
import { Actor, bootstrapAdmin, createUser, unique } from '../helpers/fixtures';
import { PASSWORD } from '../helpers/login';
import { client, startApp, TestApp } from '../helpers/test-app';
import {
  Answer,
  authorizeParams,
  callback,
  exchange,
  exchangeForm,
  formCookie,
  hiddenFields,
  newPkce,
  openPage,
  signIn,
  submitForm,
} from './oauth-client';

const CSP =
  /^default-src 'none'; style-src 'sha256-[A-Za-z0-9+/]+=*'; form-action 'self'( http:\/\/localhost:\d+)?; frame-ancestors 'none'; base-uri 'none'$/;

function expectHtmlPage(page: Answer, status: number): void {
  expect(page.status).toBe(status);
  expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
  expect(page.headers.get('cache-control')).toBe('no-store');
  expect(page.headers.get('content-security-policy')).toMatch(CSP);
  expect(page.headers.get('location')).toBeNull();
  expect(page.text).toMatch(/^<!DOCTYPE html>/);
  // Nothing loads from elsewhere, and nothing runs.
  expect(page.text).not.toMatch(/<script|<link|src=|https?:\/\/(?!localhost:)/);
}

function expectForm(page: Answer, status: number, error?: string): void {
  expectHtmlPage(page, status);
  expect(page.text).toContain('<form method="post" action="authorize">');
  expect(Object.keys(hiddenFields(page.text)).sort()).toEqual(
    [
      'client_id',
      'code_challenge',
      'code_challenge_method',
      'form_token',
      'redirect_uri',
      'response_type',
      'state',
    ].sort(),
  );
  if (error) expect(page.text).toContain(`<p class="error" role="alert">${error}</p>`);
  else expect(page.text).not.toContain('class="error"');
}

describe('terraform login (login.v1): the sign-in page and the code exchange', () => {
  let t: TestApp;
  let admin: Actor;
  let alice: Actor & { username: string };

  beforeAll(async () => {
    t = await startApp({ LOGIN_ATTEMPTS_PER_MINUTE: '0', LOGIN_MAX_FAILURES: '3' });
    admin = await bootstrapAdmin(t);
    const username = unique('alice');
    alice = { ...(await createUser(t, admin, username)), username };
  });
  afterAll(() => t.close());

  it('advertises login.v1 beside the API in the discovery document', async () => {
    const res = await fetch(`${t.origin}/.well-known/terraform.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json(;|$)/);
    expect(await res.json()).toEqual({
      'login.v1': {
        client: 'terraform-cli',
        grant_types: ['authz_code'],
        authz: '/app/oauth/authorize',
        token: '/oauth/token',
        ports: [10000, 10010],
      },
      'modules.v1': '/api/registry/v1/modules/',
      'providers.v1': '/api/registry/v1/providers/',
      'tfe.v2': '/api/v2/',
      'tfe.v2.1': '/api/v2/',
      'tfe.v2.2': '/api/v2/',
    });
  });

  it('signs in, redirects to the loopback address with a code and the state, and exchanges the code for a user token', async () => {
    const pkce = newPkce();
    const params = authorizeParams(pkce, { redirect_uri: 'http://localhost:10007/login' });
    const page = await openPage(t.origin, { ...params });
    expectForm(page, 200);
    expect(page.headers.get('content-security-policy')).toContain(
      "form-action 'self' http://localhost:10007;",
    );
    const setCookie = page.headers.get('set-cookie') ?? '';
    expect(setCookie).toMatch(
      /^plinth_cli_login=[A-Za-z0-9_-]{32}; Path=\/app\/oauth\/authorize; Max-Age=1800; HttpOnly; SameSite=Strict$/,
    );
    expect(hiddenFields(page.text)).toEqual({
      ...params,
      form_token: expect.stringMatching(/^\d+\.[A-Za-z0-9_-]{43}$/),
    });
    expect(page.text).toContain('<label for="username">Username</label>');
    expect(page.text).toContain('<label for="password">Password</label>');

    const signedIn = await submitForm(
      t.origin,
      { ...hiddenFields(page.text), username: alice.username, password: PASSWORD },
      formCookie(page),
    );
    expect(signedIn.status).toBe(302);
    expect(signedIn.headers.get('cache-control')).toBe('no-store');
    const { url, code, state } = callback(signedIn);
    expect(`${url.origin}${url.pathname}`).toBe('http://localhost:10007/login');
    expect([...url.searchParams.keys()].sort()).toEqual(['code', 'state']);
    expect(state).toBe(params.state);
    expect(code).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const token = await exchange(t.origin, exchangeForm(code, pkce, params));
    expect(token.status).toBe(200);
    expect(token.headers.get('content-type')).toMatch(/^application\/json/);
    expect(token.headers.get('cache-control')).toBe('no-store');
    expect(token.body).toEqual({
      access_token: expect.stringMatching(/^[A-Za-z0-9._-]{20,}$/),
      token_type: 'bearer',
      expires_in: 30 * 86400,
    });

    // The token is alice's, listed with her other tokens as "terraform login", and revocable there.
    const cli = client(t, token.body.access_token as string);
    const me = await cli.get('/api/v2/account/details').expect(200);
    expect(me.body.data.id).toBe(alice.userId);
    const listed = await alice.api.get(`/api/v2/users/${alice.userId}/authentication-tokens`).expect(200);
    const ours = listed.body.data.filter(
      (d: { attributes: { description: string | null } }) => d.attributes.description === 'terraform login',
    );
    expect(ours).toHaveLength(1);
    const expiresIn = Date.parse(ours[0].attributes['expired-at']) - Date.now();
    expect(expiresIn).toBeGreaterThan(29 * 86400 * 1000);
    expect(expiresIn).toBeLessThanOrEqual(30 * 86400 * 1000);
    await alice.api.delete(`/api/v2/authentication-tokens/${ours[0].id}`).expect(204);
    await cli.get('/api/v2/account/details').expect(401);
  });

  async function freshCode(overrides = {}) {
    const pkce = newPkce();
    const params = authorizeParams(pkce, overrides);
    const { code } = callback(await signIn(t.origin, params, alice.username, PASSWORD));
    return { pkce, params, code };
  }

  const INVALID_GRANT_CODE = {
    error: 'invalid_grant',
    error_description: 'The authorization code is not valid: unknown, expired or already used.',
  };

  it('takes a code once: a second exchange is an invalid_grant', async () => {
    const { pkce, params, code } = await freshCode();
    expect((await exchange(t.origin, exchangeForm(code, pkce, params))).status).toBe(200);
    const again = await exchange(t.origin, exchangeForm(code, pkce, params));
    expect(again.status).toBe(400);
    expect(again.body).toEqual(INVALID_GRANT_CODE);
  });

  it('of two exchanges of one code at once, exactly one gets a token', async () => {
    const { pkce, params, code } = await freshCode();
    const answers = await Promise.all(
      [1, 2, 3].map(() => exchange(t.origin, exchangeForm(code, pkce, params))),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, 400, 400]);
    for (const a of answers.filter((x) => x.status === 400)) expect(a.body).toEqual(INVALID_GRANT_CODE);
  });

  it('refuses a wrong verifier with invalid_grant, and the code is gone after it', async () => {
    const { pkce, params, code } = await freshCode();
    const wrong = await exchange(t.origin, {
      ...exchangeForm(code, pkce, params),
      code_verifier: newPkce().verifier,
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toEqual({
      error: 'invalid_grant',
      error_description: 'code_verifier does not match the code challenge.',
    });
    const right = await exchange(t.origin, exchangeForm(code, pkce, params));
    expect(right.body).toEqual(INVALID_GRANT_CODE);
  });

  it('refuses a verifier that is not one (too short) as a wrong one', async () => {
    const { pkce, params, code } = await freshCode();
    const short = await exchange(t.origin, { ...exchangeForm(code, pkce, params), code_verifier: 'abc' });
    expect(short.status).toBe(400);
    expect(short.body.error).toBe('invalid_grant');
  });

  it('refuses a redirect_uri other than the one the code was issued for', async () => {
    const { pkce, params, code } = await freshCode({ redirect_uri: 'http://localhost:10001/login' });
    const other = await exchange(t.origin, {
      ...exchangeForm(code, pkce, params),
      redirect_uri: 'http://localhost:10002/login',
    });
    expect(other.status).toBe(400);
    expect(other.body).toEqual({
      error: 'invalid_grant',
      error_description: 'redirect_uri does not match the one of the authorization request.',
    });
  });

  it('refuses a code after 5 minutes', async () => {
    const { pkce, params, code } = await freshCode();
    const clock = t.app.get(Clock);
    const realNow = clock.now.bind(clock);
    clock.now = () => new Date(realNow().getTime() + 301 * 1000);
    try {
      const late = await exchange(t.origin, exchangeForm(code, pkce, params));
      expect(late.status).toBe(400);
      expect(late.body).toEqual(INVALID_GRANT_CODE);
    } finally {
      clock.now = realNow;
    }
  });

  it('answers OAuth errors for a malformed exchange', async () => {
    const { pkce, params, code } = await freshCode();
    const form = exchangeForm(code, pkce, params);
    const cases: [Record<string, string>, Record<string, string>][] = [
      [
        { ...form, grant_type: 'password' },
        {
          error: 'unsupported_grant_type',
          error_description: 'Only the authorization_code grant is supported.',
        },
      ],
      [
        { ...form, code: '' },
        { error: 'invalid_request', error_description: 'code is required.' },
      ],
      [
        {
          grant_type: 'authorization_code',
          code,
          redirect_uri: params.redirect_uri,
          client_id: params.client_id,
        },
        { error: 'invalid_request', error_description: 'code_verifier is required.' },
      ],
      [
        { ...form, client_id: 'someone-else' },
        { error: 'invalid_client', error_description: 'Unknown client someone-else.' },
      ],
      [{ ...form, code: 'not-a-code-we-issued' }, INVALID_GRANT_CODE],
    ];
    for (const [body, error] of cases) {
      const res = await exchange(t.origin, body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(error);
    }
    // None of these took the code: it still works.
    expect((await exchange(t.origin, exchangeForm(code, pkce, params))).status).toBe(200);
  });

  it('answers a form body it cannot decompress with a JSON:API 400, on the token endpoint and the sign-in form', async () => {
    for (const path of ['/oauth/token', '/app/oauth/authorize']) {
      for (const [encoding, body] of [
        ['gzip', ''],
        ['br', '!\u001ev\u00ff'],
      ]) {
        const res = await fetch(`${t.origin}${path}`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'Content-Encoding': encoding },
          body,
        });
        expect([path, encoding, res.status]).toEqual([path, encoding, 400]);
        expect(await res.json()).toEqual({
          errors: [{ status: '400', title: 'bad request', detail: 'request body could not be read' }],
        });
      }
    }
  });

  describe('the page refuses requests the CLI does not make, and sends nothing to the redirect URI', () => {
    const ports = 'redirect_uri must be http://localhost:PORT/login with PORT from 10000 to 10010.';
    const cases: [string, Record<string, string>, string][] = [
      ['a port below the range', { redirect_uri: 'http://localhost:9999/login' }, ports],
      ['a port above the range', { redirect_uri: 'http://localhost:10011/login' }, ports],
      ['a port with a leading zero', { redirect_uri: 'http://localhost:010000/login' }, ports],
      ['another host', { redirect_uri: 'http://127.0.0.1:10000/login' }, ports],
      ['https', { redirect_uri: 'https://localhost:10000/login' }, ports],
      ['a trailing slash', { redirect_uri: 'http://localhost:10000/login/' }, ports],
      ['another path', { redirect_uri: 'http://localhost:10000/callback' }, ports],
      ['a query', { redirect_uri: 'http://localhost:10000/login?x=1' }, ports],
      ['another client', { client_id: 'other' }, 'client_id must be terraform-cli.'],
      ['the implicit grant', { response_type: 'token' }, 'response_type must be code.'],
      [
        'the plain challenge method',
        { code_challenge_method: 'plain' },
        'code_challenge_method must be S256 (PKCE); plain is not accepted.',
      ],
      [
        'no challenge method',
        { code_challenge_method: '' },
        'code_challenge_method must be S256 (PKCE); plain is not accepted.',
      ],
      [
        'a challenge that is no SHA-256',
        { code_challenge: 'short' },
        'code_challenge must be the base64url SHA-256 of the code verifier (43 characters).',
      ],
      ['no state', { state: '' }, 'state is required (at most 512 characters).'],
    ];
    it.each(cases)('%s', async (_name, override, message) => {
      const params = { ...authorizeParams(newPkce()), ...override };
      const page = await openPage(t.origin, params);
      expectHtmlPage(page, 400);
      expect(page.headers.get('content-security-policy')).toContain("form-action 'self';");
      expect(page.headers.get('set-cookie')).toBeNull();
      expect(page.text).toContain(`<p class="error" role="alert">${message}</p>`);
      expect(page.text).not.toContain('<form');
      // Posted to the form's address, the same request is refused the same way, password or not.
      const posted = await submitForm(t.origin, { ...params, username: alice.username, password: PASSWORD });
      expectHtmlPage(posted, 400);
      expect(posted.text).toContain(message);
    });
  });

  it('escapes what the request carries into the page', async () => {
    const params = authorizeParams(newPkce(), { state: '"><script>alert(1)</script>' });
    const page = await openPage(t.origin, { ...params });
    expectForm(page, 200);
    expect(page.text).toContain('value="&#34;&#62;&#60;script&#62;alert(1)&#60;/script&#62;"');
    expect(hiddenFields(page.text).state).toBe(params.state);
  });

  describe('cross-site submissions', () => {
    const notFromPage = 'The sign-in form was not sent from this page. Sign in again.';

    async function opened() {
      const params = authorizeParams(newPkce());
      const page = await openPage(t.origin, { ...params });
      return { params, page, fields: hiddenFields(page.text), cookie: formCookie(page) };
    }

    it('refuses a form without its token', async () => {
      const { fields, cookie } = await opened();
      const res = await submitForm(
        t.origin,
        { ...fields, form_token: '', username: alice.username, password: PASSWORD },
        cookie,
      );
      expectForm(res, 403, notFromPage);
    });

    it('refuses a form without the cookie (another site cannot send it), and sets one for the next try', async () => {
      const { fields } = await opened();
      const res = await submitForm(t.origin, { ...fields, username: alice.username, password: PASSWORD });
      expectForm(res, 403, notFromPage);
      expect(res.headers.get('set-cookie')).toMatch(/^plinth_cli_login=/);
      // The form it answers works with that cookie.
      const retry = await submitForm(
        t.origin,
        { ...hiddenFields(res.text), username: alice.username, password: PASSWORD },
        formCookie(res),
      );
      expect(retry.status).toBe(302);
    });

    it('refuses a token made for another cookie, a forged token, and a token made for another request', async () => {
      const a = await opened();
      const b = await opened();
      const creds = { username: alice.username, password: PASSWORD };
      expectForm(await submitForm(t.origin, { ...a.fields, ...creds }, b.cookie), 403, notFromPage);
      const forged = `${a.fields.form_token.split('.')[0]}.${'A'.repeat(43)}`;
      expectForm(
        await submitForm(t.origin, { ...a.fields, form_token: forged, ...creds }, a.cookie),
        403,
        notFromPage,
      );
      // Another state (or challenge, or redirect URI) under this page's token.
      expectForm(
        await submitForm(t.origin, { ...a.fields, state: b.fields.state, ...creds }, a.cookie),
        403,
        notFromPage,
      );
      const otherPort = { ...a.fields, redirect_uri: 'http://localhost:10003/login', ...creds };
      expectForm(await submitForm(t.origin, otherPort, a.cookie), 403, notFromPage);
    });

    it('keeps the cookie across pages: a form opened earlier still works after another was opened', async () => {
      const first = await opened();
      const second = await openPage(t.origin, { ...authorizeParams(newPkce()) }, first.cookie);
      expect(formCookie(second)).toBe(first.cookie);
      const res = await submitForm(
        t.origin,
        { ...first.fields, username: alice.username, password: PASSWORD },
        first.cookie,
      );
      expect(res.status).toBe(302);
    });

    it('refuses a form older than 30 minutes', async () => {
      const { fields, cookie } = await opened();
      const clock = t.app.get(Clock);
      const realNow = clock.now.bind(clock);
      clock.now = () => new Date(realNow().getTime() + 1801 * 1000);
      try {
        const res = await submitForm(
          t.origin,
          { ...fields, username: alice.username, password: PASSWORD },
          cookie,
        );
        expectForm(res, 403, 'The sign-in form has expired. Sign in again.');
      } finally {
        clock.now = realNow;
      }
    });
  });

  it('shows the form again for a wrong password, the username kept, and issues no code', async () => {
    const params = authorizeParams(newPkce());
    const res = await signIn(t.origin, params, alice.username, 'not-the-password');
    expectForm(res, 401, 'Invalid username or password.');
    expect(res.text).toContain(`value="${alice.username}"`);
    const empty = await signIn(t.origin, params, alice.username, '');
    expectForm(empty, 400, 'Enter your username and password.');
  });

  it('refuses a suspended user as a wrong password', async () => {
    const username = unique('suspended');
    const user = await createUser(t, admin, username);
    await admin.api.post(`/api/v2/admin/users/${user.userId}/actions/suspend`).expect(200);
    const res = await signIn(t.origin, authorizeParams(newPkce()), username, PASSWORD);
    expectForm(res, 401, 'Invalid username or password.');
  });

  it('locks a username out after LOGIN_MAX_FAILURES wrong passwords, the right one included, as the login route does', async () => {
    const username = unique('locked');
    await createUser(t, admin, username);
    const params = authorizeParams(newPkce());
    for (let i = 0; i < 3; i++) {
      expectForm(
        await signIn(t.origin, params, username, `wrong-${i}`),
        401,
        'Invalid username or password.',
      );
    }
    const locked = await signIn(t.origin, params, username, PASSWORD);
    expect(locked.status).toBe(429);
    const wait = Number(locked.headers.get('retry-after'));
    expect(wait).toBeGreaterThan(0);
    expectForm(locked, 429, `Too many login attempts; try again in ${wait} seconds.`);
    // The API's login shares the count.
    const api = await fetch(`${t.origin}/api/v2/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/vnd.api+json' },
      body: JSON.stringify({
        data: { type: 'authentication-tokens', attributes: { username, password: PASSWORD } },
      }),
    });
    expect(api.status).toBe(429);
  });
});
