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
});
