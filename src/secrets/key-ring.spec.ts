import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AppConfig, ConfigError } from '../config/app-config';
import { loadKeyRing, masterKeyId } from './key-ring';

describe('the key ring', () => {
  let dir: string;
  const config = (env: Record<string, string> = {}) =>
    new AppConfig({ SIGNING_SECRET: 'key-ring-unit-test-signing-secret-0123', DATA_DIR: dir, ...env });

  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'plinth-keys-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('generates a key into DATA_DIR on first start, owner-only, and reads the same one afterwards', () => {
    const first = loadKeyRing(config());
    const file = join(dir, 'encryption-key');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(Buffer.from(readFileSync(file, 'utf8').trim(), 'base64')).toHaveLength(32);
    expect(loadKeyRing(config()).current).toEqual(first.current);
  });

  it('takes ENCRYPTION_KEY or ENCRYPTION_KEY_FILE instead, and nothing is written', () => {
    const key = randomBytes(32);
    expect(loadKeyRing(config({ ENCRYPTION_KEY: key.toString('base64') })).current).toEqual({
      id: masterKeyId(key),
      key,
    });
    const file = join(dir, 'mounted-key');
    writeFileSync(file, `${key.toString('base64url')}\n`);
    expect(loadKeyRing(config({ ENCRYPTION_KEY_FILE: file })).current.key).toEqual(key);
    expect(() => statSync(join(dir, 'encryption-key'))).toThrow();
  });

  it('holds the extra keys for unwrapping, the current one first', () => {
    const [current, old] = [randomBytes(32), randomBytes(32)];
    const ring = loadKeyRing(
      config({
        ENCRYPTION_KEY: current.toString('base64'),
        ENCRYPTION_EXTRA_KEYS: ` ${old.toString('base64')} ,`,
      }),
    );
    expect(ring.ids()).toEqual([masterKeyId(current), masterKeyId(old)]);
    expect(ring.find(masterKeyId(old))?.key).toEqual(old);
  });

  it('refuses keys that are not 32 bytes of base64, or both sources at once, naming the variable', () => {
    expect(() => config({ ENCRYPTION_KEY: 'c2hvcnQ=' })).toThrow(
      new ConfigError(
        'ENCRYPTION_KEY must be 32 bytes in base64, got 5 bytes; generate one with `openssl rand -base64 32`',
      ),
    );
    expect(() => config({ ENCRYPTION_KEY: `${'!'.repeat(43)}=` })).toThrow(/got 0 bytes/);
    expect(() => config({ ENCRYPTION_EXTRA_KEYS: `${randomBytes(32).toString('base64')},abc` })).toThrow(
      /^ENCRYPTION_EXTRA_KEYS \(key 2\) must be 32 bytes/,
    );
    expect(() =>
      config({ ENCRYPTION_KEY: randomBytes(32).toString('base64'), ENCRYPTION_KEY_FILE: '/x' }),
    ).toThrow('set ENCRYPTION_KEY or ENCRYPTION_KEY_FILE, not both');
    expect(() => loadKeyRing(config({ ENCRYPTION_KEY_FILE: join(dir, 'missing') }))).toThrow(
      /^ENCRYPTION_KEY_FILE: cannot read .*missing \(ENOENT\)$/,
    );
  });
});
