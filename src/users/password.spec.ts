import { randomBytes, scryptSync } from 'node:crypto';
import { AppConfig, ConfigError } from '../config/app-config';
import { hashPassword, needsRehash, PasswordHasher, scryptParams, verifyPassword } from './password';

const BASE_ENV = { SIGNING_SECRET: 'password-unit-test-signing-secret-32b' };
/** Cheap parameters for the tests of the format; the default's own test pays the real cost once. */
const CHEAP = scryptParams(10);

function earlierReleaseHash(password: string): string {
  const salt = randomBytes(16);
  return `scrypt$${salt.toString('hex')}$${scryptSync(password, salt, 64).toString('hex')}`;
}

describe('password hashes', () => {
  it('hash at N = 2^17, r = 8, p = 1 unless configured otherwise, and name them in the hash', async () => {
    const hasher = new PasswordHasher(new AppConfig(BASE_ENV));
    expect(hasher.params).toEqual({ N: 131072, r: 8, p: 1 });
    const stored = await hasher.hash('correct horse battery staple');
    expect(stored).toMatch(/^scrypt\$131072\$8\$1\$[0-9a-f]{32}\$[0-9a-f]{128}$/);
    expect(await hasher.verify('correct horse battery staple', stored)).toBe(true);
    expect(hasher.needsRehash(stored)).toBe(false);
  });

  it('refuses a cost below the default in production: the lower ones are for tests', () => {
    expect(() => new AppConfig({ ...BASE_ENV, NODE_ENV: 'production', PASSWORD_HASH_COST: '16' })).toThrow(
      ConfigError,
    );
    expect(
      new AppConfig({ ...BASE_ENV, NODE_ENV: 'production', PASSWORD_HASH_COST: '18' }).passwordHashCost,
    ).toBe(18);
    expect(new AppConfig({ ...BASE_ENV, PASSWORD_HASH_COST: '10' }).passwordHashCost).toBe(10);
    expect(() => new AppConfig({ ...BASE_ENV, PASSWORD_HASH_COST: '9' })).toThrow(ConfigError);
  });

  it('verify the right password only', async () => {
    const stored = await hashPassword('a-long-password', CHEAP);
    expect(stored).toMatch(/^scrypt\$1024\$8\$1\$/);
    expect(await verifyPassword('a-long-password', stored)).toBe(true);
    expect(await verifyPassword('a-long-passwore', stored)).toBe(false);
    expect(await hashPassword('a-long-password', CHEAP)).not.toBe(stored);
  });

  it('verify hashes of earlier releases, which name no parameters, and ask for them to be replaced', async () => {
    const stored = earlierReleaseHash('a-long-password');
    expect(await verifyPassword('a-long-password', stored)).toBe(true);
    expect(await verifyPassword('not-the-password', stored)).toBe(false);
    expect(needsRehash(stored, scryptParams(17))).toBe(true);
    // Even where the cost matches, the format is replaced.
    expect(needsRehash(stored, scryptParams(14))).toBe(true);
  });

  it('ask for a hash made with other parameters to be replaced', async () => {
    const stored = await hashPassword('a-long-password', CHEAP);
    expect(needsRehash(stored, CHEAP)).toBe(false);
    expect(needsRehash(stored, scryptParams(11))).toBe(true);
  });

  it('refuse whatever is not a hash they made, without trying to compute it', async () => {
    const good = await hashPassword('pw-pw-pw-pw', CHEAP);
    const [, , , , salt, hash] = good.split('$');
    for (const stored of [
      '',
      'plain-text',
      `bcrypt$${salt}$${hash}`,
      `scrypt$1000$8$1$${salt}$${hash}`,
      `scrypt$2097152$8$1$${salt}$${hash}`,
      `scrypt$1024$0$1$${salt}$${hash}`,
      `scrypt$1024$8$1$${salt}$zz`,
      `scrypt$1024$8$1$$${hash}`,
      `scrypt$01024$8$1$${salt}$${hash}`,
    ]) {
      expect(await verifyPassword('pw-pw-pw-pw', stored)).toBe(false);
      expect(needsRehash(stored, CHEAP)).toBe(false);
    }
  });
});
