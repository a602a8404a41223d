import { IncomingHttpHeaders } from 'node:http';
import { send } from './raw-http';
import { JSONAPI, TestApp } from './test-app';

/** The password `createUser` gives every user. */
export const PASSWORD = 'a-long-password';

export interface LoginAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: {
    data: { id: string; attributes: Record<string, string> };
    errors: Record<string, string>[];
  };
}

/** `POST /api/v2/login` from a chosen loopback address (each address is a client of its own). */
export async function loginFrom(
  t: Pick<TestApp, 'origin'>,
  from: string,
  attributes: Record<string, unknown>,
): Promise<LoginAnswer> {
  const res = await send(t.origin, {
    method: 'POST',
    path: '/api/v2/login',
    localAddress: from,
    headers: { 'Content-Type': JSONAPI },
    body: JSON.stringify({ data: { type: 'authentication-tokens', attributes } }),
  });
  return { status: res.status, headers: res.headers, body: JSON.parse(res.text) as LoginAnswer['body'] };
}

const WAIT_DETAIL = /^Too many login attempts; try again in (\d+) seconds$/;

/** Every refusal is the same 429 whose detail and Retry-After name the same wait. */
export function expectRefusal(answer: LoginAnswer): void {
  expect(answer.body).toEqual({
    errors: [{ status: '429', title: 'too many requests', detail: expect.stringMatching(WAIT_DETAIL) }],
  });
  const wait = WAIT_DETAIL.exec(answer.body.errors[0].detail)![1];
  expect(answer.headers['retry-after']).toBe(wait);
  expect(Number(wait)).toBeGreaterThan(0);
}

/**
 * The check of a burst against one username under LOGIN_MAX_FAILURES = `maxFailures`: wrong
 * passwords checked (401) are no more than the documented schedule allows within the burst's time
 * (`maxFailures` at once for addresses new to the username and as many for the others, then one more
 * in each after 1, 3, 7… seconds); a right one (201), which is not a failure, may be among them;
 * everything else is the one refusal.
 */
export function guessingBudget(maxFailures: number) {
  return (answers: LoginAnswer[], elapsedMs: number): void => {
    const budget = 2 * (maxFailures + Math.floor(Math.log2(elapsedMs / 1000 + 1)));
    const wrong = answers.filter((a) => a.status === 401);
    expect(wrong.length).toBeGreaterThan(0);
    expect(wrong.length).toBeLessThanOrEqual(budget);
    expect(answers.filter((a) => a.status === 201).length).toBeLessThanOrEqual(1);
    for (const a of answers.filter((x) => x.status !== 401 && x.status !== 201)) expectRefusal(a);
  };
}

/**
 * Sixty guesses at once, ten from each of six addresses `127.0.<subnet>.1–6`, spread over `servers`,
 * each on a connection of its own; one of them is `rightPassword`.
 */
export async function guessAtOnce(
  servers: Pick<TestApp, 'origin'>[],
  username: string,
  rightPassword: string,
  subnet: number,
): Promise<{ answers: LoginAnswer[]; elapsedMs: number }> {
  const guesses = Array.from({ length: 60 }, (_, i) => ({
    server: servers[i % servers.length],
    from: `127.0.${subnet}.${1 + (i % 6)}`,
    password: i === 41 ? rightPassword : `wrong-guess-${i}`,
  }));
  const started = Date.now();
  const answers = await Promise.all(
    guesses.map((g) => loginFrom(g.server, g.from, { username, password: g.password })),
  );
  return { answers, elapsedMs: Date.now() - started };
}
