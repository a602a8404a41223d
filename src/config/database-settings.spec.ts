import { AppConfig, ConfigError } from './app-config';
import { databaseSettings, DatabaseSettingError, sqliteRuntimeProblem } from './database-settings';

const settings = (env: Record<string, string>) => databaseSettings(env, '/srv/plinth');

describe('databaseSettings', () => {
  it('defaults to SQLite under DATA_DIR and reads sqlite: URLs as a file', () => {
    expect(settings({})).toEqual({
      url: 'sqlite:/srv/plinth/plinth.sqlite',
      dialect: 'sqlite',
      sqlitePath: '/srv/plinth/plinth.sqlite',
    });
    expect(settings({ DATABASE_URL: 'sqlite::memory:' }).sqlitePath).toBe(':memory:');
    expect(settings({ DATABASE_URL: 'sqlite:///var/db.sqlite' }).sqlitePath).toBe('/var/db.sqlite');
  });

  it('splits a MySQL or MariaDB URL into its parts, the port defaulting to 3306', () => {
    expect(settings({ DATABASE_URL: 'mysql://plinth:secret@db.internal:3307/plinth' }).mysql).toEqual({
      scheme: 'mysql',
      host: 'db.internal',
      port: 3307,
      user: 'plinth',
      password: 'secret',
      database: 'plinth',
    });
    expect(settings({ DATABASE_URL: 'mariadb://root@127.0.0.1/test' }).mysql).toEqual({
      scheme: 'mariadb',
      host: '127.0.0.1',
      port: 3306,
      user: 'root',
      password: undefined,
      database: 'test',
    });
    expect(settings({ DATABASE_URL: 'mysql://u@[::1]:3306/db' }).mysql?.host).toBe('::1');
  });

  it('decodes a percent-encoded password and user name', () => {
    const password = 'p@ss:w/rd#?%&+ é';
    const url = `mysql://${encodeURIComponent('us@r')}:${encodeURIComponent(password)}@db/plinth`;
    expect(settings({ DATABASE_URL: url }).mysql).toMatchObject({ user: 'us@r', password, host: 'db' });
  });

  it('takes the password from DATABASE_PASSWORD as it is, with no encoding', () => {
    const password = 'p@ss:w/rd#?%&+ é';
    expect(
      settings({ DATABASE_URL: 'mysql://plinth@mysql:3306/plinth', DATABASE_PASSWORD: password }).mysql,
    ).toMatchObject({ user: 'plinth', password, host: 'mysql', database: 'plinth' });
  });

  it.each([
    ['mysql://u:pa/ss@db/plinth', 'DATABASE_URL is not a valid URL'],
    ['mysql://u:p#ss@db/plinth', 'DATABASE_URL is not a valid URL'],
    ['mysql://u:100%@db/plinth', 'DATABASE_URL has a badly percent-encoded password'],
    ['mysql://u@db', 'DATABASE_URL must name a host and a database'],
    ['mysql://u@db/a/b', 'DATABASE_URL must name a host and a database'],
    ['mysql://u@db/plinth?ssl=true', 'DATABASE_URL must not have a query or fragment'],
    ['mysql://db/plinth', 'DATABASE_URL must name a user'],
  ])('refuses %s, saying what to do', (url, start) => {
    let error: unknown;
    try {
      settings({ DATABASE_URL: url });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(DatabaseSettingError);
    expect((error as Error).message.startsWith(start)).toBe(true);
    // Never the password itself in the message (it reaches the start-up log).
    expect((error as Error).message).not.toMatch(/pa\/ss|p#ss|100%/);
  });

  it('refuses a password given twice, and DATABASE_PASSWORD beside SQLite', () => {
    expect(() => settings({ DATABASE_URL: 'mysql://u:a@db/p', DATABASE_PASSWORD: 'b' })).toThrow(
      'DATABASE_PASSWORD is set and DATABASE_URL has a password too: give it in one place only',
    );
    expect(() => settings({ DATABASE_PASSWORD: 'b' })).toThrow(
      'DATABASE_PASSWORD is only for a mysql:// or mariadb:// DATABASE_URL',
    );
  });

  it('reaches AppConfig as a ConfigError naming the variable', () => {
    const secret = 'unit-test-signing-secret-of-32-bytes';
    expect(() => new AppConfig({ SIGNING_SECRET: secret, DATABASE_URL: 'mysql://db/plinth' })).toThrow(
      new ConfigError('DATABASE_URL must name a user (mysql://user@host/db)'),
    );
    const config = new AppConfig({
      SIGNING_SECRET: secret,
      DATABASE_URL: 'mariadb://plinth@db/plinth',
      DATABASE_PASSWORD: 's3cret',
    });
    expect(config.dialect).toBe('mysql');
    expect(config.mysql).toEqual(expect.objectContaining({ scheme: 'mariadb', password: 's3cret' }));
    expect(config.sqlitePath).toBe('');
  });
});

describe('sqliteRuntimeProblem', () => {
  it.each([
    ['20.20.2', '12.11.1'],
    ['22.23.3', '12.11.1'],
    ['24.18.1', '12.11.1'],
    ['24.21.0', '13.2.0'],
    ['26.10.0', '13.0.3'],
  ])('lets SQLite run on Node %s with better-sqlite3 %s', (node, sqliteDriver) => {
    expect(sqliteRuntimeProblem({ node, sqliteDriver })).toBeUndefined();
  });

  it.each([
    ['24.19.0', '12.11.1'],
    ['24.21.0', '12.11.1'],
    ['26.10.0', '11.10.0'],
  ])('refuses SQLite on Node %s with better-sqlite3 %s, saying what works', (node, sqliteDriver) => {
    expect(sqliteRuntimeProblem({ node, sqliteDriver })).toBe(
      `the embedded SQLite database cannot run on Node.js ${node} with better-sqlite3 ${sqliteDriver} ` +
        '(the process would abort at its first idle garbage collection): use Node.js 22 (or 20.19+), ' +
        'or a mysql:// or mariadb:// DATABASE_URL',
    );
  });

  it('is checked for SQLite only: MySQL and MariaDB never load the driver', () => {
    const runtime = () => ({ node: '24.21.0', sqliteDriver: '12.11.1' });
    expect(() => databaseSettings({}, '/srv', runtime)).toThrow(DatabaseSettingError);
    expect(databaseSettings({ DATABASE_URL: 'mysql://u@db/p' }, '/srv', runtime).dialect).toBe('mysql');
  });
});
