import Database from 'better-sqlite3';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { CatalogImportError, CatalogImportService } from '../../src/admin-catalogs/catalog-import.service';
import { Actor, bootstrapAdmin, ISO_MILLIS } from '../helpers/fixtures';
import { startApp, TestApp } from '../helpers/test-app';
import { createCatalogVersion, downloadUrl, sha } from './catalog-helpers';

const entry = (version: string, extra: Record<string, unknown> = {}) => ({
  version,
  url: downloadUrl(version),
  sha: sha(),
  ...extra,
});

describe('importing a catalog from a file', () => {
  let t: TestApp;
  let admin: Actor;
  let importer: CatalogImportService;

  beforeAll(async () => {
    t = await startApp();
    admin = await bootstrapAdmin(t);
    importer = t.app.get(CatalogImportService);
  });
  afterAll(() => t.close());

  const catalogOf = async (catalog: string) => {
    const res = await admin.api.get(`/api/v2/admin/${catalog}?page[size]=100`).expect(200);
    return Object.fromEntries(
      res.body.data.map((d: { attributes: { version: string } }) => [d.attributes.version, d.attributes]),
    ) as Record<string, Record<string, unknown>>;
  };
  const problemsOf = async (work: Promise<unknown>): Promise<string[]> => {
    const err: unknown = await work.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(CatalogImportError);
    return (err as CatalogImportError).problems;
  };

  it('creates the versions with the API defaults, then changes nothing when run again', async () => {
    const file = [
      entry('1.0.0'),
      entry('1.1.0', { official: true, beta: true, enabled: false }),
      entry('1.2.0-beta1', { deprecated: true, 'deprecated-reason': 'use 1.2.0', sha: sha('F') }),
    ];
    expect(await importer.import('engine-versions', file)).toEqual({ created: 3, updated: 0, unchanged: 0 });
    const first = await catalogOf('engine-versions');
    expect(first).toEqual({
      '1.0.0': {
        version: '1.0.0',
        url: downloadUrl('1.0.0'),
        sha: sha(),
        deprecated: false,
        'deprecated-reason': null,
        official: false,
        enabled: true,
        beta: false,
        usage: 0,
        'created-at': expect.stringMatching(ISO_MILLIS),
      },
      '1.1.0': expect.objectContaining({ official: true, beta: true, enabled: false, deprecated: false }),
      '1.2.0-beta1': expect.objectContaining({
        deprecated: true,
        'deprecated-reason': 'use 1.2.0',
        sha: sha('f'),
      }),
    });

    expect(await importer.import('engine-versions', file)).toEqual({ created: 0, updated: 0, unchanged: 3 });
    expect(await catalogOf('engine-versions')).toEqual(first);
    expect(await catalogOf('policy-engine-versions')).toEqual({});
  });

  it('updates what changed, keeps what an entry omits and matches versions whatever their case', async () => {
    await createCatalogVersion(admin, 'policy-engine-versions', '0.40.0-RC1', { official: true });
    await createCatalogVersion(admin, 'policy-engine-versions', '0.41.0', {
      deprecated: true,
      'deprecated-reason': 'old',
    });
    const result = await importer.import('policy-engine-versions', [
      entry('0.40.0-rc1', { url: 'https://mirror.example.com/opa' }),
      entry('0.41.0'),
      entry('0.42.0'),
    ]);
    expect(result).toEqual({ created: 1, updated: 1, unchanged: 1 });
    const catalog = await catalogOf('policy-engine-versions');
    expect(Object.keys(catalog).sort()).toEqual(['0.40.0-RC1', '0.41.0', '0.42.0']);
    expect(catalog['0.40.0-RC1']).toMatchObject({ url: 'https://mirror.example.com/opa', official: true });
    expect(catalog['0.41.0']).toMatchObject({ deprecated: true, 'deprecated-reason': 'old' });
  });

  it('changes the flags of an existing version from an entry without url and sha', async () => {
    await createCatalogVersion(admin, 'engine-versions', '3.0.0', { official: true });
    await createCatalogVersion(admin, 'engine-versions', '3.1.0-BETA1', { beta: true });
    const before = await catalogOf('engine-versions');
    const result = await importer.import('engine-versions', [
      { version: '3.0.0', enabled: false, deprecated: true, 'deprecated-reason': 'security fix in 3.0.1' },
      { version: '3.1.0-beta1', beta: false },
    ]);
    expect(result).toEqual({ created: 0, updated: 2, unchanged: 0 });
    const after = await catalogOf('engine-versions');
    expect(after['3.0.0']).toEqual({
      ...before['3.0.0'],
      enabled: false,
      deprecated: true,
      'deprecated-reason': 'security fix in 3.0.1',
    });
    expect(after['3.1.0-BETA1']).toEqual({ ...before['3.1.0-BETA1'], beta: false });
    // The same flags again: nothing to write.
    expect(await importer.import('engine-versions', [{ version: '3.1.0-BETA1', beta: false }])).toEqual({
      created: 0,
      updated: 0,
      unchanged: 1,
    });
  });

  it('still needs url and sha for a version the catalog does not hold, and checks what is sent', async () => {
    await createCatalogVersion(admin, 'engine-versions', '4.0.0');
    const problems = await problemsOf(
      importer.import('engine-versions', [
        { version: '4.0.0', url: 'ftp://x', sha: null, enabled: 'no' },
        { version: '4.0.0', beta: true },
        { version: '4.1.0', official: true },
        { version: '4.2.0', sha: sha() },
      ]),
    );
    expect(problems).toEqual([
      'entry 1 (4.0.0): Url is invalid: use an http or https URL',
      "entry 1 (4.0.0): Sha can't be blank",
      'entry 1 (4.0.0): Enabled must be a boolean',
      "entry 3 (4.1.0): Url can't be blank",
      "entry 3 (4.1.0): Sha can't be blank",
      "entry 4 (4.2.0): Url can't be blank",
    ]);
    const catalog = await catalogOf('engine-versions');
    expect(catalog['4.0.0']).toMatchObject({ beta: false, enabled: true, url: downloadUrl('4.0.0') });
    expect(Object.keys(catalog)).not.toContain('4.1.0');
  });

  it('checks every entry with the API rules and imports nothing from a file with a bad entry', async () => {
    const problems = await problemsOf(
      importer.import('engine-versions', [
        entry('5.0.0'),
        { version: '5.1', url: 'ftp://x', sha: 'nope', beta: 'yes' },
        'not an object',
        { url: downloadUrl('5.2.0') },
        entry('5.3.0', { 'deprecated-reason': 'why' }),
        entry('5.0.0'),
      ]),
    );
    expect(problems).toEqual([
      'entry 2 (5.1): Version is invalid: use N.N.N or N.N.N-bundleName',
      'entry 2 (5.1): Url is invalid: use an http or https URL',
      'entry 2 (5.1): Sha is invalid: use the 64 hexadecimal characters of a SHA-256 checksum',
      'entry 2 (5.1): Beta must be a boolean',
      'entry 3: must be an object',
      "entry 4: Version can't be blank",
      "entry 4: Sha can't be blank",
      'entry 5 (5.3.0): Deprecated reason can only be set on a deprecated version',
      'entry 6 (5.0.0): Version 5.0.0 is also given by entry 1 (5.0.0)',
    ]);
    const rules = await problemsOf(
      importer.import('engine-versions', [entry('5.4.0'), entry('5.3.0', { 'deprecated-reason': 'why' })]),
    );
    expect(rules).toEqual(['entry 2 (5.3.0): Deprecated reason can only be set on a deprecated version']);
    const catalog = await catalogOf('engine-versions');
    expect(Object.keys(catalog)).not.toContain('5.0.0');
    expect(Object.keys(catalog)).not.toContain('5.4.0');
  });

  it('refuses a file that is not an array of versions', async () => {
    expect(await problemsOf(importer.import('engine-versions', { versions: [] }))).toEqual([
      'the file must hold a JSON array of versions',
    ]);
  });

  it('is seen by the running server at once, though it went past the API', async () => {
    const before = await catalogOf('engine-versions');
    expect(before['9.9.0']).toBeUndefined();
    expect(await importer.import('engine-versions', [entry('9.9.0')])).toEqual({
      created: 1,
      updated: 0,
      unchanged: 0,
    });
    expect((await catalogOf('engine-versions'))['9.9.0']).toEqual(
      expect.objectContaining({ version: '9.9.0' }),
    );
  });
});

