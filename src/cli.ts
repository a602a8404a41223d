/**
 * The operator commands, compiled with the server: `node dist/cli.js <command>` in the image,
 * `npm run admin -- <command>` from a source checkout. `node dist/cli.js help` lists them.
 */
import 'reflect-metadata';
import { runCli } from './cli/cli';

const io = {
  out: (line: string) => process.stdout.write(`${line}\n`),
  err: (line: string) => process.stderr.write(`${line}\n`),
};

// The application module is loaded only by the commands that boot it: `help` and the migrations
// answer without it.
void runCli(process.argv.slice(2), io, {
  appModule: async () => (await import('./app.module')).AppModule,
}).then((code) => {
  process.exitCode = code;
});
