import { existsSync } from 'node:fs';
import { createServer, Server } from 'node:http';
import { Browser, chromium } from 'playwright-core';
import { bootstrapAdmin, createUser, unique } from '../helpers/fixtures';
import { PASSWORD } from '../helpers/login';
import { client, startApp, TestApp } from '../helpers/test-app';
import { authorizeParams, authorizeUrl, exchange, exchangeForm, newPkce } from '../cli-login/oauth-client';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const haveChromium = existsSync(CHROMIUM);
if (!haveChromium) {
  console.warn(
    `Skipping the terraform login browser test: no Chromium at ${CHROMIUM}. ` +
      'Install it with `apt-get install -y chromium` (or set CHROMIUM_PATH).',
  );
}

/** Flags for a sandbox without network: no background traffic, no GPU, no first-run work. */
const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
  '--no-first-run',
];

interface Listener {
  port: number;
  /** The query of each request the CLI's listener received. */
  received: URLSearchParams[];
  close(): Promise<void>;
}

function listen(server: Server, port: number, host: string): Promise<boolean> {
  return new Promise((resolve) => {
    server.once('error', () => resolve(false));
    server.listen(port, host, () => resolve(true));
  });
}

/**
 * What `terraform login` listens with: an HTTP server on a loopback port of the range, answering
 * `/login`. `localhost` may resolve to either loopback address: both are served where they exist.
 */
async function cliListener(): Promise<Listener> {
  const received: URLSearchParams[] = [];
  const handler = (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname === '/login') received.push(url.searchParams);
    res
      .writeHead(200, { 'content-type': 'text/html' })
      .end('<h1>The login server has returned an authentication code to Terraform.</h1>');
  };
  for (let port = 10000; port <= 10010; port++) {
    const v4 = createServer(handler);
    if (!(await listen(v4, port, '127.0.0.1'))) continue;
    const v6 = createServer(handler);
    const servers = (await listen(v6, port, '::1')) ? [v4, v6] : [v4];
    return {
      port,
      received,
      close: async () => {
        await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
      },
    };
  }
  throw new Error('no free port from 10000 to 10010');
}

(haveChromium ? describe : describe.skip)('the terraform login sign-in page, in headless Chromium', () => {
  let t: TestApp;
  let browser: Browser;
  let listener: Listener;
  let username: string;
  let userId: string;

  beforeAll(async () => {
    t = await startApp({ LOGIN_ATTEMPTS_PER_MINUTE: '0' });
    const admin = await bootstrapAdmin(t);
    username = unique('alice');
    userId = (await createUser(t, admin, username)).userId!;
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS, headless: true });
    listener = await cliListener();
  });
  afterAll(async () => {
    await listener?.close();
    await browser?.close();
    await t?.close();
  });

  it('signs in without JavaScript, follows the redirect to the loopback listener, and the code becomes a token', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    try {
      const page = await context.newPage();
      const pkce = newPkce();
      const params = authorizeParams(pkce, { redirect_uri: `http://localhost:${listener.port}/login` });
      const opened = await page.goto(authorizeUrl(t.origin, { ...params }));
      expect(opened?.status()).toBe(200);
      expect(await page.title()).toBe('Sign in to Plinth: terraform login');
      await page.getByRole('heading', { name: 'Sign in to Plinth' }).waitFor();

      await page.getByLabel('Username').fill(username);
      await page.getByLabel('Password').fill(PASSWORD);
      await Promise.all([
        page.waitForURL((url) => url.port === String(listener.port) && url.pathname === '/login'),
        page.getByRole('button', { name: 'Sign in' }).click(),
      ]);
      await page.getByText('The login server has returned an authentication code to Terraform.').waitFor();

      expect(listener.received).toHaveLength(1);
      const callback = listener.received[0];
      expect([...callback.keys()].sort()).toEqual(['code', 'state']);
      expect(callback.get('state')).toBe(params.state);
      const token = await exchange(t.origin, exchangeForm(callback.get('code')!, pkce, params));
      expect(token.status).toBe(200);
      const me = await client(t, token.body.access_token as string)
        .get('/api/v2/account/details')
        .expect(200);
      expect(me.body.data.id).toBe(userId);
    } finally {
      await context.close();
    }
  });

  it('shows a wrong password on the page, with nothing blocked by its content security policy', async () => {
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      const problems: string[] = [];
      page.on('console', (m) => {
        if (m.type() === 'error' || m.type() === 'warning') problems.push(m.text());
      });
      page.on('pageerror', (e) => problems.push(e.message));
      const before = listener.received.length;
      const params = authorizeParams(newPkce(), { redirect_uri: `http://localhost:${listener.port}/login` });
      await page.goto(authorizeUrl(t.origin, { ...params }));
      await page.getByLabel('Username').fill(username);
      await page.getByLabel('Password').fill('not-the-password');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('alert').getByText('Invalid username or password.').waitFor();
      // The style sheet applied: the inline style is allowed by its hash.
      const width = await page.evaluate<string>('getComputedStyle(document.body).maxWidth');
      expect(width).toBe('448px'); // 28rem
      expect(await page.getByLabel('Username').inputValue()).toBe(username);
      expect(listener.received.length).toBe(before);
      // The page's own 401 is reported as a failed load; nothing else (no policy violation) is.
      expect(problems).toEqual([
        'Failed to load resource: the server responded with a status of 401 (Unauthorized)',
      ]);
    } finally {
      await context.close();
    }
  });
});