describe('the catalog:import command', () => {
  /** The command boots the whole application under ts-node on a machine shared with other work. */
  const SPAWN_TIMEOUT = 120_000;
  const root = resolve(__dirname, '../..');
  let dir: string;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'plinth-cli-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  function run(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
    return new Promise((done, fail) => {
      const child = spawn('npm', ['run', '--silent', 'admin', '--', ...args], {
        cwd: root,
        env: {
          ...process.env,
          DATABASE_URL: `sqlite:${join(dir, 'plinth.sqlite')}`,
          DATA_DIR: dir,
          LOG_LEVEL: 'silent',
          // Type checking is `npm run check`'s job; the command itself is unchanged.
          TS_NODE_TRANSPILE_ONLY: 'true',
        },
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      child.on('error', fail);
      child.on('close', (code) => done({ code, stdout, stderr }));
    });
  }

  it(
    'migrates a fresh database, imports the file and reports the counts',
    async () => {
      const file = join(dir, 'engine-versions.json');
      writeFileSync(file, JSON.stringify([entry('1.9.0', { official: true }), entry('1.9.1')]));
      const res = await run(['catalog:import', 'engine-versions', file]);
      expect(res.stdout).toBe('engine-versions: 2 created, 0 updated, 0 unchanged\n');
      expect(res.code).toBe(0);
      const db = new Database(join(dir, 'plinth.sqlite'), { readonly: true });
      try {
        expect(
          db.prepare('SELECT catalog, version, official, enabled FROM tool_versions ORDER BY version').all(),
        ).toEqual([
          { catalog: 'engine-versions', version: '1.9.0', official: 1, enabled: 1 },
          { catalog: 'engine-versions', version: '1.9.1', official: 0, enabled: 1 },
        ]);
      } finally {
        db.close();
      }
    },
    SPAWN_TIMEOUT,
  );

  it(
    'exits 1 and names each problem when the file is invalid',
    async () => {
      const file = join(dir, 'bad.json');
      writeFileSync(file, JSON.stringify([entry('2.0.0'), { version: '2.1.0', url: downloadUrl('2.1.0') }]));
      const res = await run(['catalog:import', 'policy-engine-versions', file]);
      expect(res.code).toBe(1);
      expect(res.stdout).toBe('');
      expect(res.stderr).toContain("nothing was imported:\n  entry 2 (2.1.0): Sha can't be blank\n");
    },
    SPAWN_TIMEOUT,
  );
});
