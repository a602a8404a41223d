import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AppConfig, ConfigError } from './app-config';

const SECRET = 'unit-test-signing-secret-of-32-bytes';
const config = (env: Record<string, string>) => new AppConfig({ SIGNING_SECRET: SECRET, ...env });

describe('AppConfig operations settings', () => {
  it('runs one worker per core in production and one in development unless WEB_CONCURRENCY says', () => {
    expect(config({ NODE_ENV: 'production' }).workerCount(8)).toBe(8);
    expect(config({}).workerCount(8)).toBe(1);
    expect(config({ NODE_ENV: 'production', WEB_CONCURRENCY: '3' }).workerCount(8)).toBe(3);
    expect(config({ WEB_CONCURRENCY: '2' }).workerCount(8)).toBe(2);
  });

  it('reads TRUST_PROXY as off, on, a hop count or an address list', () => {
    expect(config({}).trustProxy).toBe(false);
    expect(config({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(config({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(config({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(config({ TRUST_PROXY: 'loopback, 10.0.0.0/8' }).trustProxy).toBe('loopback, 10.0.0.0/8');
  });

  it('serves HTTPS with TLS_CERT_FILE and TLS_KEY_FILE together, resolved from the working directory', () => {
    expect(config({}).tls).toBeUndefined();
    expect(config({ TLS_CERT_FILE: '/etc/plinth/tls.crt', TLS_KEY_FILE: 'tls.key' }).tls).toEqual({
      certFile: '/etc/plinth/tls.crt',
      keyFile: join(process.cwd(), 'tls.key'),
    });
    expect(() => config({ TLS_CERT_FILE: '/etc/plinth/tls.crt' })).toThrow(
      new ConfigError('TLS_KEY_FILE is required when TLS_CERT_FILE is set'),
    );
    expect(() => config({ TLS_KEY_FILE: '/etc/plinth/tls.key' })).toThrow(
      new ConfigError('TLS_CERT_FILE is required when TLS_KEY_FILE is set'),
    );
  });

  it('keeps run logs and plan JSON for ever unless a number of days is set, and refuses anything else', () => {
    expect(config({}).runLogRetentionDays).toBeNull();
    expect(
      config({ RUN_LOG_RETENTION_DAYS: '', PLAN_JSON_RETENTION_DAYS: '' }).planJsonRetentionDays,
    ).toBeNull();
    expect(config({ RUN_LOG_RETENTION_DAYS: '30' }).runLogRetentionDays).toBe(30);
    expect(config({ PLAN_JSON_RETENTION_DAYS: '0' }).planJsonRetentionDays).toBe(0);
    expect(() => config({ RUN_LOG_RETENTION_DAYS: '-1' })).toThrow(
      new ConfigError('RUN_LOG_RETENTION_DAYS must be a whole number, got "-1"'),
    );
    expect(() => config({ PLAN_JSON_RETENTION_DAYS: '7d' })).toThrow(
      new ConfigError('PLAN_JSON_RETENTION_DAYS must be a whole number, got "7d"'),
    );
  });

  it('refuses a rate limit that is not a whole number', () => {
    expect(() => config({ RATE_LIMIT_PER_SECOND: 'fast' })).toThrow(ConfigError);
    expect(config({}).rateLimitPerSecond).toBe(30);
  });

  it('reads the policy archive inspection caps, with their defaults, and refuses nonsense', () => {
    expect(config({})).toMatchObject({
      maxPolicyArchiveExpandedBytes: 256 * 1024 * 1024,
      maxPolicyArchiveEntries: 10_000,
      policyArchiveInspectionTimeoutMs: 30_000,
    });
    expect(
      config({
        MAX_POLICY_ARCHIVE_EXPANDED_BYTES: '1000',
        MAX_POLICY_ARCHIVE_ENTRIES: '5',
        POLICY_ARCHIVE_INSPECTION_TIMEOUT_MS: '250',
      }),
    ).toMatchObject({
      maxPolicyArchiveExpandedBytes: 1000,
      maxPolicyArchiveEntries: 5,
      policyArchiveInspectionTimeoutMs: 250,
    });
    expect(() => config({ MAX_POLICY_ARCHIVE_EXPANDED_BYTES: '256MiB' })).toThrow(
      'MAX_POLICY_ARCHIVE_EXPANDED_BYTES must be a whole number, got "256MiB"',
    );
    expect(() => config({ MAX_POLICY_ARCHIVE_ENTRIES: '0' })).toThrow(ConfigError);
    expect(() => config({ POLICY_ARCHIVE_INSPECTION_TIMEOUT_MS: '0' })).toThrow(ConfigError);
  });
});

describe('AppConfig database URL', () => {
  it('takes MySQL and MariaDB URLs as the mysql dialect and sqlite: as SQLite', () => {
    expect(config({ DATABASE_URL: 'mysql://u:p@db:3306/plinth' }).dialect).toBe('mysql');
    expect(config({ DATABASE_URL: 'mariadb://u:p@db:3306/plinth' }).dialect).toBe('mysql');
    expect(config({ DATABASE_URL: 'sqlite:/var/lib/plinth/plinth.sqlite' }).dialect).toBe('sqlite');
  });

  it.each(['postgres://u@db/plinth', 'mysql2://u@db/plinth', 'maria://u@db/plinth'])(
    'refuses %s naming every scheme it takes',
    (url) => {
      expect(() => config({ DATABASE_URL: url })).toThrow(
        new ConfigError('DATABASE_URL must start with mysql://, mariadb:// or sqlite:'),
      );
    },
  );
});

describe('AppConfig signing secret', () => {
  it('refuses a SIGNING_SECRET shorter than 32 bytes, saying how to make a good one', () => {
    expect(() => config({ SIGNING_SECRET: 'x'.repeat(31) })).toThrow(
      new ConfigError(
        'SIGNING_SECRET must be at least 32 bytes long, got 31; generate one with `openssl rand -hex 32`',
      ),
    );
    expect(config({ SIGNING_SECRET: 'x'.repeat(32) }).signingSecret).toBe('x'.repeat(32));
  });

  it('counts bytes, not characters', () => {
    expect(() => config({ SIGNING_SECRET: 'é'.repeat(15) })).toThrow(/got 30;/);
    expect(config({ SIGNING_SECRET: 'é'.repeat(16) }).signingSecret).toHaveLength(16);
  });

  it('refuses a short secret kept in the data directory as well', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'plinth-config-'));
    try {
      writeFileSync(join(dataDir, 'signing-secret'), 'short\n');
      expect(() => new AppConfig({ DATA_DIR: dataDir })).toThrow(
        /^the signing secret in .*signing-secret must be at least 32 bytes long, got 5;/,
      );
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
