import { createConnection } from 'mysql2/promise';
import { bootstrapAdmin } from '../helpers/fixtures';
import { createMysqlDatabase, startApp, TestApp, usesMysql } from '../helpers/test-app';

/**
 * A password with the characters that break a URL (`@ : / # ? % &`, a space, quotes) reaches
 * the server intact, whether it is percent-encoded in DATABASE_URL or given raw in
 * DATABASE_PASSWORD beside a URL without one (what docker/docker-compose.yml does).
 */
(usesMysql() ? describe : describe.skip)(
  'database credentials (MySQL family only: SQLite has no login)',
  () => {
    const PASSWORD = `p@ss:w/rd#?%&+ "q'${Math.random().toString(36).slice(2, 8)}`;
    const user = `plinth_cred_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
    const server = new URL(process.env.TEST_DATABASE_URL ?? 'mariadb://root@127.0.0.1:3306/test');
    const databases: { url: string; drop(): Promise<void> }[] = [];

    async function asRoot(statements: string[]): Promise<void> {
      const c = await createConnection({
        host: server.hostname,
        port: Number(server.port || 3306),
        user: decodeURIComponent(server.username),
        password: decodeURIComponent(server.password) || undefined,
      });
      try {
        for (const sql of statements) await c.query(sql);
      } finally {
        await c.end();
      }
    }

    beforeAll(async () => {
      const quoted = PASSWORD.replace(/\\/g, '\\\\').replace(/'/g, "\\'");
      await asRoot([`CREATE USER '${user}'@'%' IDENTIFIED BY '${quoted}'`]);
    });
    afterAll(async () => {
      await asRoot([`DROP USER IF EXISTS '${user}'@'%'`]);
      for (const d of databases) await d.drop();
    });

    /** A database of its own that only the test user (and root) may use; its URL without password. */
    async function databaseForUser(): Promise<{ url: string; name: string }> {
      const database = await createMysqlDatabase();
      databases.push(database);
      const name = new URL(database.url).pathname.slice(1);
      await asRoot([`GRANT ALL ON \`${name}\`.* TO '${user}'@'%'`]);
      return { url: `${server.protocol}//${user}@${server.host}/${name}`, name };
    }

    async function serves(env: Record<string, string>, name: string): Promise<void> {
      let t: TestApp | undefined;
      try {
        t = await startApp(env);
        expect(t.config.mysql).toMatchObject({ user, password: PASSWORD, database: name });
        // The first administrator is written through the pool that logged in with the password.
        const admin = await bootstrapAdmin(t);
        const me = await admin.api.get('/api/v2/account/details').expect(200);
        expect(me.body.data.attributes['is-site-admin']).toBe(true);
      } finally {
        await t?.close();
      }
    }

    it('logs in with the password given apart in DATABASE_PASSWORD', async () => {
      const { url, name } = await databaseForUser();
      await serves({ DATABASE_URL: url, DATABASE_PASSWORD: PASSWORD }, name);
    });

    it('logs in with the password percent-encoded in DATABASE_URL', async () => {
      const { url, name } = await databaseForUser();
      const encoded = url.replace(`${user}@`, `${user}:${encodeURIComponent(PASSWORD)}@`);
      await serves({ DATABASE_URL: encoded }, name);
    });
  },
);
