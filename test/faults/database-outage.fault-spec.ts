import { bootstrapAdmin, createOrganization } from '../helpers/fixtures';
import { RawResponse, send } from '../helpers/raw-http';
import { startApp, TestApp } from '../helpers/test-app';
import { listening, startMariaDb, stopMariaDb } from './mariadb';

/**
 * Stops the machine's MariaDB while Plinth serves, then starts it again. Answers must come as
 * 503 JSON:API errors within 5 s, /readyz must say so, and service must come back by itself
 * within 5 s of the database answering again.
 */
const DEADLINE_MS = 5000;

const unavailable = {
  errors: [
    { status: '503', title: 'service unavailable', detail: 'the database is unavailable; try again shortly' },
  ],
};

interface Timed {
  res: RawResponse;
  ms: number;
}

async function timed(origin: string, path: string, token?: string, body?: unknown): Promise<Timed> {
  const started = Date.now();
  const res = await send(origin, {
    path,
    method: body === undefined ? 'GET' : 'POST',
    headers: {
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { 'Content-Type': 'application/vnd.api+json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
    timeoutMs: DEADLINE_MS + 1000,
  });
  return { res, ms: Date.now() - started };
}

describe('when MariaDB goes away', () => {
  let t: TestApp;
  let token: string;
  let org: string;

  beforeAll(async () => {
    process.env.TEST_DB = 'mysql';
    t = await startApp();
    const admin = await bootstrapAdmin(t);
    token = admin.token;
    org = await createOrganization(admin);
  });

  afterAll(async () => {
    await startMariaDb();
    await t?.close();
  });

  it('answers 503 quickly while it is down, reports not ready, and recovers by itself once it is back', async () => {
    expect((await timed(t.origin, `/api/v2/organizations/${org}`, token)).res.status).toBe(200);
    expect((await timed(t.origin, '/readyz')).res.status).toBe(200);

    let outageStarted = 0;
    let databaseBack = 0;
    try {
      await stopMariaDb();
      outageStarted = Date.now();

      const during = await Promise.all([
        ...Array.from({ length: 20 }, () => timed(t.origin, `/api/v2/organizations/${org}`, token)),
        ...Array.from({ length: 10 }, () => timed(t.origin, '/api/v2/organizations', token)),
        ...Array.from({ length: 5 }, () =>
          timed(t.origin, '/api/v2/organizations', token, {
            data: {
              type: 'organizations',
              attributes: { name: `down-${Date.now()}`, email: 'x@example.com' },
            },
          }),
        ),
      ]);
      const slowest = Math.max(...during.map((d) => d.ms));
      for (const d of during) {
        expect(d.res.status).toBe(503);
        expect(d.res.headers['content-type']).toBe('application/vnd.api+json');
        expect(JSON.parse(d.res.text)).toEqual(unavailable);
      }
      expect(slowest).toBeLessThan(DEADLINE_MS);

      const ready = await timed(t.origin, '/readyz');
      expect(ready.res.status).toBe(503);
      expect(JSON.parse(ready.res.text)).toEqual({
        errors: [
          {
            status: '503',
            title: 'service unavailable',
            detail: 'a dependency is unavailable; try again shortly',
          },
        ],
      });
      expect(ready.ms).toBeLessThan(DEADLINE_MS);
      expect((await timed(t.origin, '/healthz')).res.status).toBe(200);
      console.log(
        `outage: ${during.length} concurrent requests answered 503, slowest after ${slowest} ms; ` +
          `/readyz 503 after ${ready.ms} ms`,
      );
    } finally {
      await startMariaDb();
      databaseBack = Date.now();
    }
    expect(await listening()).toBe(true);

    let recovered = 0;
    while (Date.now() - databaseBack < DEADLINE_MS + 5000) {
      const probe = await timed(t.origin, `/api/v2/organizations/${org}`, token);
      if (probe.res.status === 200) {
        recovered = Date.now();
        break;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(recovered).toBeGreaterThan(0);
    const recoveryMs = recovered - databaseBack;
    console.log(
      `database down for ${databaseBack - outageStarted} ms; service back ${recoveryMs} ms after MariaDB answered`,
    );
    expect(recoveryMs).toBeLessThan(DEADLINE_MS);
    expect((await timed(t.origin, '/readyz')).res.status).toBe(200);
    const listed = await timed(t.origin, '/api/v2/organizations', token);
    expect(listed.res.status).toBe(200);
    expect(JSON.parse(listed.res.text).data.map((o: { id: string }) => o.id)).toContain(org);
    // A write waits for the change counters' advance, which has a connection of its own: it must
    // have come back as well.
    const name = `after-${Date.now()}`;
    const created = await timed(t.origin, '/api/v2/organizations', token, {
      data: { type: 'organizations', attributes: { name, email: 'x@example.com' } },
    });
    expect(created.res.status).toBe(201);
    expect(created.ms).toBeLessThan(DEADLINE_MS);
    const shown = await timed(t.origin, `/api/v2/organizations/${name}`, token);
    expect(shown.res.status).toBe(200);
  });
});
