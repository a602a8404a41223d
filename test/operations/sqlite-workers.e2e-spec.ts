import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { send, RawResponse } from '../helpers/raw-http';
import { runScript, ServerProcess } from '../helpers/server-process';

jest.setTimeout(180_000);

const JSONAPI = 'application/vnd.api+json';

/**
 * Several processes writing one SQLite file: two cluster workers, and the catalog import command
 * beside them. SQLite has one writer at a time; a write must wait for its turn, never fail with
 * "database is locked". These use SQLite whatever TEST_DB says.
 */
describe('SQLite shared by several processes', () => {
  let server: ServerProcess;
  let token: string;
  const org = 'sqlite-workers';
  let sent = 0;

  /** A write of one of a few kinds, each on a fresh connection so both workers take a share. */
  function write(i: number): Promise<RawResponse> {
    const n = sent++;
    const kinds = [
      {
        path: `/api/v2/organizations/${org}/workspaces`,
        type: 'workspaces',
        attributes: { name: `ws-${n}` },
      },
      {
        path: `/api/v2/organizations/${org}/reserved-tag-keys`,
        type: 'reserved-tag-keys',
        attributes: { key: `key-${n}`, 'disable-overrides': false },
      },
      {
        path: `/api/v2/organizations/${org}/projects`,
        type: 'projects',
        attributes: { name: `project-${n}` },
      },
    ];
    const { path, type, attributes } = kinds[i % kinds.length];
    return send(server.origin, {
      method: 'POST',
      path,
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': JSONAPI, Connection: 'close' },
      body: JSON.stringify({ data: { type, attributes } }),
      timeoutMs: 60_000,
    });
  }

  /** What each answer was, with the type it created: `201 workspaces`, or the status and body. */
  function outcome(res: RawResponse): string {
    if (res.status !== 201) return `${res.status} ${res.text.slice(0, 300)}`;
    const doc = JSON.parse(res.text) as { data: { type: string; id: string } };
    return `201 ${doc.data.type}`;
  }

  beforeAll(async () => {
    server = await ServerProcess.start('src/main.ts', { WEB_CONCURRENCY: '2' });
    await server.ready();
    for (let i = 0; i < 200 && server.lines.filter((l) => /successfully started/.test(l)).length < 2; i++)
      await new Promise((r) => setTimeout(r, 100));
    const iact = await send(server.origin, { path: '/admin/retrieve-iact' });
    const admin = await send(server.origin, {
      method: 'POST',
      path: `/admin/initial-admin-user?token=${iact.text}`,
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        username: 'admin',
        email: 'admin@example.com',
        password: 'correct-horse-battery',
      }),
    });
    token = (JSON.parse(admin.text) as { token: string }).token;
    const created = await send(server.origin, {
      method: 'POST',
      path: '/api/v2/organizations',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': JSONAPI },
      body: JSON.stringify({
        data: { type: 'organizations', attributes: { name: org, email: 'o@example.com' } },
      }),
    });
    expect(created.status).toBe(201);
  });

  afterAll(() => server?.dispose());

  it('answers 300 concurrent writes spread over two workers with 201 each, and keeps every row', async () => {
    const answers = await Promise.all(Array.from({ length: 300 }, (_, i) => write(i)));
    const outcomes = answers.map(outcome);
    expect(outcomes.filter((o) => !o.startsWith('201 '))).toEqual([]);
    expect(outcomes.filter((o) => o === '201 workspaces')).toHaveLength(100);
    expect(new Set(answers.map((a) => (JSON.parse(a.text) as { data: { id: string } }).data.id)).size).toBe(
      300,
    );

    const list = await send(server.origin, {
      path: `/api/v2/organizations/${org}/workspaces?page[size]=1`,
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(list.status).toBe(200);
    expect(
      (JSON.parse(list.text) as { meta: { pagination: Record<string, unknown> } }).meta.pagination,
    ).toEqual(expect.objectContaining({ 'total-count': 100, 'page-size': 1 }));
  });

  it('lets the catalog import command write beside the serving workers, every time', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'plinth-import-'));
    let writing = true;
    const answers: RawResponse[] = [];
    // 16 writers keep both workers writing for as long as the imports run.
    const writers = Array.from({ length: 16 }, async (_, w) => {
      for (let i = w; writing; i += 16) answers.push(await write(i));
    });
    try {
      for (let run = 0; run < 2; run++) {
        const file = join(dir, `engine-versions-${run}.json`);
        const entries = Array.from({ length: 150 }, (_, i) => ({
          version: `${run + 1}.${Math.floor(i / 10)}.${i % 10}`,
          url: `https://releases.example.com/engine/${run + 1}.${i}/engine_linux_amd64.zip`,
          sha: 'c'.repeat(64),
        }));
        writeFileSync(file, JSON.stringify(entries));
        const result = await runScript('src/cli.ts', ['catalog:import', 'engine-versions', file], {
          DATA_DIR: server.dataDir,
          LOG_LEVEL: 'warn',
        });
        expect({ code: result.code, stdout: result.stdout, stderr: result.stderr }).toEqual({
          code: 0,
          stdout: 'engine-versions: 150 created, 0 updated, 0 unchanged\n',
          stderr: '',
        });
      }
    } finally {
      writing = false;
      await Promise.all(writers);
      rmSync(dir, { recursive: true, force: true });
    }
    expect(answers.length).toBeGreaterThan(0);
    expect(answers.map(outcome).filter((o) => !o.startsWith('201 '))).toEqual([]);

    const catalog = await send(server.origin, {
      path: '/api/v2/admin/engine-versions?page[size]=1',
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(
      (JSON.parse(catalog.text) as { meta: { pagination: Record<string, unknown> } }).meta.pagination,
    ).toEqual(expect.objectContaining({ 'total-count': 300 }));
  });
});
