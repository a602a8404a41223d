import { NestExpressApplication } from '@nestjs/platform-express';
import { Test } from '@nestjs/testing';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Connection } from 'mysql2/promise';
import request from 'supertest';
import { AppModule } from '../../src/app.module';
import { configureApp } from '../../src/http/pipeline';
import { JsonApiExpressAdapter } from '../../src/http/jsonapi.adapter';
import { AppConfig } from '../../src/config/app-config';
import { ResponseRecorder } from './response-recorder';
import { SchemaCopy, templateCopy } from './mysql-template';

export const JSONAPI = 'application/vnd.api+json';

export const usesMysql = (): boolean => process.env.TEST_DB === 'mysql';

export interface TestApp {
  app: NestExpressApplication;
  /** `http://127.0.0.1:<port>`: the app listens on a real port so absolute links work. */
  origin: string;
  config: AppConfig;
  close(): Promise<void>;
}

function mysqlServerUrl(): string {
  const url = new URL(process.env.TEST_DATABASE_URL ?? 'mariadb://root@127.0.0.1:3306/test');
  url.pathname = '';
  return url.toString().replace(/\/$/, '');
}

async function mysqlAdmin<T>(work: (c: Connection) => Promise<T>): Promise<T> {
  // Loaded only by the MySQL runs: the SQLite suites never load mysql2.
  const { createConnection } = await import('mysql2/promise');
  const conn = await createConnection(mysqlServerUrl().replace(/^mariadb:/, 'mysql:'));
  try {
    return await work(conn);
  } finally {
    await conn.end();
  }
}

/** A MySQL database of its own for one test (created here), its URL and how to drop it. */
export async function createMysqlDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `plinth_e2e_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  await mysqlAdmin((c) =>
    c.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`),
  );
  return {
    url: `${mysqlServerUrl()}/${name}`,
    drop: async () => {
      await mysqlAdmin((c) => c.query(`DROP DATABASE IF EXISTS \`${name}\``));
    },
  };
}

let copy: Promise<SchemaCopy | undefined> | undefined;

/**
 * A MySQL database of its own with the migrations already applied, copied from the run's
 * template (mysql-template.ts); an empty one, which the app migrates, outside a run that made one.
 */
export async function createMigratedMysqlDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const database = await createMysqlDatabase();
  copy ??= mysqlAdmin((c) => templateCopy(c, mysqlServerUrl()));
  const statements = (await copy)?.statements;
  if (!statements) return database;
  const { createConnection } = await import('mysql2/promise');
  const conn = await createConnection({
    uri: database.url.replace(/^mariadb:/, 'mysql:'),
    multipleStatements: true,
  });
  try {
    await conn.query(statements.join(';\n'));
  } finally {
    await conn.end();
  }
  return database;
}

/** A provider replaced for one test app, e.g. `{ provide: LOG_DESTINATION, useValue: stream }`. */
export interface ProviderOverride {
  provide: unknown;
  useValue: unknown;
}

/**
 * Boots the real AppModule on a fresh database: SQLite in memory by default, or a MySQL
 * database of its own (created here, dropped on close) when TEST_DB=mysql.
 */
export async function startApp(
  env: Record<string, string> = {},
  overrides: ProviderOverride[] = [],
): Promise<TestApp> {
  const dataDir = mkdtempSync(join(tmpdir(), 'plinth-e2e-'));
  const database = usesMysql() ? await createMigratedMysqlDatabase() : undefined;
  const databaseUrl = database?.url ?? 'sqlite::memory:';
  const config = new AppConfig({
    DATABASE_URL: databaseUrl,
    DATA_DIR: dataDir,
    SIGNING_SECRET: 'e2e-signing-secret-of-at-least-32-bytes',
    LOG_LEVEL: 'silent',
    RATE_LIMIT_PER_SECOND: '0',
    // Every suite fails a request that would wait for a second connection inside its transaction.
    DB_TRANSACTION_GUARD: 'true',
    // Password hashes at 2^10 instead of 2^17: suites create hundreds of users.
    PASSWORD_HASH_COST: '10',
    ...env,
  });
  const builder = Test.createTestingModule({ imports: [AppModule] })
    .overrideProvider(AppConfig)
    .useValue(config);
  for (const o of overrides) builder.overrideProvider(o.provide).useValue(o.useValue);
  const moduleRef = await builder.compile();
  const app = moduleRef.createNestApplication<NestExpressApplication>(new JsonApiExpressAdapter(), {
    bodyParser: false,
    logger: false,
  });
  // Every JSON answer of the suite is checked against the OpenAPI document when it closes.
  const recorder = process.env.VALIDATE_RESPONSES === '0' ? undefined : new ResponseRecorder();
  if (recorder) app.use(recorder.middleware());
  await configureApp(app);
  await app.listen(0, '127.0.0.1');
  const address = app.getHttpServer().address() as { port: number };
  return {
    app,
    origin: `http://127.0.0.1:${address.port}`,
    config,
    close: async () => {
      const problems = recorder?.problems(app) ?? [];
      await app.close();
      rmSync(dataDir, { recursive: true, force: true });
      await database?.drop();
      if (problems.length) {
        throw new Error(`answers that do not match the OpenAPI document:\n${problems.join('\n')}`);
      }
    },
  };
}

/** A supertest client for the app, with optional bearer token and JSON:API content type on bodies. */
export function client(t: Pick<TestApp, 'origin'>, token?: string) {
  const withAuth = (req: request.Test) => (token ? req.set('Authorization', `Bearer ${token}`) : req);
  const agent = request(t.origin);
  return {
    get: (path: string) => withAuth(agent.get(path)),
    head: (path: string) => withAuth(agent.head(path)),
    delete: (path: string, body?: unknown) => {
      const req = withAuth(agent.delete(path));
      return body === undefined ? req : req.set('Content-Type', JSONAPI).send(JSON.stringify(body));
    },
    post: (path: string, body?: unknown) => {
      const req = withAuth(agent.post(path));
      return body === undefined ? req : req.set('Content-Type', JSONAPI).send(JSON.stringify(body));
    },
    patch: (path: string, body: unknown) =>
      withAuth(agent.patch(path)).set('Content-Type', JSONAPI).send(JSON.stringify(body)),
    put: (path: string) => withAuth(agent.put(path)),
  };
}

export type Client = ReturnType<typeof client>;
