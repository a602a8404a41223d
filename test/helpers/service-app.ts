import { Type } from '@nestjs/common';
import { Test, TestingModule } from '@nestjs/testing';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { AppModule } from '../../src/app.module';
import { guardTransactions } from '../../src/common/sql/transaction-scope';
import { AppConfig } from '../../src/config/app-config';
import { createMigratedMysqlDatabase, ProviderOverride, usesMysql } from './test-app';

/**
 * The real AppModule without HTTP: every service wired as in production, on a fresh database
 * (SQLite in memory, or a MySQL database of its own when TEST_DB=mysql) with the migrations run.
 * For service specs (`*.service-spec.ts`) that test rules through the services themselves, in
 * milliseconds per case, where an e2e suite would pay for HTTP, tokens and serializers.
 */
export interface ServiceApp {
  module: TestingModule;
  ds: DataSource;
  config: AppConfig;
  /** A provider of any module (services are looked up across the whole graph). */
  get<T>(type: Type<T>): T;
  close(): Promise<void>;
}

export async function startServices(
  env: Record<string, string> = {},
  overrides: ProviderOverride[] = [],
): Promise<ServiceApp> {
  const dataDir = mkdtempSync(join(tmpdir(), 'plinth-service-'));
  const database = usesMysql() ? await createMigratedMysqlDatabase() : undefined;
  const config = new AppConfig({
    DATABASE_URL: database?.url ?? 'sqlite::memory:',
    DATA_DIR: dataDir,
    SIGNING_SECRET: 'service-spec-signing-secret-of-at-least-32-bytes',
    LOG_LEVEL: 'silent',
    DB_TRANSACTION_GUARD: 'true',
    ...env,
  });
  const builder = Test.createTestingModule({ imports: [AppModule] })
    .overrideProvider(AppConfig)
    .useValue(config);
  for (const o of overrides) builder.overrideProvider(o.provide).useValue(o.useValue);
  const module = await builder.compile();
  module.useLogger(false);
  const ds = module.get(DataSource);
  if (config.dbTransactionGuard) guardTransactions();
  await ds.runMigrations({ transaction: 'each' });
  await module.init();
  return {
    module,
    ds,
    config,
    get: <T>(type: Type<T>) => module.get(type, { strict: false }),
    close: async () => {
      await module.close();
      rmSync(dataDir, { recursive: true, force: true });
      await database?.drop();
    },
  };
}
