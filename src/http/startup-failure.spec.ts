import { ConfigError } from '../config/app-config';
import { startupFailureMessage } from './startup-failure';

describe('startupFailureMessage', () => {
  it('says the configuration is invalid, quoting the check that failed, as one sentence', () => {
    expect(startupFailureMessage(new ConfigError('S3_BUCKET is required when STORAGE_DRIVER=s3'))).toBe(
      'Plinth did not start because its configuration is invalid: S3_BUCKET is required when STORAGE_DRIVER=s3.',
    );
  });

  it.each([
    [{ code: 'ECONNREFUSED' }, 'the database could not be reached (ECONNREFUSED); check DATABASE_URL'],
    [{ code: 'ENOTFOUND' }, 'the database could not be reached (ENOTFOUND); check DATABASE_URL'],
    [
      { code: 'ER_ACCESS_DENIED_ERROR' },
      'the database refused the user or password in DATABASE_URL (or DATABASE_PASSWORD).',
    ],
    [{ code: 'ER_BAD_DB_ERROR' }, 'the database named in DATABASE_URL does not exist; create it first.'],
  ])('names the database problem %o', (props, text) => {
    const message = startupFailureMessage(Object.assign(new Error('driver text'), props));
    expect(message).toContain(`Plinth did not start because ${text}`);
    expect(message).toMatch(/\.$/);
  });

  it('quotes any other error', () => {
    expect(startupFailureMessage(new Error("EACCES: permission denied, mkdir '/srv'"))).toBe(
      "Plinth did not start: EACCES: permission denied, mkdir '/srv'.",
    );
  });
});
