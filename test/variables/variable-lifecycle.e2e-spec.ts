import { DataSource } from 'typeorm';
import {
  Actor,
  bootstrapAdmin,
  createOrganization,
  createProject,
  createUser,
  createWorkspace,
} from '../helpers/fixtures';
import { startApp, TestApp } from '../helpers/test-app';
import { addSetVar, createVar, createVarset, ids, varBody } from './helpers';

describe('variables under concurrency and deletion', () => {
  let t: TestApp;
  let owner: Actor;

  beforeAll(async () => {
    t = await startApp();
    const admin = await bootstrapAdmin(t);
    owner = await createUser(t, admin);
  });
  afterAll(() => t.close());

  const count = async (sql: string, params: unknown[]): Promise<number> => {
    const rows = await t.app.get(DataSource).query<{ n: number | string }[]>(sql, params);
    return Number(rows[0].n);
  };

  it('concurrent creates of one key end as one 201 and 422s, never a 500 or two rows', async () => {
    const org = await createOrganization(owner);
    const ws = await createWorkspace(owner, org);
    const results = await Promise.all(
      Array.from({ length: 8 }, () =>
        owner.api.post(`/api/v2/workspaces/${ws}/vars`, varBody({ key: 'same', category: 'env' })),
      ),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([201, 422, 422, 422, 422, 422, 422, 422]);
    expect(await count('SELECT COUNT(*) AS n FROM variables WHERE workspace_id = ?', [ws])).toBe(1);
  });

  it('concurrent adds of one key to two global sets end as exactly one success', async () => {
    const org = await createOrganization(owner);
    const a = await createVarset(owner, org, { name: 'a', global: true });
    const b = await createVarset(owner, org, { name: 'b', global: true });
    const results = await Promise.all(
      [a, b, a, b].map((set) =>
        owner.api.post(
          `/api/v2/varsets/${set}/relationships/vars`,
          varBody({ key: 'region', category: 'terraform' }),
        ),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 422, 422, 422]);
  });

  it('a workspace, project or organization deleted takes its variables, sets and attachments with it', async () => {
    const org = await createOrganization(owner);
    const prj = await createProject(owner, org);
    const ws = await createWorkspace(owner, org, undefined, prj);
    const { id: wsVar } = await createVar(owner, ws, { key: 'k', value: 'v', category: 'terraform' });
    const shared = await createVarset(
      owner,
      org,
      { name: 'shared' },
      { workspaces: ids('workspaces', [ws]) },
    );
    const owned = await createVarset(
      owner,
      org,
      { name: 'owned' },
      { parent: { data: { type: 'projects', id: prj } } },
    );
    const ownedVar = await addSetVar(owner, owned, { key: 'k', category: 'env' });
    const sharedVar = await addSetVar(owner, shared, { key: 'k', category: 'env' });

    await owner.api.delete(`/api/v2/workspaces/${ws}`).expect(204);
    expect(await count('SELECT COUNT(*) AS n FROM variables WHERE id = ?', [wsVar])).toBe(0);
    expect(await count('SELECT COUNT(*) AS n FROM varset_workspaces WHERE varset_id = ?', [shared])).toBe(0);

    await owner.api.delete(`/api/v2/projects/${prj}`).expect(204);
    await owner.api.get(`/api/v2/varsets/${owned}`).expect(404);
    expect(await count('SELECT COUNT(*) AS n FROM variables WHERE id = ?', [ownedVar])).toBe(0);

    await owner.api.delete(`/api/v2/organizations/${org}`).expect(204);
    expect(await count('SELECT COUNT(*) AS n FROM varsets WHERE id = ?', [shared])).toBe(0);
    expect(await count('SELECT COUNT(*) AS n FROM variables WHERE id = ?', [sharedVar])).toBe(0);
  });
});
