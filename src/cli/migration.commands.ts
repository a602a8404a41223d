import { DataSource, Migration, MigrationExecutor } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { openDataSource } from '../persistence/data-source-options';
import { Output, UsageError } from './io';

/**
 * The schema commands, on the database the server's environment names (DATABASE_URL, or its parts).
 * They load the migrations of the dialect the server speaks, compiled with the server, so they
 * work from `dist/` without the TypeScript sources (the image).
 */
async function withDataSource<T>(config: AppConfig, work: (ds: DataSource) => Promise<T>): Promise<T> {
  const ds = await (await openDataSource(config)).initialize();
  try {
    return await work(ds);
  } finally {
    await ds.destroy();
  }
}

const noArguments = (command: string, args: string[]) => {
  if (args.length) throw new UsageError(`${command} takes no arguments`);
};

/** Applies every pending migration, each in its own transaction, as the server does at start. */
export async function migrationRun(args: string[], io: Output, config = new AppConfig()): Promise<void> {
  noArguments('migration:run', args);
  const applied = await withDataSource(config, (ds) => ds.runMigrations({ transaction: 'each' }));
  for (const m of applied) io.out(`applied ${m.name}`);
  io.out(`schema up to date: ${applied.length} migration${applied.length === 1 ? '' : 's'} applied now`);
}

/** Lists every migration of the dialect, `[X]` applied or `[ ]` pending, then the counts. */
export async function migrationShow(args: string[], io: Output, config = new AppConfig()): Promise<void> {
  noArguments('migration:show', args);
  const { executed, pending } = await withDataSource(config, async (ds) => {
    const executor = new MigrationExecutor(ds);
    return {
      executed: await executor.getExecutedMigrations(),
      pending: await executor.getPendingMigrations(),
    };
  });
  const applied = new Set(executed.map((m: Migration) => m.name));
  const names = [...new Set([...executed.map((m) => m.name), ...pending.map((m) => m.name)])];
  for (const name of names) io.out(`${applied.has(name) ? '[X]' : '[ ]'} ${name}`);
  io.out(`${executed.length} applied, ${pending.length} pending`);
}

/** Undoes the most recently applied migration, in a transaction. */
export async function migrationRevert(args: string[], io: Output, config = new AppConfig()): Promise<void> {
  noArguments('migration:revert', args);
  const reverted = await withDataSource(config, async (ds) => {
    const executed = await new MigrationExecutor(ds).getExecutedMigrations();
    if (executed.length === 0) return undefined;
    await ds.undoLastMigration({ transaction: 'each' });
    // The one TypeORM undoes: the highest id in the migrations table.
    return [...executed].sort((a, b) => (b.id ?? 0) - (a.id ?? 0))[0].name;
  });
  io.out(reverted ? `reverted ${reverted}` : 'nothing to revert: no migration is applied');
}
