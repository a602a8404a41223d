import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  Actor,
  bootstrapAdmin,
  createOrganization,
  createOrganizationToken,
  createProject,
  createUser,
  createWorkspace,
  reserveTagKey,
} from '../helpers/fixtures';
import { client, startApp, TestApp, usesMysql } from '../helpers/test-app';

jest.setTimeout(120_000);

/** A small seeded generator (mulberry32): a failing run prints its seed, `CACHE_PROPERTY_SEED` replays it. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * One thing the test writes and reads back, in one table or through a remembered count: each write
 * makes its version one higher (writes of one key take turns), and a read says which version it saw.
 */
interface Key {
  name: string;
  write(api: Actor['api'], version: number): Promise<void>;
  read(api: Actor['api']): Promise<number>;
}

/**
 * The property the caches promise: once a write has been answered, by any process, no read that
 * starts afterwards, on any process and for any credentials, answers from before it. Random
 * interleavings of writes and reads of several keys, each in its own table (and one through the
 * memo of project workspace counts), over two servers on one database, with long-lived caches
 * (a minute): any answer from memory that should have ended shows up as an older version.
 */
describe('reads after answered writes, in random interleavings over two processes', () => {
  let sqliteDir: string | undefined;
  const servers: TestApp[] = [];
  let readers: Actor['api'][];
  let writers: Actor['api'][];
  let keys: Key[];

  beforeAll(async () => {
    if (!usesMysql()) sqliteDir = mkdtempSync(join(tmpdir(), 'plinth-interleave-'));
    const env = { CACHE_TTL_MS: '60000' };
    const a = await startApp(sqliteDir ? { ...env, DATABASE_URL: `sqlite:${join(sqliteDir, 'db.sqlite')}` } : env);
    const b = await startApp({ ...env, DATABASE_URL: a.config.databaseUrl });
    servers.push(a, b);
    const admin = await bootstrapAdmin(a);
    const owner = await createUser(a, admin);
    const org = await createOrganization(owner);
    const orgToken = await createOrganizationToken(a, owner, org);
    writers = servers.map((s) => client(s, owner.token));
    readers = servers.flatMap((s) => [client(s, owner.token), client(s, orgToken.token)]);

    const workspaces = [await createWorkspace(owner, org), await createWorkspace(owner, org)];
    const project = await createProject(owner, org);
    keys = [
      ...workspaces.map(
        (id, i): Key => ({
          name: `description of workspace ${i}`,
          write: async (api, v) => {
            await api
              .patch(`/api/v2/workspaces/${id}`, {
                data: { type: 'workspaces', attributes: { description: `v${v}` } },
              })
              .expect(200);
          },
          read: async (api) => {
            const res = await api.get(`/api/v2/workspaces/${id}`).expect(200);
            return Number(/^v(\d+)$/.exec(res.body.data.attributes.description ?? '')?.[1] ?? 0);
          },
        }),
      ),
      {
        name: 'reserved tag keys of the organization',
        write: async (_api, v) => {
          await reserveTagKey({ ...owner, api: writers[v % 2] }, org, `key-${v}`, false);
        },
        read: async (api) => {
          const res = await api.get(`/api/v2/organizations/${org}/reserved-tag-keys?page[size]=1`).expect(200);
          return res.body.meta.pagination['total-count'] as number;
        },
      },
      {
        name: 'workspace count of a project (a remembered count)',
        write: async (_api, v) => {
          await createWorkspace({ ...owner, api: writers[v % 2] }, org, `in-project-${v}`, project);
        },
        read: async (api) => {
          const res = await api.get(`/api/v2/projects/${project}`).expect(200);
          return res.body.data.attributes['workspace-count'] as number;
        },
      },
    ];
  });

  afterAll(async () => {
    for (const s of servers.reverse()) await s.close();
    if (sqliteDir) rmSync(sqliteDir, { recursive: true, force: true });
  });

  it('never answers a read from before a write answered before the read started', async () => {
    const seed = Number(process.env.CACHE_PROPERTY_SEED ?? Date.now() % 1_000_000);
    const next = random(seed);
    const pick = <T>(items: T[]) => items[Math.floor(next() * items.length)];
    /** Per key: the versions written so far, the newest answered, and the turn of the next write. */
    const state = keys.map(() => ({ written: 0, answered: 0, turn: Promise.resolve() }));
    const violations: string[] = [];
    let reads = 0;
    let writes = 0;

    const step = async () => {
      const k = Math.floor(next() * keys.length);
      const key = keys[k];
      const s = state[k];
      if (next() < 0.35) {
        const api = pick(writers);
        const mine = s.turn.then(async () => {
          const version = ++s.written;
          await key.write(api, version);
          s.answered = version;
          writes++;
        });
        s.turn = mine.catch(() => undefined);
        return mine;
      }
      const api = pick(readers);
      const mustSee = s.answered;
      const seen = await key.read(api);
      reads++;
      if (seen < mustSee) violations.push(`${key.name}: read ${seen} after version ${mustSee} was answered`);
    };

    // Eight clients, each doing its steps one after another.
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        for (let i = 0; i < 40; i++) await step();
      }),
    );
    await Promise.all(state.map((s) => s.turn));
    if (violations.length) throw new Error(`seed ${seed}:\n${violations.join('\n')}`);
    expect(writes).toBeGreaterThan(50);
    expect(reads).toBeGreaterThan(150);
  });

  it('still answers reads of unchanged tables from memory while other tables are written', async () => {
    // The answer is computed once on each server, then changed around the API on neither: a
    // write to another table must leave it remembered (measured by the hit counter of /metrics).
    const [workspace, tagKeys] = [keys[0], keys[2]];
    const api = readers[0];
    await workspace.read(api);
    const hits = async () => {
      const text = (await client(servers[0]).get('/metrics').expect(200)).text;
      return [...text.matchAll(/^http_response_cache_hits_total(?:\{[^}]*\})? (\d+)/gm)].reduce(
        (sum, m) => sum + Number(m[1]),
        0,
      );
    };
    const before = await hits();
    for (let v = 1000; v < 1003; v++) {
      await tagKeys.write(writers[1], v);
      await workspace.read(api);
    }
    expect((await hits()) - before).toBe(3);
  });
});
