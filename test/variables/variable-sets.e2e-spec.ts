import { DataSource } from 'typeorm';
import {
  Actor,
  bootstrapAdmin,
  createOrganization,
  createProject,
  createUser,
  createWorkspace,
  expectPagination,
  grantWorkspace,
  idOf,
  memberWith,
  unique,
} from '../helpers/fixtures';
import { errorsOf } from '../helpers/shapes';
import { JSONAPI, startApp, TestApp } from '../helpers/test-app';
import { addSetVar, createVarset, ids, SeenBodies, varBody, varsetBody } from './helpers';

const SECRET = 'set-secret-value-never-shown-91f2';

describe('variable sets', () => {
  let t: TestApp;
  let admin: Actor;
  let owner: Actor;
  let org: string;
  const seen = new SeenBodies();

  beforeAll(async () => {
    t = await startApp();
    admin = await bootstrapAdmin(t);
    owner = seen.watch(await createUser(t, admin));
    org = await createOrganization(owner);
  });
  afterAll(() => t.close());

  describe('create, show, update, delete', () => {
    it('creates with workspaces, projects and variables, and shows them with include', async () => {
      const prj = await createProject(owner, org);
      const ws = await createWorkspace(owner, org);
      const name = unique('creds');
      const res = await owner.api
        .post(
          `/api/v2/organizations/${org}/varsets`,
          varsetBody(
            { name, description: 'shared', global: false },
            {
              workspaces: ids('workspaces', [ws]),
              projects: ids('projects', [prj]),
              vars: {
                data: [
                  { type: 'vars', attributes: { key: 'region', value: 'eu-west-1', category: 'terraform' } },
                ],
              },
            },
          ),
        )
        .expect(201);
      const id = res.body.data.id as string;
      expect(id).toMatch(idOf('varset'));
      expect(res.headers.location).toBe(`/api/v2/varsets/${id}`);
      const varId = res.body.data.relationships.vars.data[0].id as string;
      expect(res.body.data).toEqual({
        id,
        type: 'varsets',
        attributes: {
          name,
          description: 'shared',
          global: false,
          priority: false,
          'updated-at': expect.any(String),
          'var-count': 1,
          'workspace-count': 1,
          'project-count': 1,
        },
        relationships: {
          organization: { data: { id: org, type: 'organizations' } },
          parent: { data: { id: org, type: 'organizations' } },
          vars: { data: [{ id: varId, type: 'vars' }] },
          workspaces: { data: [{ id: ws, type: 'workspaces' }] },
          projects: { data: [{ id: prj, type: 'projects' }] },
        },
        links: { self: `/api/v2/varsets/${id}` },
      });
      const shown = await owner.api.get(`/api/v2/varsets/${id}?include=vars,workspaces,projects`).expect(200);
      expect(shown.body.data).toEqual(res.body.data);
      const included = shown.body.included as {
        id: string;
        type: string;
        attributes: Record<string, unknown>;
      }[];
      expect(included.map((r) => `${r.type}:${r.id}`).sort()).toEqual(
        [`projects:${prj}`, `vars:${varId}`, `workspaces:${ws}`].sort(),
      );
      expect(included.find((r) => r.type === 'vars')).toEqual({
        id: varId,
        type: 'vars',
        attributes: {
          key: 'region',
          value: 'eu-west-1',
          description: '',
          category: 'terraform',
          hcl: false,
          sensitive: false,
          'version-id': expect.stringMatching(/^[0-9a-f]{64}$/),
        },
        relationships: { varset: { data: { id, type: 'varsets' } } },
        links: { self: `/api/v2/varsets/${id}/relationships/vars/${varId}` },
      });
    });

    it('updates attributes sent, replaces attachments, adds variables; the parent stays', async () => {
      const ws = await createWorkspace(owner, org);
      const id = await createVarset(
        owner,
        org,
        { name: unique('upd') },
        { workspaces: ids('workspaces', [ws]) },
      );
      const res = await owner.api
        .patch(
          `/api/v2/varsets/${id}`,
          varsetBody(
            { description: 'now described', priority: true },
            {
              workspaces: { data: [] },
              vars: { data: [{ type: 'vars', attributes: { key: 'K', category: 'env' } }] },
            },
          ),
        )
        .expect(200);
      expect(res.body.data.attributes).toMatchObject({
        description: 'now described',
        priority: true,
        global: false,
        'workspace-count': 0,
        'var-count': 1,
      });
      const prj = await createProject(owner, org);
      const moved = await owner.api
        .patch(`/api/v2/varsets/${id}`, varsetBody({}, { parent: { data: { type: 'projects', id: prj } } }))
        .expect(422);
      expect(moved.body).toEqual(
        errorsOf(422, { detail: 'Parent cannot be changed', pointer: '/data/relationships/parent' }),
      );
      // PUT is PATCH by another name.
      const put = await owner.api
        .put(`/api/v2/varsets/${id}`)
        .set('Content-Type', JSONAPI)
        .send(JSON.stringify(varsetBody({ description: 'via put' })))
        .expect(200);
      expect(put.body.data.attributes).toMatchObject({ description: 'via put', priority: true });
    });

    it('requires a name, unique in the organization', async () => {
      const res = await owner.api
        .post(`/api/v2/organizations/${org}/varsets`, varsetBody({ global: false }))
        .expect(422);
      expect(res.body).toEqual(
        errorsOf(422, { detail: "Name can't be blank", pointer: '/data/attributes/name' }),
      );
      const name = unique('same');
      await createVarset(owner, org, { name });
      const dup = await owner.api
        .post(`/api/v2/organizations/${org}/varsets`, varsetBody({ name: name.toUpperCase() }))
        .expect(422);
      expect(dup.body).toEqual(
        errorsOf(422, {
          detail: 'Name has already been taken',
          code: 'NAME_TAKEN',
          pointer: '/data/attributes/name',
        }),
      );
    });

    it('deletes with 204, and its variables with it', async () => {
      const id = await createVarset(owner, org, { name: unique('del') });
      const varId = await addSetVar(owner, id, { key: 'x', category: 'terraform' });
      await owner.api.delete(`/api/v2/varsets/${id}`).expect(204);
      await owner.api.get(`/api/v2/varsets/${id}`).expect(404);
      const rows: unknown[] = await t.app
        .get(DataSource)
        .query('SELECT id FROM variables WHERE id = ?', [varId]);
      expect(rows).toEqual([]);
    });

    it('lists the organization’s sets by name, searched with q, paginated', async () => {
      const other = await createOrganization(owner);
      for (const name of ['beta-one', 'Alpha-two', 'gamma-three']) await createVarset(owner, other, { name });
      const res = await owner.api.get(`/api/v2/organizations/${other}/varsets?page[size]=2`).expect(200);
      expect(res.body.data.map((d: { attributes: { name: string } }) => d.attributes.name)).toEqual([
        'Alpha-two',
        'beta-one',
      ]);
      expectPagination(res.body, { current: 1, size: 2, prev: null, next: 2, pages: 2, count: 3 });
      const q = await owner.api.get(`/api/v2/organizations/${other}/varsets?q=TWO`).expect(200);
      expect(q.body.data.map((d: { attributes: { name: string } }) => d.attributes.name)).toEqual([
        'Alpha-two',
      ]);
    });
  });

  describe('attachments', () => {
    it('applies to and removes from workspaces and projects (204), idempotently', async () => {
      const [w1, w2] = [await createWorkspace(owner, org), await createWorkspace(owner, org)];
      const prj = await createProject(owner, org);
      const id = await createVarset(owner, org, { name: unique('att') });
      await owner.api
        .post(`/api/v2/varsets/${id}/relationships/workspaces`, ids('workspaces', [w1, w2]))
        .expect(204);
      await owner.api
        .post(`/api/v2/varsets/${id}/relationships/workspaces`, ids('workspaces', [w1]))
        .expect(204);
      await owner.api
        .post(`/api/v2/varsets/${id}/relationships/projects`, ids('projects', [prj]))
        .expect(204);
      let shown = await owner.api.get(`/api/v2/varsets/${id}`).expect(200);
      expect(shown.body.data.attributes).toMatchObject({ 'workspace-count': 2, 'project-count': 1 });
      await owner.api
        .delete(`/api/v2/varsets/${id}/relationships/workspaces`, ids('workspaces', [w2]))
        .expect(204);
      await owner.api
        .delete(`/api/v2/varsets/${id}/relationships/projects`, ids('projects', [prj]))
        .expect(204);
      shown = await owner.api.get(`/api/v2/varsets/${id}`).expect(200);
      expect(shown.body.data.relationships.workspaces.data).toEqual([{ id: w1, type: 'workspaces' }]);
      expect(shown.body.data.attributes['project-count']).toBe(0);
    });

    it('refuses workspaces of another organization (404) and any attachment of a global set (422)', async () => {
      const otherOrg = await createOrganization(owner);
      const foreign = await createWorkspace(owner, otherOrg);
      const id = await createVarset(owner, org, { name: unique('att') });
      await owner.api
        .post(`/api/v2/varsets/${id}/relationships/workspaces`, ids('workspaces', [foreign]))
        .expect(404);
      const globalId = await createVarset(owner, org, { name: unique('glob'), global: true });
      const ws = await createWorkspace(owner, org);
      await owner.api
        .post(`/api/v2/varsets/${globalId}/relationships/workspaces`, ids('workspaces', [ws]))
        .expect(422);
    });

    it('lists the sets reaching a workspace (global, its own, its project’s) and a project', async () => {
      const local = await createOrganization(owner);
      const prj = await createProject(owner, local);
      const ws = await createWorkspace(owner, local, unique('ws'), prj);
      const lone = await createWorkspace(owner, local);
      const g = await createVarset(owner, local, { name: 'g', global: true });
      const direct = await createVarset(
        owner,
        local,
        { name: 'direct' },
        { workspaces: ids('workspaces', [ws]) },
      );
      const viaProject = await createVarset(
        owner,
        local,
        { name: 'via' },
        { projects: ids('projects', [prj]) },
      );
      await createVarset(owner, local, { name: 'unrelated' }, { workspaces: ids('workspaces', [lone]) });
      const names = (res: { body: { data: { id: string }[] } }) => res.body.data.map((d) => d.id);
      expect(names(await owner.api.get(`/api/v2/workspaces/${ws}/varsets`).expect(200))).toEqual([
        direct,
        g,
        viaProject,
      ]);
      expect(names(await owner.api.get(`/api/v2/projects/${prj}/varsets`).expect(200))).toEqual([
        g,
        viaProject,
      ]);
    });
  });

  describe('owned by a project', () => {
    it('is not global, and reaches only its project and the project’s workspaces', async () => {
      const prj = await createProject(owner, org);
      const inside = await createWorkspace(owner, org, unique('ws'), prj);
      const outside = await createWorkspace(owner, org);
      const parent = { parent: { data: { type: 'projects', id: prj } } };
      const refused = await owner.api
        .post(`/api/v2/organizations/${org}/varsets`, varsetBody({ name: unique('p'), global: true }, parent))
        .expect(422);
      expect(refused.body).toEqual(
        errorsOf(422, {
          detail: 'Global must be false for a variable set owned by a project',
          pointer: '/data/attributes/global',
        }),
      );
      const res = await owner.api
        .post(`/api/v2/organizations/${org}/varsets`, varsetBody({ name: unique('p') }, parent))
        .expect(201);
      const id = res.body.data.id as string;
      expect(res.body.data.relationships.parent).toEqual({ data: { id: prj, type: 'projects' } });
      await owner.api
        .post(`/api/v2/varsets/${id}/relationships/workspaces`, ids('workspaces', [inside]))
        .expect(204);
      await owner.api
        .post(`/api/v2/varsets/${id}/relationships/projects`, ids('projects', [prj]))
        .expect(204);
      await owner.api
        .post(`/api/v2/varsets/${id}/relationships/workspaces`, ids('workspaces', [outside]))
        .expect(422);
    });
  });

  describe('set variables', () => {
    let id: string;

    beforeAll(async () => {
      id = await createVarset(owner, org, { name: unique('vars') });
    });

    it('follow the workspace variable rules; the category cannot change', async () => {
      const varId = await addSetVar(owner, id, { key: 'image', value: 'ami-1', category: 'terraform' });
      const dup = await owner.api
        .post(`/api/v2/varsets/${id}/relationships/vars`, varBody({ key: 'image', category: 'terraform' }))
        .expect(422);
      expect(dup.body).toEqual(
        errorsOf(422, {
          detail: 'Key has already been taken',
          code: 'KEY_TAKEN',
          pointer: '/data/attributes/key',
        }),
      );
      await owner.api
        .post(`/api/v2/varsets/${id}/relationships/vars`, varBody({ key: '1bad', category: 'env' }))
        .expect(422);
      const changed = await owner.api
        .patch(`/api/v2/varsets/${id}/relationships/vars/${varId}`, varBody({ category: 'env' }, varId))
        .expect(422);
      expect(changed.body).toEqual(
        errorsOf(422, { detail: 'Category cannot be changed', pointer: '/data/attributes/category' }),
      );
      const patched = await owner.api
        .patch(`/api/v2/varsets/${id}/relationships/vars/${varId}`, varBody({ value: 'ami-2' }, varId))
        .expect(200);
      expect(patched.body.data.attributes.value).toBe('ami-2');
      const list = await owner.api.get(`/api/v2/varsets/${id}/relationships/vars`).expect(200);
      expect(list.body.data.map((d: { id: string }) => d.id)).toEqual([varId]);
      await owner.api.get(`/api/v2/varsets/${id}/relationships/vars/${varId}`).expect(200);
      await owner.api.delete(`/api/v2/varsets/${id}/relationships/vars/${varId}`).expect(204);
      await owner.api.get(`/api/v2/varsets/${id}/relationships/vars/${varId}`).expect(404);
    });

    it('an update adding a key the set holds is refused as a taken key, a taken name as a taken name', async () => {
      const setId = await createVarset(owner, org, { name: unique('dupkey') });
      await addSetVar(owner, setId, { key: 'region', category: 'terraform' });
      const addVar = {
        vars: { data: [{ type: 'vars', attributes: { key: 'region', category: 'terraform' } }] },
      };
      const dupKey = await owner.api.patch(`/api/v2/varsets/${setId}`, varsetBody({}, addVar)).expect(422);
      expect(dupKey.body).toEqual(
        errorsOf(422, {
          code: 'KEY_TAKEN',
          detail: 'Key has already been taken',
          pointer: '/data/attributes/key',
        }),
      );
      const taken = unique('taken');
      await createVarset(owner, org, { name: taken });
      const other = { vars: { data: [{ type: 'vars', attributes: { key: 'zone', category: 'env' } }] } };
      const dupName = await owner.api
        .patch(`/api/v2/varsets/${setId}`, varsetBody({ name: taken }, other))
        .expect(422);
      expect(dupName.body).toEqual(
        errorsOf(422, {
          code: 'NAME_TAKEN',
          detail: 'Name has already been taken',
          pointer: '/data/attributes/name',
        }),
      );
      const vars = await owner.api.get(`/api/v2/varsets/${setId}/relationships/vars`).expect(200);
      expect(vars.body.data.map((d: { attributes: { key: string } }) => d.attributes.key)).toEqual([
        'region',
      ]);
    });

    it('keep a sensitive value out of every answer (lists, includes) and out of the table', async () => {
      const varId = await addSetVar(owner, id, {
        key: 'password',
        value: SECRET,
        category: 'terraform',
        sensitive: true,
      });
      await owner.api.get(`/api/v2/varsets/${id}/relationships/vars/${varId}`).expect(200);
      await owner.api.get(`/api/v2/varsets/${id}/relationships/vars`).expect(200);
      const inc = await owner.api.get(`/api/v2/varsets/${id}?include=vars`).expect(200);
      expect(inc.body.included.find((r: { id: string }) => r.id === varId).attributes.value).toBeNull();
      await owner.api.get(`/api/v2/organizations/${org}/varsets?include=vars&page[size]=100`).expect(200);
      const rows: Record<string, unknown>[] = await t.app.get(DataSource).query('SELECT * FROM variables');
      expect(JSON.stringify(rows)).not.toContain(SECRET);
      expect(seen.containing(SECRET)).toEqual([]);
    });
  });

  describe('global sets', () => {
    it('may not share a key and category with another global set (422), wherever the clash comes from', async () => {
      const local = await createOrganization(owner);
      const a = await createVarset(owner, local, { name: 'a', global: true });
      await addSetVar(owner, a, { key: 'region', category: 'terraform' });
      const b = await createVarset(owner, local, { name: 'b', global: true });
      const clash = await owner.api
        .post(`/api/v2/varsets/${b}/relationships/vars`, varBody({ key: 'region', category: 'terraform' }))
        .expect(422);
      expect(clash.body).toEqual(
        errorsOf(422, {
          detail: 'Variable region (terraform) conflicts with a variable of the global variable set a',
          pointer: '/data/attributes/key',
        }),
      );
      // Another category, or a set that is not global, is no clash.
      await addSetVar(owner, b, { key: 'region', category: 'env' });
      const c = await createVarset(owner, local, { name: 'c' });
      await addSetVar(owner, c, { key: 'region', category: 'terraform' });
      await owner.api.patch(`/api/v2/varsets/${c}`, varsetBody({ global: true })).expect(422);
      await owner.api
        .post(
          `/api/v2/organizations/${local}/varsets`,
          varsetBody(
            { name: 'd', global: true },
            { vars: { data: [{ type: 'vars', attributes: { key: 'region', category: 'terraform' } }] } },
          ),
        )
        .expect(422);
      const shown = await owner.api.get(`/api/v2/varsets/${c}`).expect(200);
      expect(shown.body.data.attributes.global).toBe(false);
      // Renaming a variable onto the clash is refused too.
      const other = await addSetVar(owner, b, { key: 'zone', category: 'terraform' });
      await owner.api
        .patch(`/api/v2/varsets/${b}/relationships/vars/${other}`, varBody({ key: 'region' }, other))
        .expect(422);
    });
  });

  describe('permissions', () => {
    let setId: string;
    let ws: string;

    beforeAll(async () => {
      ws = await createWorkspace(owner, org);
      setId = await createVarset(
        owner,
        org,
        { name: unique('perm') },
        { workspaces: ids('workspaces', [ws]) },
      );
    });

    it.each([
      [['manage-variable-sets'], 200, 201],
      [['manage-workspaces'], 200, 201],
      [['read-workspaces'], 200, 404],
      [['manage-projects'], 404, 404],
      [[], 404, 404],
    ] as const)('a team with %j reads sets with %i and creates with %i', async (flags, read, write) => {
      const member = await memberWith(t, admin, owner, org, [...flags]);
      await member.api.get(`/api/v2/organizations/${org}/varsets`).expect(read);
      await member.api.get(`/api/v2/varsets/${setId}`).expect(read);
      await member.api.get(`/api/v2/varsets/${setId}/relationships/vars`).expect(read);
      await member.api
        .post(`/api/v2/organizations/${org}/varsets`, varsetBody({ name: unique('m') }))
        .expect(write);
      const change = write === 201 ? 204 : 404;
      await member.api
        .post(`/api/v2/varsets/${setId}/relationships/workspaces`, ids('workspaces', [ws]))
        .expect(change);
      await member.api
        .post(
          `/api/v2/varsets/${setId}/relationships/vars`,
          varBody({ key: unique('k').replace(/-/g, '_'), category: 'env' }),
        )
        .expect(write);
    });

    it('manage-projects manages the sets its projects own', async () => {
      const prj = await createProject(owner, org);
      const member = await memberWith(t, admin, owner, org, ['manage-projects']);
      await member.api
        .post(
          `/api/v2/organizations/${org}/varsets`,
          varsetBody({ name: unique('own') }, { parent: { data: { type: 'projects', id: prj } } }),
        )
        .expect(201);
    });

    it('read access to a workspace lists the sets reaching it', async () => {
      const member = await memberWith(t, admin, owner, org);
      await member.api.get(`/api/v2/workspaces/${ws}/varsets`).expect(404);
      await grantWorkspace(owner, member.teamId, ws, 'read');
      const res = await member.api.get(`/api/v2/workspaces/${ws}/varsets`).expect(200);
      expect(res.body.data.map((d: { id: string }) => d.id)).toContain(setId);
    });

    it('hides every set and route from another organization (bare 404)', async () => {
      const outsider = await createUser(t, admin);
      await createOrganization(outsider);
      for (const res of [
        await outsider.api.get(`/api/v2/organizations/${org}/varsets`),
        await outsider.api.post(`/api/v2/organizations/${org}/varsets`, varsetBody({ name: 'x' })),
        await outsider.api.get(`/api/v2/varsets/${setId}`),
        await outsider.api.patch(`/api/v2/varsets/${setId}`, varsetBody({ name: 'x' })),
        await outsider.api.delete(`/api/v2/varsets/${setId}`),
        await outsider.api.get(`/api/v2/varsets/${setId}/relationships/vars`),
        await outsider.api.post(
          `/api/v2/varsets/${setId}/relationships/vars`,
          varBody({ key: 'k', category: 'env' }),
        ),
        await outsider.api.post(`/api/v2/varsets/${setId}/relationships/workspaces`, ids('workspaces', [ws])),
        await outsider.api.get(`/api/v2/workspaces/${ws}/varsets`),
        await outsider.api.get(`/api/v2/workspaces/${ws}/all-vars`),
      ]) {
        expect(res.status).toBe(404);
        expect(res.body).toEqual({ errors: [{ status: '404', title: 'not found' }] });
      }
    });
  });
});
