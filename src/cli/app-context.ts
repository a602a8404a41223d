import { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { AppConfig } from '../config/app-config';
import { openDataSource } from '../persistence/data-source-options';
import { CliContext } from './io';

/** Brings the schema up to date as the server does at start, before any module touches it. */
async function migrate(config: AppConfig): Promise<void> {
  if (!config.migrationsRun) return;
  const ds = await (await openDataSource(config)).initialize();
  try {
    await ds.runMigrations({ transaction: 'each' });
  } finally {
    await ds.destroy();
  }
}

/** Boots the application without HTTP, runs `work`, shuts down. */
export async function withApp<T>(
  context: CliContext,
  work: (app: INestApplicationContext) => Promise<T>,
): Promise<T> {
  await migrate(new AppConfig());
  const app = await NestFactory.createApplicationContext(await context.appModule(), {
    logger: ['error', 'warn'],
  });
  try {
    return await work(app);
  } finally {
    await app.close();
  }
}
