import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import {
  Actor,
  bootstrapAdmin,
  createOrganization,
  createTeam,
  createUser,
  createWorkspace,
  memberWith,
  reserveTagKey,
} from '../helpers/fixtures';
import { ChangeEpoch } from '../../src/common/cache/change-epoch';
import { SqlEpochStore } from '../../src/common/cache/sql-epoch-store';
import { client, startApp, TestApp, usesMysql } from '../helpers/test-app';
import { writeAroundTracking } from '../helpers/untracked-write';

/**
 * Two servers on one database, as two workers or two nodes are: each remembers what it read
 * (principals, rights, rendered answers), and a write answered by one must be visible to the next
 * request the other serves, with no waiting for a cache to expire.
 */
describe('caches shared by several processes', () => {
  let sqliteDir: string | undefined;
  let a: TestApp;
  let b: TestApp;
  let admin: Actor;
  let owner: Actor;
  let org: string;
  /** The owner's token, used against server B. */
  let ownerOnB: Actor;

  beforeAll(async () => {
    if (!usesMysql()) sqliteDir = mkdtempSync(join(tmpdir(), 'plinth-shared-'));
    // A long TTL: anything seen below comes from the change epoch, not from expiry.
    const env = { CACHE_TTL_MS: '60000' };
    a = await startApp(
      sqliteDir ? { ...env, DATABASE_URL: `sqlite:${join(sqliteDir, 'shared.sqlite')}` } : env,
    );
    b = await startApp({ ...env, DATABASE_URL: a.config.databaseUrl });
    admin = await bootstrapAdmin(a);
    owner = await createUser(a, admin);
    org = await createOrganization(owner);
    ownerOnB = { ...owner, api: client(b, owner.token) };
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
    if (sqliteDir) rmSync(sqliteDir, { recursive: true, force: true });
  });

  const description = async (api: Actor['api'], id: string) =>
    (await api.get(`/api/v2/workspaces/${id}`).expect(200)).body.data.attributes.description as string;

  it('answers a repeated read from memory until a write to a table it read is answered anywhere', async () => {
    const id = await createWorkspace(owner, org);
    await owner.api.patch(`/api/v2/workspaces/${id}`, {
      data: { type: 'workspaces', attributes: { description: 'first' } },
    });
    expect(await description(ownerOnB.api, id)).toBe('first');

    // Changed behind the API's back (and around the statement tracking): B keeps answering what
    // it rendered…
    await writeAroundTracking(
      b.app.get(DataSource),
      `UPDATE workspaces SET description = 'behind' WHERE id = '${id}'`,
    );
    expect(await description(ownerOnB.api, id)).toBe('first');

    // …across writes answered by the other server to tables the answer did not read…
    await reserveTagKey(owner, org, 'k1', false);
    expect(await description(ownerOnB.api, id)).toBe('first');

    // …until one to a table it read: here A creates another workspace.
    await createWorkspace(owner, org);
    expect(await description(ownerOnB.api, id)).toBe('behind');
  });

  it('sees a write made through the data source outside any request once it is announced', async () => {
    const id = await createWorkspace(owner, org);
    expect(await description(ownerOnB.api, id)).toBeFalsy();
    // A background job's write on A (no request, no answer): announced by itself shortly after.
    await a.app.get(DataSource).query(`UPDATE workspaces SET description = 'job' WHERE id = '${id}'`);
    await a.app.get(ChangeEpoch).flush();
    expect(await description(ownerOnB.api, id)).toBe('job');
  });

  it('shows a change made through one server in the very next read through the other', async () => {
    const id = await createWorkspace(owner, org);
    expect(await description(ownerOnB.api, id)).toBeFalsy();
    for (const text of ['one', 'two', 'three']) {
      await owner.api
        .patch(`/api/v2/workspaces/${id}`, {
          data: { type: 'workspaces', attributes: { description: text } },
        })
        .expect(200);
      expect(await description(ownerOnB.api, id)).toBe(text);
    }
    const list = await ownerOnB.api.get(`/api/v2/organizations/${org}/workspaces?page[size]=100`).expect(200);
    const before = list.body.meta.pagination['total-count'] as number;
    await createWorkspace(owner, org);
    const after = await ownerOnB.api
      .get(`/api/v2/organizations/${org}/workspaces?page[size]=100`)
      .expect(200);
    expect(after.body.meta.pagination['total-count']).toBe(before + 1);
  });

  it('refuses a token on every server as soon as its deletion was answered', async () => {
    const user = await createUser(a, admin);
    const onB = client(b, user.token);
    await onB.get('/api/v2/account/details').expect(200);
    const tokens = await user.api.get(`/api/v2/users/${user.userId}/authentication-tokens`).expect(200);
    await user.api.delete(`/api/v2/authentication-tokens/${tokens.body.data[0].id}`).expect(204);
    await onB.get('/api/v2/account/details').expect(401);
  });

  it('takes rights away on every server as soon as the change was answered', async () => {
    const id = await createWorkspace(owner, org);
    const member = await memberWith(a, admin, owner, org, ['read-workspaces']);
    const onB = client(b, member.token);
    await onB.get(`/api/v2/workspaces/${id}`).expect(200);
    await owner.api
      .delete(`/api/v2/teams/${member.teamId}/relationships/users`, {
        data: [{ type: 'users', id: member.userId }],
      })
      .expect(204);
    await onB.get(`/api/v2/workspaces/${id}`).expect(404);
  });

  it('keeps tokens and rights across writes that cannot change them, not across one that can', async () => {
    const id = await createWorkspace(owner, org);
    const member = await memberWith(a, admin, owner, org, ['read-workspaces']);
    const onB = client(b, member.token);
    await onB.get(`/api/v2/workspaces/${id}`).expect(200);

    // The team loses the flag behind the API's back, through A's data source (B's own statements
    // would end what B remembered at once): B goes on with the rights it remembered…
    await a.app.get(DataSource).query(`UPDATE teams SET read_workspaces = 0 WHERE id = '${member.teamId}'`);
    // …across a write to workspaces answered by A (B computes its answer again: the write ended
    // what B had rendered, but not what it knew about the member)…
    await owner.api
      .patch(`/api/v2/workspaces/${id}`, { data: { type: 'workspaces', attributes: { description: 'x' } } })
      .expect(200);
    expect((await onB.get(`/api/v2/workspaces/${id}`).expect(200)).body.data.attributes.description).toBe(
      'x',
    );

    // …until a write that may change access is answered anywhere: here A creates a team.
    await createTeam(owner, org, []);
    await onB.get(`/api/v2/workspaces/${id}`).expect(404);
  });

  it('stamps the tables of an advance with its number, and hands a reader only newer stamps', async () => {
    const store = new SqlEpochStore(a.app.get(DataSource));
    // The servers' own background writes (a token's last use, the audit batch) advance the counters
    // too; a round that one of them slipped into is done again, so the figures below are exact.
    const round = async () => {
      const before = await store.read(-1);
      await store.advance({
        tables: ['policy_sets', 'policy_set_versions'],
        access: false,
        everything: false,
      });
      await store.advance({ tables: ['policy_sets'], access: true, everything: false });
      await store.advance({ tables: [], access: false, everything: true });
      const after = await new SqlEpochStore(b.app.get(DataSource)).read(before.all);
      const newest = await store.read(before.all + 2);
      return { before, after, newest, alone: after.all === before.all + 3 && newest.all === before.all + 3 };
    };
    let { before, after, newest, alone } = await round();
    for (let tries = 1; !alone && tries < 5; tries++) ({ before, after, newest, alone } = await round());
    expect(after).toEqual({
      all: before.all + 3,
      access: before.access + 1,
      tracked: before.tracked + 2,
      tables: expect.arrayContaining([
        ['policy_sets', before.all + 2],
        ['policy_set_versions', before.all + 1],
      ]) as unknown,
    });
    expect(after.tables).toHaveLength(2);
    // Only stamps newer than the reader's number come back: the last advance stamped no table.
    expect(newest.tables).toEqual([]);
  });
});
