import { Actor, bootstrapAdmin, createUser, unique } from '../helpers/fixtures';
import {
  expectRefusal,
  guessingBudget,
  guessAtOnce,
  LoginAnswer,
  loginFrom,
  PASSWORD,
} from '../helpers/login';
import { tcpReachable } from '../helpers/reachable';
import { startApp, TestApp } from '../helpers/test-app';

const MAX_FAILURES = 3;
const expectWithinBudget = guessingBudget(MAX_FAILURES);
const SETTINGS = {
  LOGIN_MAX_FAILURES: String(MAX_FAILURES),
  LOGIN_LOCKOUT_SECONDS: '120',
  // High enough that the per-address minute never decides here: these tests are about usernames.
  LOGIN_ATTEMPTS_PER_MINUTE: '1000',
};

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const redisUp = tcpReachable(REDIS_URL);
if (!redisUp) {
  process.stderr.write(
    `Skipping "password guessing across two servers": nothing answers at ${REDIS_URL} (start Redis or set TEST_REDIS_URL).\n`,
  );
}

/** What a client can compare between two answers: all but the clock's date, request id and seconds. */
function comparable(answer: LoginAnswer) {
  const headers = { ...answer.headers };
  for (const volatile of ['date', 'x-request-id', 'content-length']) delete headers[volatile];
  if (headers['retry-after']) headers['retry-after'] = 'N';
  return {
    status: answer.status,
    headers,
    body: JSON.stringify(answer.body).replace(/try again in \d+ seconds/g, 'try again in N seconds'),
  };
}

describe('POST /api/v2/login under password guessing', () => {
  let t: TestApp;
  let admin: Actor;

  beforeAll(async () => {
    t = await startApp(SETTINGS);
    admin = await bootstrapAdmin(t);
  });
  afterAll(() => t.close());

  const newUser = async () => {
    const username = unique('guessed');
    await createUser(t, admin, username);
    return username;
  };

  it('checks no more wrong guesses than the budget when many arrive at once from several addresses', async () => {
    const username = await newUser();
    const { answers, elapsedMs } = await guessAtOnce([t], username, PASSWORD, 1);
    expectWithinBudget(answers, elapsedMs);
  });

  it('lets the owner in from another address after a stranger’s failures, the administrator too', async () => {
    for (const username of [await newUser(), 'admin']) {
      const stranger = [];
      for (let i = 0; i < 5; i++) {
        stranger.push(await loginFrom(t, '127.0.2.1', { username, password: `not-it-${i}` }));
      }
      expect(stranger.map((a) => a.status)).toEqual([401, 401, 401, 429, 429]);
      expectRefusal(stranger[4]);
      // The stranger's address stays refused for this username, even with the right password.
      const password = username === 'admin' ? 'correct-horse-battery' : PASSWORD;
      expectRefusal(await loginFrom(t, '127.0.2.1', { username, password }));
      const owner = await loginFrom(t, '127.0.2.2', { username, password });
      expect(owner.status).toBe(201);
      expect(owner.body.data.attributes.token).toEqual(expect.any(String));
    }
  });

  it('answers a known and an unknown username alike, refusals included', async () => {
    const sequence = async (username: string, first: string, second: string) => {
      const answers: LoginAnswer[] = [];
      for (let i = 0; i < 5; i++)
        answers.push(await loginFrom(t, first, { username, password: 'wrong-password!' }));
      answers.push(await loginFrom(t, second, { username, password: 'wrong-password!' }));
      return answers;
    };
    const known = await sequence(await newUser(), '127.0.3.1', '127.0.3.2');
    const unknown = await sequence(unique('nobody'), '127.0.3.3', '127.0.3.4');
    expect(known.map((a) => a.status)).toEqual([401, 401, 401, 429, 429, 401]);
    expect(unknown.map(comparable)).toEqual(known.map(comparable));
  });

  it('refuses a burst against an unknown username as it refuses one against a known username', async () => {
    const { answers, elapsedMs } = await guessAtOnce([t], unique('nobody'), PASSWORD, 4);
    expectWithinBudget(answers, elapsedMs);
    expect(answers.filter((a) => a.status === 201)).toEqual([]);
  });
});

(redisUp ? describe : describe.skip)('password guessing across two servers sharing Redis', () => {
  const prefix = `plinth-test-${process.pid}-${Math.random().toString(36).slice(2, 8)}:`;
  let a: TestApp;
  let b: TestApp;

  beforeAll(async () => {
    const env = { ...SETTINGS, REDIS_URL, REDIS_KEY_PREFIX: prefix };
    [a, b] = await Promise.all([startApp(env), startApp(env)]);
  });
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
  });

  it('checks no more wrong guesses than one budget, whichever server each reaches', async () => {
    const username = unique('shared');
    // Each server has a database of its own here; the same user exists in both.
    for (const t of [a, b]) await createUser(t, await bootstrapAdmin(t), username);
    const { answers, elapsedMs } = await guessAtOnce([a, b], username, PASSWORD, 5);
    expectWithinBudget(answers, elapsedMs);
  });
});
