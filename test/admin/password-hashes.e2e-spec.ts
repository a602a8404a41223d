import { randomBytes, scryptSync } from 'node:crypto';
import { DataSource } from 'typeorm';
import { bootstrapAdmin, createUser, unique } from '../helpers/fixtures';
import { loginFrom, PASSWORD } from '../helpers/login';
import { startApp, TestApp } from '../helpers/test-app';

/**
 * The hash format this release writes, at the cost this suite configures: N = 2^15, r = 8, p = 1.
 * Above the earlier releases' 2^14, so both the format and the cost change; a quarter of the
 * production cost (whose default src/users/password.spec.ts proves) keeps the suite quick.
 */
const CURRENT = /^scrypt\$32768\$8\$1\$[0-9a-f]{32}\$[0-9a-f]{128}$/;

/** A hash as earlier releases stored it: scrypt at Node's defaults (N = 2^14, r = 8, p = 1), no parameters. */
function earlierReleaseHash(password: string): string {
  const salt = randomBytes(16);
  return `scrypt$${salt.toString('hex')}$${scryptSync(password, salt, 64).toString('hex')}`;
}

describe('stored password hashes', () => {
  let t: TestApp;
  let ds: DataSource;
  let admin: Awaited<ReturnType<typeof bootstrapAdmin>>;

  beforeAll(async () => {
    t = await startApp({ PASSWORD_HASH_COST: '15' });
    ds = t.app.get(DataSource);
    admin = await bootstrapAdmin(t);
  });
  afterAll(() => t.close());

  const storedHash = async (userId: string): Promise<string> => {
    const rows: { password_hash: string }[] = await ds.query('SELECT password_hash FROM users WHERE id = ?', [
      userId,
    ]);
    return rows[0].password_hash;
  };

  it('stores a new user’s password with the parameters it was hashed with', async () => {
    const user = await createUser(t, admin);
    expect(await storedHash(user.userId!)).toMatch(CURRENT);
  });

  it('accepts a hash from an earlier release and replaces it on the next successful login', async () => {
    const username = unique('legacy');
    const user = await createUser(t, admin, username);
    const legacy = earlierReleaseHash(PASSWORD);
    await ds.query('UPDATE users SET password_hash = ? WHERE id = ?', [legacy, user.userId]);

    const wrong = await loginFrom(t, '127.0.4.1', { username, password: 'not-the-password' });
    expect(wrong.status).toBe(401);
    expect(await storedHash(user.userId!)).toBe(legacy);

    const first = await loginFrom(t, '127.0.4.1', { username, password: PASSWORD });
    expect(first.status).toBe(201);
    const upgraded = await storedHash(user.userId!);
    expect(upgraded).toMatch(CURRENT);

    const again = await loginFrom(t, '127.0.4.1', { username, password: PASSWORD });
    expect(again.status).toBe(201);
    expect(await storedHash(user.userId!)).toBe(upgraded);
  });
});
