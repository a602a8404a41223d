import { DataSourceOptions } from 'typeorm';
import { flavourOfVersion, withServerFlavour } from './server-flavour';

describe('flavourOfVersion', () => {
  it.each([
    ['10.11.6-MariaDB-0+deb12u1', 'mariadb'],
    ['11.4.2-MariaDB-ubu2404', 'mariadb'],
    ['5.5.5-10.6.16-MariaDB-log', 'mariadb'],
    ['8.0.36', 'mysql'],
    ['8.4.0-0ubuntu0.24.04.1', 'mysql'],
    ['5.7.44-log', 'mysql'],
  ])('reads %s as %s', (version, flavour) => {
    expect(flavourOfVersion(version)).toBe(flavour);
  });
});

describe('withServerFlavour', () => {
  it('leaves SQLite options as they are, without connecting anywhere', async () => {
    const options: DataSourceOptions = { type: 'better-sqlite3', database: ':memory:' };
    await expect(withServerFlavour(options)).resolves.toBe(options);
  });
});
