import { existsSync } from 'node:fs';
import { Browser, chromium, Page } from 'playwright-core';
import { bootstrapAdmin, createOrganization } from '../helpers/fixtures';
import { startApp, TestApp } from '../helpers/test-app';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const haveChromium = existsSync(CHROMIUM);
if (!haveChromium) {
  console.warn(
    `Skipping the /docs browser test: no Chromium at ${CHROMIUM}. ` +
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

(haveChromium ? describe : describe.skip)('the API explorer at /docs, in headless Chromium', () => {
  let t: TestApp;
  let browser: Browser;
  let page: Page;
  let token: string;
  let org: string;

  beforeAll(async () => {
    t = await startApp();
    const admin = await bootstrapAdmin(t);
    token = admin.token;
    org = await createOrganization(admin);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS, headless: true });
    page = await browser.newPage();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('loads, takes a bearer token through Authorize, and lists organizations with Try it out', async () => {
    const response = await page.goto(`${t.origin}/docs`);
    expect(response?.status()).toBe(200);
    await page.locator('.swagger-ui .info .title').getByText('Plinth API').waitFor();

    await page.locator('.auth-wrapper button.authorize').click();
    const modal = page.locator('.modal-ux');
    await modal.locator('input[aria-label="auth-bearer-value"]').fill(token);
    await modal.locator('button.modal-btn.authorize').click();
    await modal.locator('button.modal-btn.btn-done').click();
    await page.locator('.auth-wrapper button.authorize.locked').waitFor();

    const operation = page.locator('.opblock-get', {
      has: page.locator('.opblock-summary-path[data-path="/api/v2/organizations"]'),
    });
    await operation.locator('.opblock-summary').click();
    await operation.getByRole('button', { name: 'Try it out' }).click();
    await operation.getByRole('button', { name: 'Execute' }).click();

    const live = operation.locator('.live-responses-table');
    await live.locator('.response-col_status').getByText('200', { exact: true }).waitFor();
    expect(await operation.locator('.curl-command').innerText()).toContain(`Authorization: Bearer ${token}`);
    const text = await live.locator('.response-col_description .microlight').first().innerText();
    const body = JSON.parse(text) as {
      data: { id: string; type: string; attributes: { name: string } }[];
      meta: { pagination: Record<string, number | null> };
    };
    expect(body.data).toEqual([
      expect.objectContaining({
        id: org,
        type: 'organizations',
        attributes: expect.objectContaining({ name: org }),
      }),
    ]);
    expect(body.meta.pagination).toMatchObject({ 'current-page': 1, 'total-count': 1 });
    expect(await live.innerText()).toMatch(/content-type: application\/vnd\.api\+json/);
  });
});
