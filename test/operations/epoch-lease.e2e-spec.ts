import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { Actor, bootstrapAdmin, createOrganization, createUser, createWorkspace } from '../helpers/fixtures';
import { ChangeEpoch } from '../../src/common/cache/change-epoch';
import { SqlEpochStore } from '../../src/common/cache/sql-epoch-store';
import { client, startApp, TestApp, usesMysql } from '../helpers/test-app';

/**
 * A server alone on its database skips the change counters (common/cache/epoch-lease.ts): it
 * neither reads them before a read through its caches nor advances them after a write. Once a
 * second server uses the database, the first announces what it wrote alone and both read and
 * advance; once the second has left, the first is alone again.
 */
describe('a server alone on its database', () => {
  let sqliteDir: string | undefined;
  let a: TestApp;
  let b: TestApp | undefined;
  let owner: Actor;
  let org: string;
  const env = { CACHE_TTL_MS: '60000' };

  beforeAll(async () => {
    if (!usesMysql()) sqliteDir = mkdtempSync(join(tmpdir(), 'plinth-lease-'));
    a = await startApp(
      sqliteDir ? { ...env, DATABASE_URL: `sqlite:${join(sqliteDir, 'lease.sqlite')}` } : env,
    );
    const admin = await bootstrapAdmin(a);
    owner = await createUser(a, admin);
    org = await createOrganization(owner);
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
    if (sqliteDir) rmSync(sqliteDir, { recursive: true, force: true });
  });
  afterEach(() => jest.restoreAllMocks());

  const members = () => a.app.get(DataSource).query<{ alone: unknown }[]>(`SELECT alone FROM epoch_members`);
  const aloneMarks = async () => (await members()).map((m) => Number(m.alone));
  const aloneOnA = async () => {
    for (let i = 0; i < 100 && !a.app.get(ChangeEpoch).alone(); i++)
      await new Promise((r) => setTimeout(r, 50));
    expect(a.app.get(ChangeEpoch).alone()).toBe(true);
    expect(await aloneMarks()).toEqual([1]);
  };
  const description = async (api: Actor['api'], id: string) =>
    (await api.get(`/api/v2/workspaces/${id}`).expect(200)).body.data.attributes.description as string;
  const describeAs = (api: Actor['api'], id: string, text: string) =>
    api
      .patch(`/api/v2/workspaces/${id}`, { data: { type: 'workspaces', attributes: { description: text } } })
      .expect(200);

  it('reads and advances the change counters only while another server uses the database', async () => {
    await aloneOnA();
    const reads = jest.spyOn(SqlEpochStore.prototype, 'read');
    const advances = jest.spyOn(SqlEpochStore.prototype, 'advance');

    // Alone: a write and repeated reads, answered without the counters.
    const id = await createWorkspace(owner, org);
    await describeAs(owner.api, id, 'alone');
    expect(await description(owner.api, id)).toBe('alone');
    expect(await description(owner.api, id)).toBe('alone');
    expect(reads).not.toHaveBeenCalled();
    expect(advances).not.toHaveBeenCalled();

    // A second server: the first announces what it wrote alone before the second reads.
    b = await startApp({ ...env, DATABASE_URL: a.config.databaseUrl });
    const onB = client(b, owner.token);
    expect(await description(onB, id)).toBe('alone');
    const announced = advances.mock.calls.flatMap(([what]) => what.tables);
    expect(announced).toEqual(expect.arrayContaining(['workspaces']));
    expect(await aloneMarks()).toEqual([0, 0]);
    expect(a.app.get(ChangeEpoch).alone()).toBe(false);

    // Now a write answered by either is read through the other at once, what the first
    // remembered while alone included.
    await describeAs(onB, id, 'from b');
    expect(await description(owner.api, id)).toBe('from b');
    await describeAs(owner.api, id, 'from a');
    expect(await description(onB, id)).toBe('from a');
    expect(reads).toHaveBeenCalled();

    // The second leaves: the first is alone again and stops reading the counters.
    await b.close();
    b = undefined;
    // It left as it stopped, so the first need not wait for its lease to expire.
    expect(await aloneMarks()).toHaveLength(1);
    await aloneOnA();
    reads.mockClear();
    advances.mockClear();
    await describeAs(owner.api, id, 'alone again');
    expect(await description(owner.api, id)).toBe('alone again');
    expect(reads).not.toHaveBeenCalled();
    expect(advances).not.toHaveBeenCalled();
  });
});
