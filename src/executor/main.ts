import { readFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { Executor } from './executor';
import { OptionsError, parseOptions, USAGE } from './options';
import { ProtocolClient } from './protocol-client';

/** `npm run agent -- --url … --token …`, or `node dist/executor/main.js …` in the image. */
async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  if (argv.includes('--help') || argv.includes('-h')) {
    console.log(USAGE);
    return;
  }
  let parsed;
  try {
    parsed = parseOptions(argv, process.env, {
      hostname: hostname(),
      tmpdir: tmpdir(),
      readFile: (path) => readFileSync(path, 'utf8'),
    });
  } catch (err) {
    if (!(err instanceof OptionsError)) throw err;
    console.error(`${err.message}\n${USAGE}`);
    process.exit(2);
  }
  const { options, warnings } = parsed;
  for (const warning of warnings) console.error(warning);
  const log = (message: string) => console.log(`${new Date().toISOString()} ${message}`);
  const stop = new AbortController();
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      log(`${signal}: finishing the job in hand, then stopping`);
      stop.abort();
    });
  }
  await new Executor(options, new ProtocolClient(options.url, options.token), log).run(stop.signal);
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
