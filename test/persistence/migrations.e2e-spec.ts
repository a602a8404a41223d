import { DataSource } from 'typeorm';
import { startApp, TestApp } from '../helpers/test-app';

describe('migrations', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startApp();
  });
  afterAll(() => t.close());

  it('leave nothing for the entities to change on this dialect', async () => {
    const ds = t.app.get(DataSource);
    const pending = await ds.driver.createSchemaBuilder().log();
    expect(pending.upQueries.map((q) => q.query)).toEqual([]);
  });

  it('are all applied at start', async () => {
    const ds = t.app.get(DataSource);
    expect(await ds.showMigrations()).toBe(false);
  });
});
