import { bootstrapAdmin } from '../helpers/fixtures';
import { guessingBudget, guessAtOnce } from '../helpers/login';
import { ServerProcess } from '../helpers/server-process';

jest.setTimeout(120_000);

const MAX_FAILURES = 3;
const ADMIN_PASSWORD = 'correct-horse-battery';
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Two worker processes and no Redis: the primary keeps the login counts. The request rate is not
 * limited (RATE_LIMIT_PER_SECOND=0), so nothing else keeps counters there.
 */
describe('POST /api/v2/login on two worker processes', () => {
  let server: ServerProcess;

  beforeAll(async () => {
    server = await ServerProcess.start('src/main.ts', {
      WEB_CONCURRENCY: '2',
      LOGIN_MAX_FAILURES: String(MAX_FAILURES),
      LOGIN_LOCKOUT_SECONDS: '120',
      LOGIN_ATTEMPTS_PER_MINUTE: '1000',
    });
    await server.ready();
    await server.waitForLine(/started 2 workers/);
    for (let i = 0; i < 300 && server.lines.filter((l) => /successfully started/.test(l)).length < 2; i++)
      await pause(100);
    await bootstrapAdmin(server);
  });
  afterAll(() => server?.dispose());

  it('checks no more wrong guesses than one budget, whichever worker each reaches', async () => {
    // Every guess on a connection of its own: the kernel spreads them over both workers.
    const { answers, elapsedMs } = await guessAtOnce([server], 'admin', ADMIN_PASSWORD, 7);
    guessingBudget(MAX_FAILURES)(answers, elapsedMs);
  });
});
