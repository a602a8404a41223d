/*
 * Jest's global setup and teardown for the MySQL/MariaDB runs: names the run, so that its workers
 * share one migrated schema template (mysql-template.ts), and drops that template at the end.
 * Plain JavaScript: jest loads it before any transform.
 */
const { randomBytes } = require('node:crypto');

function serverUrl() {
  const url = new URL(process.env.TEST_DATABASE_URL || 'mariadb://root@127.0.0.1:3306/test');
  url.pathname = '';
  url.protocol = 'mysql:';
  return url.toString().replace(/\/$/, '');
}

module.exports.setup = async function setup() {
  if (process.env.TEST_DB !== 'mysql' || process.env.PLINTH_TEST_RUN) return;
  process.env.PLINTH_TEST_RUN = `${process.pid}_${randomBytes(3).toString('hex')}`;
};

module.exports.teardown = async function teardown() {
  const run = process.env.PLINTH_TEST_RUN;
  if (process.env.TEST_DB !== 'mysql' || !run) return;
  const { createConnection } = require('mysql2/promise');
  const conn = await createConnection(serverUrl());
  try {
    const [rows] = await conn.query(
      'SELECT schema_name AS db FROM information_schema.schemata WHERE schema_name LIKE ?',
      [`plinth_e2e_tpl_${run}_%`],
    );
    for (const { db } of rows) await conn.query(`DROP DATABASE IF EXISTS \`${db}\``);
  } finally {
    await conn.end();
  }
};
