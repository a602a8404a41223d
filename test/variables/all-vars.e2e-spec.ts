import {
  Actor,
  bootstrapAdmin,
  createOrganization,
  createProject,
  createUser,
  createWorkspace,
  grantWorkspace,
  memberWith,
  unique,
} from '../helpers/fixtures';
import { startApp, TestApp } from '../helpers/test-app';
import { addSetVar, createVar, createVarset, ids, SeenBodies } from './helpers';

/** A tier of the precedence, as something this test can create in a fresh organization. */
interface Tier {
  name: string;
  set?: { global?: boolean; priority?: boolean; projectOwned?: boolean; on?: 'workspace' | 'project' };
}

const TIERS: Tier[] = [
  { name: 'priority global set', set: { global: true, priority: true } },
  { name: 'priority project-scoped set of the organization', set: { priority: true, on: 'project' } },
  { name: 'priority workspace-scoped set of the organization', set: { priority: true, on: 'workspace' } },
  {
    name: 'priority project-scoped set of a project',
    set: { priority: true, projectOwned: true, on: 'project' },
  },
  {
    name: 'priority workspace-scoped set of a project',
    set: { priority: true, projectOwned: true, on: 'workspace' },
  },
  { name: 'workspace variable' },
  { name: 'workspace-scoped set of a project', set: { projectOwned: true, on: 'workspace' } },
  { name: 'project-scoped set of a project', set: { projectOwned: true, on: 'project' } },
  { name: 'workspace-scoped set of the organization', set: { on: 'workspace' } },
  { name: 'project-scoped set of the organization', set: { on: 'project' } },
  { name: 'global set', set: { global: true } },
];

describe('GET /workspaces/:id/all-vars: the variables after precedence', () => {
  let t: TestApp;
  let admin: Actor;
  let owner: Actor;
  const seen = new SeenBodies();

  beforeAll(async () => {
    t = await startApp();
    admin = await bootstrapAdmin(t);
    owner = seen.watch(await createUser(t, admin));
  });
  afterAll(() => t.close());

  /** A fresh organization with a project and a workspace in it. */
  async function place(): Promise<{ org: string; prj: string; ws: string; wsName: string }> {
    const org = await createOrganization(owner);
    const prj = await createProject(owner, org);
    const wsName = unique('ws');
    return { org, prj, ws: await createWorkspace(owner, org, wsName, prj), wsName };
  }

  /** Defines `region` at a tier; answers the relationship naming where it came from. */
  async function define(
    at: { org: string; prj: string; ws: string },
    tier: Tier,
    value: string,
    setName = unique('set'),
    attributes: Record<string, unknown> = {},
  ): Promise<Record<string, unknown>> {
    const variable = { key: 'region', value, category: 'terraform', ...attributes };
    if (!tier.set) {
      await createVar(owner, at.ws, variable);
      return { configurable: expect.objectContaining({ data: { id: at.ws, type: 'workspaces' } }) };
    }
    const { global = false, priority = false, projectOwned = false, on } = tier.set;
    const parent = projectOwned ? { parent: { data: { type: 'projects', id: at.prj } } } : undefined;
    const id = await createVarset(owner, at.org, { name: setName, global, priority }, parent);
    if (on === 'workspace')
      await owner.api
        .post(`/api/v2/varsets/${id}/relationships/workspaces`, ids('workspaces', [at.ws]))
        .expect(204);
    if (on === 'project')
      await owner.api
        .post(`/api/v2/varsets/${id}/relationships/projects`, ids('projects', [at.prj]))
        .expect(204);
    await addSetVar(owner, id, variable);
    return { varset: { data: { id, type: 'varsets' } } };
  }

  const allVars = async (ws: string) =>
    (await owner.api.get(`/api/v2/workspaces/${ws}/all-vars`).expect(200)).body;

  it.each(TIERS.slice(0, -1).map((tier, i) => [tier.name, TIERS[i + 1].name, i] as const))(
    '%s beats %s',
    async (_strong, _weak, i) => {
      const at = await place();
      // The weaker one first, so that the order of creation cannot be what decides.
      await define(at, TIERS[i + 1], 'weak');
      const from = await define(at, TIERS[i], 'strong');
      const body = await allVars(at.ws);
      expect(body.data).toHaveLength(1);
      expect(body.data[0].attributes).toMatchObject({
        key: 'region',
        value: 'strong',
        category: 'terraform',
      });
      expect(body.data[0].relationships).toEqual(from);
      expect(body.meta.pagination['total-count']).toBe(1);
    },
  );

  it('between sets of one tier the name first in code-point order wins, whatever was made first', async () => {
    const at = await place();
    const tier = TIERS.find((x) => x.name === 'workspace-scoped set of the organization')!;
    await define(at, tier, 'b', 'b_set');
    await define(at, tier, 'a', 'a_set');
    expect(
      (await allVars(at.ws)).data.map((d: { attributes: { value: string } }) => d.attributes.value),
    ).toEqual(['a']);
    // Upper case comes before lower case by code point.
    await define(at, tier, 'upper-Z', 'Z_set');
    const body = await allVars(at.ws);
    expect(body.data.map((d: { attributes: { value: string } }) => d.attributes.value)).toEqual(['upper-Z']);
  });

  it('keeps every key and category that does not conflict, ordered by category then key', async () => {
    const at = await place();
    await createVar(owner, at.ws, { key: 'b', value: '1', category: 'terraform' });
    await createVar(owner, at.ws, { key: 'a', value: '2', category: 'env' });
    const set = await createVarset(owner, at.org, { name: 'g', global: true });
    await addSetVar(owner, set, { key: 'b', value: 'from-set', category: 'env' });
    await addSetVar(owner, set, { key: 'b', value: 'loses', category: 'terraform' });
    const body = await allVars(at.ws);
    expect(
      body.data.map((d: { attributes: { category: string; key: string; value: string } }) => [
        d.attributes.category,
        d.attributes.key,
        d.attributes.value,
      ]),
    ).toEqual([
      ['env', 'a', '2'],
      ['env', 'b', 'from-set'],
      ['terraform', 'b', '1'],
    ]);
    const paged = await owner.api
      .get(`/api/v2/workspaces/${at.ws}/all-vars?page[size]=1&page[number]=3`)
      .expect(200);
    expect(paged.body.data.map((d: { attributes: { key: string } }) => d.attributes.key)).toEqual(['b']);
    expect(paged.body.meta.pagination).toMatchObject({ 'total-count': 3, 'total-pages': 3 });
  });

  it('never shows a sensitive value that wins', async () => {
    const at = await place();
    const secret = 'winning-secret-never-shown-5e1a';
    await define(at, TIERS[0], secret, unique('set'), { sensitive: true });
    const body = await allVars(at.ws);
    expect(body.data[0].attributes).toMatchObject({ value: null, sensitive: true });
    expect(seen.containing(secret)).toEqual([]);
  });

  it('needs read access to the workspace', async () => {
    const at = await place();
    await define(at, TIERS[5], 'v');
    const member = await memberWith(t, admin, owner, at.org);
    await member.api.get(`/api/v2/workspaces/${at.ws}/all-vars`).expect(404);
    await grantWorkspace(owner, member.teamId, at.ws, 'read');
    const res = await member.api.get(`/api/v2/workspaces/${at.ws}/all-vars`).expect(200);
    expect(res.body.data).toHaveLength(1);
  });
});
