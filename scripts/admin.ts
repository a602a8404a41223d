/**
 * Operator commands that run against the configured database without the HTTP server:
 *   npm run admin -- catalog:import engine-versions versions.json
 * The environment is the server's (DATABASE_URL, DATA_DIR, ...).
 */
import 'reflect-metadata';
import { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { readFile } from 'node:fs/promises';
import { DataSource } from 'typeorm';
import { CatalogImportError, CatalogImportService } from '../src/admin-catalogs/catalog-import.service';
import { CATALOGS, isCatalog } from '../src/admin-catalogs/catalogs';
import { AppModule } from '../src/app.module';
import { AppConfig } from '../src/config/app-config';
import { openDataSourceOptions } from '../src/persistence/data-source-options';

const USAGE = [
  'usage: npm run admin -- <command> [arguments]',
  '',
  'commands:',
  `  catalog:import <${CATALOGS.join('|')}> <file.json>`,
  '      Adds or updates catalog versions from a JSON array of objects with version, url, sha and',
  '      optionally official, enabled, beta, deprecated, deprecated-reason. Versions are matched by',
  '      version, so importing the same file twice changes nothing. Invalid files change nothing.',
].join('\n');

class UsageError extends Error {}

interface Output {
  out: (line: string) => void;
  err: (line: string) => void;
}

/** Brings the schema up to date as the server does at start, before any module touches it. */
async function migrate(config: AppConfig): Promise<void> {
  if (!config.migrationsRun) return;
  const ds = await new DataSource(await openDataSourceOptions(config)).initialize();
  try {
    await ds.runMigrations({ transaction: 'each' });
  } finally {
    await ds.destroy();
  }
}

/** Boots the application without HTTP, runs `work`, shuts down. */
async function withApp<T>(work: (app: INestApplicationContext) => Promise<T>): Promise<T> {
  await migrate(new AppConfig());
  const app = await NestFactory.createApplicationContext(AppModule, { logger: ['error', 'warn'] });
  try {
    return await work(app);
  } finally {
    await app.close();
  }
}

async function readJson(file: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    throw new Error(`cannot read ${file}: ${(err as Error).message}`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    throw new Error(`${file} is not valid JSON: ${(err as Error).message}`);
  }
}

async function catalogImport(args: string[], io: Output): Promise<void> {
  const [catalog, file, ...extra] = args;
  if (!catalog || !file || extra.length) throw new UsageError('catalog:import takes a catalog and a file');
  if (!isCatalog(catalog)) {
    throw new UsageError(`unknown catalog "${catalog}"; use ${CATALOGS.join(' or ')}`);
  }
  const document = await readJson(file);
  const result = await withApp((app) => app.get(CatalogImportService).import(catalog, document));
  io.out(`${catalog}: ${result.created} created, ${result.updated} updated, ${result.unchanged} unchanged`);
}

/** Runs one command; the exit status is 0 on success, 1 on failure, 2 on a usage error. */
export async function main(argv: string[], io: Output): Promise<number> {
  const [command, ...args] = argv;
  try {
    switch (command) {
      case 'catalog:import':
        await catalogImport(args, io);
        return 0;
      default:
        throw new UsageError(command ? `unknown command "${command}"` : 'no command given');
    }
  } catch (err) {
    if (err instanceof UsageError) {
      io.err(`${err.message}\n\n${USAGE}`);
      return 2;
    }
    if (err instanceof CatalogImportError) {
      io.err(`nothing was imported:\n${err.problems.map((p) => `  ${p}`).join('\n')}`);
      return 1;
    }
    io.err(`failed: ${(err as Error).message}`);
    return 1;
  }
}

if (require.main === module) {
  void main(process.argv.slice(2), {
    out: (line) => process.stdout.write(`${line}\n`),
    err: (line) => process.stderr.write(`${line}\n`),
  }).then((code) => {
    process.exitCode = code;
  });
}
