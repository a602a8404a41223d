import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bootstrapAdmin, createUser, unique } from '../helpers/fixtures';
import { PASSWORD } from '../helpers/login';
import { client, startApp, TestApp, usesMysql } from '../helpers/test-app';
import {
  authorizeParams,
  callback,
  exchange,
  exchangeForm,
  formCookie,
  hiddenFields,
  newPkce,
  openPage,
  submitForm,
} from './oauth-client';

/**
 * Two servers on one database, as two nodes behind a load balancer are: the page may be served by
 * one and its form posted to the other, and a code exchanged on both at once is taken once.
 */
describe('terraform login across two nodes', () => {
  let sqliteDir: string | undefined;
  let a: TestApp;
  let b: TestApp;
  let username: string;
  let userId: string;

  beforeAll(async () => {
    if (!usesMysql()) sqliteDir = mkdtempSync(join(tmpdir(), 'plinth-cli-login-'));
    a = await startApp(sqliteDir ? { DATABASE_URL: `sqlite:${join(sqliteDir, 'shared.sqlite')}` } : {});
    // The same SIGNING_SECRET on both, as the operations guide requires of every node.
    b = await startApp({ DATABASE_URL: a.config.databaseUrl });
    const admin = await bootstrapAdmin(a);
    username = unique('alice');
    userId = (await createUser(a, admin, username)).userId!;
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
    if (sqliteDir) rmSync(sqliteDir, { recursive: true, force: true });
  });

  it('takes a form served by one node on the other, and a code exchanged on both at once only once', async () => {
    const pkce = newPkce();
    const params = authorizeParams(pkce);
    const page = await openPage(a.origin, { ...params });
    expect(page.status).toBe(200);
    const signedIn = await submitForm(
      b.origin,
      { ...hiddenFields(page.text), username, password: PASSWORD },
      formCookie(page),
    );
    const { code, state } = callback(signedIn);
    expect(state).toBe(params.state);

    const form = exchangeForm(code, pkce, params);
    const answers = await Promise.all([a, b, a, b, a, b].map((node) => exchange(node.origin, form)));
    expect(answers.map((x) => x.status).sort()).toEqual([200, 400, 400, 400, 400, 400]);
    for (const refused of answers.filter((x) => x.status === 400)) {
      expect(refused.body).toEqual({
        error: 'invalid_grant',
        error_description: 'The authorization code is not valid: unknown, expired or already used.',
      });
    }
    const token = answers.find((x) => x.status === 200)!.body.access_token as string;
    for (const node of [a, b]) {
      const me = await client(node, token).get('/api/v2/account/details').expect(200);
      expect(me.body.data.id).toBe(userId);
    }
  });
});
