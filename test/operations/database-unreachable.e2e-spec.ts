import { cutOffDatabase } from '../helpers/database-outage';
import { bootstrapAdmin } from '../helpers/fixtures';
import { send } from '../helpers/raw-http';
import { startApp, TestApp, usesMysql } from '../helpers/test-app';

/**
 * The database made unreachable for this app only (its pool now dials a closed port), so the
 * suite can run beside others; `npm run test:faults` stops the real MariaDB instead.
 */
(usesMysql() ? describe : describe.skip)('when the database cannot be reached', () => {
  let t: TestApp;
  let token: string;
  let restore: () => void;

  beforeAll(async () => {
    t = await startApp();
    token = (await bootstrapAdmin(t)).token;
    restore = await cutOffDatabase(t.app);
  });
  afterAll(async () => {
    restore();
    await t.close();
  });

  it('answers authenticated requests with a JSON:API 503, not a 401', async () => {
    const res = await send(t.origin, {
      path: '/api/v2/organizations',
      headers: { Authorization: `Bearer ${token}` },
      timeoutMs: 5000,
    });
    expect(res.status).toBe(503);
    expect(JSON.parse(res.text)).toEqual({
      errors: [
        {
          status: '503',
          title: 'service unavailable',
          detail: 'the database is unavailable; try again shortly',
        },
      ],
    });
  });

  it('reports not ready on /readyz while /healthz stays up', async () => {
    const ready = await send(t.origin, { path: '/readyz', timeoutMs: 5000 });
    expect(ready.status).toBe(503);
    expect(JSON.parse(ready.text)).toEqual({
      errors: [
        {
          status: '503',
          title: 'service unavailable',
          detail: 'a dependency is unavailable; try again shortly',
        },
      ],
    });
    expect((await send(t.origin, { path: '/healthz' })).status).toBe(200);
  });

  it('serves again as soon as the database can be reached', async () => {
    restore();
    const res = await send(t.origin, {
      path: '/api/v2/organizations',
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(res.status).toBe(200);
  });
});
