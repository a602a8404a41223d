import fc from 'fast-check';
import { HungRequestError, send } from '../helpers/raw-http';
import { startApp, TestApp } from '../helpers/test-app';
import { fuzzCase, FuzzCase } from './arbitraries';
import { createFuzzFixtures } from './fixtures';
import { FUZZ_ROUTES, FuzzFixtures } from './routes';

/**
 * Property-based fuzzing of every route in FUZZ_ROUTES: whatever the body, path or query, the
 * server answers with a non-5xx status, and answers in time. `npm test` runs a small sample;
 * `npm run test:fuzz` runs FUZZ_RUNS (10,000) cases. A failure prints the seed to replay with
 * FUZZ_SEED.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 200);
const SEED = process.env.FUZZ_SEED === undefined ? undefined : Number(process.env.FUZZ_SEED);
const REQUEST_TIMEOUT_MS = 5000;

jest.setTimeout(Math.max(60_000, RUNS * 200));

describe('fuzzing every route', () => {
  let t: TestApp;
  let adminToken: string;
  let fixtures: FuzzFixtures;

  beforeAll(async () => {
    t = await startApp();
    ({ adminToken, fixtures } = await createFuzzFixtures(t));
  });
  afterAll(() => t?.close());

  it('answers every malformed request without a 5xx and without hanging', async () => {
    const statuses = new Map<number, number>();
    const cases = fc.constantFrom(...FUZZ_ROUTES).chain((route) => fuzzCase(route, fixtures, adminToken));
    await fc.assert(
      fc.asyncProperty(cases, async (c: FuzzCase) => {
        let status: number;
        try {
          status = (await send(t.origin, { ...c, timeoutMs: REQUEST_TIMEOUT_MS })).status;
        } catch (err) {
          if (err instanceof HungRequestError) throw err;
          // The server cut the connection instead of answering (it must not for these inputs).
          throw new Error(`${c.method} ${c.path.slice(0, 200)}: ${(err as Error).message}`);
        }
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
        if (status >= 500) throw new Error(`${c.method} ${c.path.slice(0, 200)} answered ${status}`);
      }),
      { numRuns: RUNS, seed: SEED, verbose: 1 },
    );
    if (process.env.FUZZ_RUNS) {
      const summary = [...statuses.entries()].sort((a, b) => a[0] - b[0]).map(([s, n]) => `${s}×${n}`);
      console.log(`${RUNS} fuzz cases over ${FUZZ_ROUTES.length} routes: ${summary.join(', ')}`);
    }
  });
});
