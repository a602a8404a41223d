import { AppConfig, ConfigError } from './app-config';

const config = (env: Record<string, string>) => new AppConfig({ SIGNING_SECRET: 's', ...env });

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
