import { DataSource } from 'typeorm';
import { createCatalogVersion } from '../admin-catalogs/catalog-helpers';
import { Actor, bootstrapAdmin, createOrganization, createUser, unique } from '../helpers/fixtures';
import { startApp, TestApp, usesMysql } from '../helpers/test-app';

/**
 * Operators write `mysql://` for any MySQL-family server. Pointed at MariaDB, the server must
 * still speak MariaDB: pins lock the catalog entry, and MySQL 8's lock syntax fails there.
 */
(usesMysql() ? describe : describe.skip)(
  'DATABASE_URL with mysql:// pointed at the test server (MySQL-family only: SQLite has no server to ask)',
  () => {
    let t: TestApp;
    let admin: Actor;
    let owner: Actor;
    let org: string;
    let serverVersion: string;
    const configured = process.env.TEST_DATABASE_URL;

    beforeAll(async () => {
      const server = new URL(configured ?? 'mariadb://root@127.0.0.1:3306/test');
      process.env.TEST_DATABASE_URL = `mysql://${server.href.slice(server.protocol.length + 2)}`;
      try {
        t = await startApp();
      } finally {
        if (configured === undefined) delete process.env.TEST_DATABASE_URL;
        else process.env.TEST_DATABASE_URL = configured;
      }
      admin = await bootstrapAdmin(t);
      owner = await createUser(t, admin);
      org = await createOrganization(owner);
      const rows: { version: string }[] = await t.app.get(DataSource).query('SELECT VERSION() AS version');
      serverVersion = rows[0].version;
    });
    afterAll(() => t.close());

    it('was given a mysql:// URL and speaks the dialect of the server it reached', () => {
      expect(t.config.databaseUrl).toMatch(/^mysql:\/\//);
      const ds = t.app.get(DataSource);
      expect(ds.options.type).toBe(/mariadb/i.test(serverVersion) ? 'mariadb' : 'mysql');
    });

    it('pins a workspace to an engine catalog version, on create and on update', async () => {
      await createCatalogVersion(admin, 'engine-versions', '1.9.0');
      await createCatalogVersion(admin, 'engine-versions', '1.9.1');
      const name = unique('ws');
      const created = await owner.api
        .post(`/api/v2/organizations/${org}/workspaces`, {
          data: { type: 'workspaces', attributes: { name, 'engine-version': '1.9.0' } },
        })
        .expect(201);
      expect(created.body.data).toMatchObject({
        type: 'workspaces',
        attributes: { name, 'engine-version': '1.9.0' },
      });
      const updated = await owner.api
        .patch(`/api/v2/workspaces/${created.body.data.id}`, {
          data: { type: 'workspaces', attributes: { 'engine-version': '1.9.1' } },
        })
        .expect(200);
      expect(updated.body.data.attributes['engine-version']).toBe('1.9.1');
    });

    it('pins a framework_b policy set to a policy-engine catalog version', async () => {
      const id = await createCatalogVersion(admin, 'policy-engine-versions', '0.70.0');
      const name = unique('opa');
      const created = await owner.api
        .post(`/api/v2/organizations/${org}/policy-sets`, {
          data: {
            type: 'policy-sets',
            attributes: { name, kind: 'framework_b', 'policy-tool-version': '0.70.0' },
          },
        })
        .expect(201);
      expect(created.body.data.attributes).toMatchObject({
        name,
        kind: 'framework_b',
        'policy-tool-version': '0.70.0',
      });
      const shown = await admin.api.get(`/api/v2/admin/policy-engine-versions/${id}`).expect(200);
      expect(shown.body.data.attributes).toMatchObject({ version: '0.70.0', usage: 1 });
    });
  },
);
