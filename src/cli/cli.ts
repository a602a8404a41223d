import { CatalogImportError } from '../admin-catalogs/catalog-import.service';
import { CATALOGS } from '../admin-catalogs/catalogs';
import { ConfigError } from '../config/app-config';
import { CliContext, Output, UsageError } from './io';
import { migrationRevert, migrationRun, migrationShow } from './migration.commands';

export const USAGE = [
  'usage: node dist/cli.js <command> [arguments]     (from a source checkout: npm run admin -- <command> …)',
  '',
  'Every command reads the server’s environment (DATABASE_URL, DATABASE_PASSWORD, DATA_DIR, …).',
  '',
  'commands:',
  `  catalog:import <${CATALOGS.join('|')}> <file.json>`,
  '      Adds or updates catalog versions from a JSON array of objects with version, url, sha and',
  '      optionally official, enabled, beta, deprecated, deprecated-reason. Versions are matched by',
  '      version; an existing one takes only what its entry gives (url and sha may be left out).',
  '      Importing the same file twice changes nothing. Invalid files change nothing.',
  '      Applies pending migrations first unless MIGRATIONS_RUN=false.',
  '  secrets:rotate',
  '      Re-wraps every stored data key (state files, output values, notification tokens) under the',
  '      master key of ENCRYPTION_KEY (or ENCRYPTION_KEY_FILE), unwrapping with ENCRYPTION_EXTRA_KEYS.',
  '      Servers keep serving meanwhile; run it again until it reports every key re-wrapped',
  '      (docs/state.md).',
  '  migration:run      Applies the pending migrations (each in its own transaction).',
  '  migration:show     Lists the migrations: [X] applied, [ ] pending.',
  '  migration:revert   Undoes the most recently applied migration.',
  '  help               This text.',
  '',
  'The reference executor is a program of its own: node dist/executor/main.js --help',
].join('\n');

type Command = (args: string[], io: Output, context: CliContext) => Promise<void>;

const COMMANDS: Record<string, Command> = {
  // Loaded on use: it boots the whole application, which `help` and the migrations do not need.
  'catalog:import': async (args, io, context) =>
    (await import('./catalog-import.command')).catalogImport(args, io, context),
  'secrets:rotate': async (args, io, context) =>
    (await import('./secrets-rotate.command')).secretsRotate(args, io, context),
  'migration:run': (args, io) => migrationRun(args, io),
  'migration:show': (args, io) => migrationShow(args, io),
  'migration:revert': (args, io) => migrationRevert(args, io),
};

/** Runs one command; the exit status is 0 on success, 1 on failure, 2 on a usage error. */
export async function runCli(argv: string[], io: Output, context: CliContext): Promise<number> {
  const [command, ...args] = argv;
  if (command === 'help' || command === '--help' || command === '-h') {
    io.out(USAGE);
    return 0;
  }
  try {
    const run = command !== undefined && Object.hasOwn(COMMANDS, command) ? COMMANDS[command] : undefined;
    if (!run) {
      throw new UsageError(command ? `unknown command "${command}"` : 'no command given');
    }
    await run(args, io, context);
    return 0;
  } catch (err) {
    if (err instanceof UsageError) {
      io.err(`${err.message}\n\n${USAGE}`);
      return 2;
    }
    if (err instanceof CatalogImportError) {
      io.err(`nothing was imported:\n${err.problems.map((p) => `  ${p}`).join('\n')}`);
      return 1;
    }
    if (err instanceof ConfigError) {
      io.err(`configuration: ${err.message}`);
      return 1;
    }
    io.err(`failed: ${(err as Error).message}`);
    return 1;
  }
}
