import { spawnSync } from 'node:child_process';
import {
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { downloadUrl, sha } from '../admin-catalogs/catalog-helpers';
import { ROOT } from '../helpers/server-process';
import { createMysqlDatabase, usesMysql } from '../helpers/test-app';

/**
 * What the image runs, compiled as its build stage compiles it (tsconfig.build.json) into a
 * folder of its own, then started with plain `node`: the operator commands (`dist/cli.js`), the
 * migrations from compiled files, and the reference executor. Every package the compiled code
 * requires must be a production dependency, since the image has no others.
 */
const BUILD_TIMEOUT = 300_000;
const RUN_TIMEOUT = 120_000;

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

describe('the compiled operator tools and executor (what the image runs)', () => {
  let work: string;
  let dist: string;
  let database: { url: string; drop(): Promise<void> } | undefined;
  let env: Record<string, string>;

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'plinth-dist-'));
    dist = join(work, 'dist');
    // The compiled files resolve packages from the folder above them, as /app/node_modules in the image.
    symlinkSync(join(ROOT, 'node_modules'), join(work, 'node_modules'), 'dir');
    const tsc = spawnSync(
      process.execPath,
      [
        join(ROOT, 'node_modules/typescript/bin/tsc'),
        '-p',
        join(ROOT, 'tsconfig.build.json'),
        '--outDir',
        dist,
        '--tsBuildInfoFile',
        join(work, 'build.tsbuildinfo'),
      ],
      { cwd: ROOT, encoding: 'utf8' },
    );
    if (tsc.status !== 0) throw new Error(`tsc failed:\n${tsc.stdout}${tsc.stderr}`);
    database = usesMysql() ? await createMysqlDatabase() : undefined;
    env = {
      PATH: process.env.PATH ?? '',
      NODE_ENV: 'production',
      DATA_DIR: work,
      DATABASE_URL: database?.url ?? `sqlite:${join(work, 'plinth.sqlite')}`,
      LOG_LEVEL: 'silent',
    };
  }, BUILD_TIMEOUT);
  afterAll(async () => {
    rmSync(work, { recursive: true, force: true });
    await database?.drop();
  });

  /** `node <dist>/<entry> …args` with nothing but the server's environment: no ts-node, no hooks. */
  function node(entry: string, args: string[]) {
    const res = spawnSync(process.execPath, [join(dist, entry), ...args], {
      cwd: work,
      env,
      encoding: 'utf8',
      timeout: RUN_TIMEOUT,
    });
    return { code: res.status, stdout: res.stdout, stderr: res.stderr };
  }

  it('requires only Node built-ins, its own files and production dependencies', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    const allowed = new Set([...Object.keys(pkg.dependencies), ...builtinModules]);
    const outside = new Set<string>();
    for (const file of filesUnder(dist).filter((f) => f.endsWith('.js'))) {
      for (const [, spec] of readFileSync(file, 'utf8').matchAll(/require\("([^"]+)"\)/g)) {
        if (spec.startsWith('.') || spec.startsWith('node:')) continue;
        const name = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0];
        if (!allowed.has(name)) outside.add(`${name} (${file.slice(dist.length + 1)})`);
      }
    }
    expect([...outside]).toEqual([]);
    expect(filesUnder(dist).some((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))).toBe(false);
  });

  it('prints its commands', () => {
    const res = node('cli.js', ['help']);
    expect(res.code).toBe(0);
    for (const command of ['catalog:import', 'migration:run', 'migration:show', 'migration:revert']) {
      expect(res.stdout).toContain(`  ${command} `);
    }
    const wrong = node('cli.js', ['migration:frobnicate']);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toMatch(/^unknown command "migration:frobnicate"\n\nusage: node dist\/cli\.js/);
  });

  it(
    'shows, applies and reverts the compiled migrations of the database it is given',
    () => {
      const dialect = usesMysql() ? 'mysql' : 'sqlite';
      const names = readdirSync(join(dist, 'persistence/migrations', dialect))
        .filter((f) => f.endsWith('.js'))
        .map((f) => f.replace(/^(\d+)-(\w+)\.js$/, '$2$1'))
        .sort((a, b) => Number(/\d+$/.exec(a)![0]) - Number(/\d+$/.exec(b)![0]));
      expect(names.length).toBeGreaterThan(5);

      const fresh = node('cli.js', ['migration:show']);
      expect(fresh.code).toBe(0);
      expect(fresh.stdout).toBe(
        [...names.map((n) => `[ ] ${n}`), `0 applied, ${names.length} pending`, ''].join('\n'),
      );

      const run = node('cli.js', ['migration:run']);
      expect(run.stderr).toBe('');
      expect(run.stdout).toBe(
        [
          ...names.map((n) => `applied ${n}`),
          `schema up to date: ${names.length} migrations applied now`,
          '',
        ].join('\n'),
      );
      expect(node('cli.js', ['migration:run']).stdout).toBe('schema up to date: 0 migrations applied now\n');

      const last = names[names.length - 1];
      expect(node('cli.js', ['migration:revert']).stdout).toBe(`reverted ${last}\n`);
      const after = node('cli.js', ['migration:show']).stdout.trim().split('\n');
      expect(after.slice(-2)).toEqual([`[ ] ${last}`, `${names.length - 1} applied, 1 pending`]);
      expect(node('cli.js', ['migration:run']).stdout).toBe(
        `applied ${last}\nschema up to date: 1 migration applied now\n`,
      );
    },
    RUN_TIMEOUT * 4,
  );

  it(
    'imports a catalog, then changes a version’s flags from a file without url and sha',
    () => {
      const file = join(work, 'engines.json');
      writeFileSync(file, JSON.stringify([{ version: '1.9.0', url: downloadUrl('1.9.0'), sha: sha() }]));
      const first = node('cli.js', ['catalog:import', 'engine-versions', file]);
      expect(first.stderr).toBe('');
      expect(first.stdout).toBe('engine-versions: 1 created, 0 updated, 0 unchanged\n');
      writeFileSync(file, JSON.stringify([{ version: '1.9.0', enabled: false, official: true }]));
      const flags = node('cli.js', ['catalog:import', 'engine-versions', file]);
      expect(flags.stdout).toBe('engine-versions: 0 created, 1 updated, 0 unchanged\n');
      expect(flags.code).toBe(0);
    },
    RUN_TIMEOUT * 2,
  );

  it('runs the reference executor', () => {
    const help = node('executor/main.js', ['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^usage: node dist\/executor\/main\.js --url URL \[--token-file FILE\]/);
    const missing = node('executor/main.js', []);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^--url \(or PLINTH_URL\) is required\nusage:/);
    const noFile = node('executor/main.js', [
      '--url',
      'http://127.0.0.1:9',
      '--token-file',
      join(work, 'nothing'),
    ]);
    expect(noFile.code).toBe(2);
    expect(noFile.stderr).toContain(`cannot read the token file ${join(work, 'nothing')}: ENOENT\nusage:`);
    // Nothing listens on the discard port: the executor warns, then fails to register.
    const inArgs = node('executor/main.js', ['--url', 'http://127.0.0.1:9', '--token', 'visible-token']);
    expect(inArgs.code).toBe(1);
    expect(inArgs.stderr).toMatch(
      /^warning: --token shows the agent token to anyone who can list processes on this host; use PLINTH_AGENT_TOKEN or --token-file instead\n/,
    );
  });
});
