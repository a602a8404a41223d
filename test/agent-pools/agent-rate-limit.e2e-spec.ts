import { Actor, bootstrapAdmin, createOrganization, createUser, unique } from '../helpers/fixtures';
import { send } from '../helpers/raw-http';
import { startApp, TestApp } from '../helpers/test-app';
import { createAgentToken, createPool } from './helpers';

jest.setTimeout(60_000);

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('rate limits on the executor protocol', () => {
  let t: TestApp;
  const secrets: string[] = [];

  /** Stays under the owner's own budget of 3 a second while setting up. */
  async function slowly<T>(work: () => Promise<T>): Promise<T> {
    const result = await work();
    await pause(400);
    return result;
  }

  beforeAll(async () => {
    t = await startApp({ RATE_LIMIT_PER_SECOND: '3' });
    const admin = await bootstrapAdmin(t);
    await pause(1100);
    const owner: Actor = await slowly(() => createUser(t, admin));
    const org = await slowly(() => createOrganization(owner));
    const poolId = await slowly(() => createPool(owner, org, unique('pool')));
    for (let i = 0; i < 5; i++) secrets.push((await slowly(() => createAgentToken(owner, poolId))).secret);
    await pause(1100);
  });
  afterAll(() => t.close());

  const register = (secret: string) =>
    send(t.origin, {
      method: 'POST',
      path: '/api/v2/agent/register',
      headers: { Authorization: `Bearer ${secret}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'host' }),
      localAddress: '127.0.0.3',
    });

  it('counts executors per token, not per address, so many behind one address are not refused', async () => {
    const responses = await Promise.all(secrets.map(register));
    expect(responses.map((r) => r.status)).toEqual([201, 201, 201, 201, 201]);
  });

  it('still refuses one token past its budget', async () => {
    await pause(1100);
    const responses = await Promise.all(Array.from({ length: 5 }, () => register(secrets[0])));
    expect(responses.map((r) => r.status).sort()).toEqual([201, 201, 201, 429, 429]);
  });
});
