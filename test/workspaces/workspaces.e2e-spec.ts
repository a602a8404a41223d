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
import { createCatalogVersion } from '../admin-catalogs/catalog-helpers';
import { startApp, TestApp } from '../helpers/test-app';
import {
  Level,
  errorsOf,
  organizationShape,
  projectShape,
  workspacePermissions,
  workspaceShape,
} from '../helpers/shapes';

describe('workspaces', () => {
  let t: TestApp;
  let admin: Actor;
  let owner: Actor;
  let org: string;
  let defaultProject: string;

  beforeAll(async () => {
    t = await startApp();
    admin = await bootstrapAdmin(t);
    for (const version of ['1.9.2', '1.5.0']) await createCatalogVersion(admin, 'engine-versions', version);
    owner = await createUser(t, admin);
    org = await createOrganization(owner);
    const projects = await owner.api.get(`/api/v2/organizations/${org}/projects`).expect(200);
    defaultProject = projects.body.data[0].id;
  });
  afterAll(() => t.close());

  const body = (attributes: Record<string, unknown>, projectId?: string) => ({
    data: {
      type: 'workspaces',
      attributes,
      ...(projectId ? { relationships: { project: { data: { type: 'projects', id: projectId } } } } : {}),
    },
  });

  it('creates a workspace in the Default Project unless told otherwise', async () => {
    const name = unique('net');
    const res = await owner.api
      .post(`/api/v2/organizations/${org}/workspaces`, body({ name, description: 'network' }))
      .expect(201);
    const id = res.body.data.id as string;
    expect(id).toMatch(idOf('ws'));
    expect(res.body).toEqual({
      data: workspaceShape(id, org, defaultProject, { name, description: 'network' }),
    });
  });

  it('creates a workspace in the project its relationship names', async () => {
    const prj = await createProject(owner, org);
    const name = unique('app');
    const res = await owner.api
      .post(`/api/v2/organizations/${org}/workspaces`, body({ name, 'engine-version': '1.9.2' }, prj))
      .expect(201);
    expect(res.body).toEqual({
      data: workspaceShape(res.body.data.id, org, prj, { name, engineVersion: '1.9.2' }),
    });
  });

  it('shows a workspace by name and by id with the same shape', async () => {
    const name = unique('same');
    const id = await createWorkspace(owner, org, name);
    const byName = await owner.api.get(`/api/v2/organizations/${org}/workspaces/${name}`).expect(200);
    const byId = await owner.api.get(`/api/v2/workspaces/${id}`).expect(200);
    expect(byName.body).toEqual({ data: workspaceShape(id, org, defaultProject, { name }) });
    expect(byId.body).toEqual(byName.body);
    expect(byName.body).not.toHaveProperty('included');
  });

  it('lists workspaces by name, filtered by project and searched by name', async () => {
    const local = await createOrganization(owner);
    const prj = await createProject(owner, local);
    const a = await createWorkspace(owner, local, 'alpha-app');
    const b = await createWorkspace(owner, local, 'beta-app', prj);
    await createWorkspace(owner, local, 'gamma-db', prj);

    const all = await owner.api.get(`/api/v2/organizations/${local}/workspaces`).expect(200);
    expect(all.body.data.map((w: { attributes: { name: string } }) => w.attributes.name)).toEqual([
      'alpha-app',
      'beta-app',
      'gamma-db',
    ]);
    expectPagination(all.body, { current: 1, size: 20, prev: null, next: null, pages: 1, count: 3 });

    const inProject = await owner.api
      .get(`/api/v2/organizations/${local}/workspaces?filter[project][id]=${prj}&search[name]=app`)
      .expect(200);
    expect(inProject.body.data).toEqual([workspaceShape(b, local, prj, { name: 'beta-app' })]);
    expect(inProject.body.links.self).toContain(`filter%5Bproject%5D%5Bid%5D=${prj}`);

    const searched = await owner.api
      .get(`/api/v2/organizations/${local}/workspaces?search[name]=ALPHA`)
      .expect(200);
    expect(searched.body.data.map((w: { id: string }) => w.id)).toEqual([a]);
  });

  it('updates a workspace by name and by id; omitted attributes keep their values', async () => {
    const name = unique('upd');
    const id = await createWorkspace(owner, org, name);
    const renamed = unique('renamed');
    const byName = await owner.api
      .patch(`/api/v2/organizations/${org}/workspaces/${name}`, body({ name: renamed, description: 'd' }))
      .expect(200);
    expect(byName.body).toEqual({
      data: workspaceShape(id, org, defaultProject, { name: renamed, description: 'd' }),
    });
    await owner.api.get(`/api/v2/organizations/${org}/workspaces/${name}`).expect(404);

    const byId = await owner.api
      .patch(`/api/v2/workspaces/${id}`, body({ 'engine-version': '1.5.0' }))
      .expect(200);
    expect(byId.body).toEqual({
      data: workspaceShape(id, org, defaultProject, {
        name: renamed,
        description: 'd',
        engineVersion: '1.5.0',
      }),
    });
  });

  it('moves a workspace to another project of the organization', async () => {
    const id = await createWorkspace(owner, org);
    const target = await createProject(owner, org);
    const moved = await owner.api.patch(`/api/v2/workspaces/${id}`, body({}, target)).expect(200);
    expect(moved.body.data.relationships.project).toEqual({ data: { id: target, type: 'projects' } });
    const prj = await owner.api.get(`/api/v2/projects/${target}`).expect(200);
    expect(prj.body.data.attributes['workspace-count']).toBe(1);

    const elsewhere = await createOrganization(owner);
    const foreign = await createProject(owner, elsewhere);
    const refused = await owner.api.patch(`/api/v2/workspaces/${id}`, body({}, foreign)).expect(422);
    expect(refused.body).toEqual(
      errorsOf(422, { detail: 'Project not found', pointer: '/data/relationships/project/data/id' }),
    );
    const wrongType = await owner.api
      .patch(`/api/v2/workspaces/${id}`, {
        data: { type: 'workspaces', relationships: { project: { data: { type: 'teams', id: target } } } },
      })
      .expect(422);
    expect(wrongType.body).toEqual(
      errorsOf(422, { detail: 'Type must be projects', pointer: '/data/relationships/project/data/type' }),
    );
    const still = await owner.api.get(`/api/v2/workspaces/${id}`).expect(200);
    expect(still.body.data.relationships.project.data.id).toBe(target);
  });

  it('refuses a name already taken in the organization', async () => {
    const name = unique('dup');
    await createWorkspace(owner, org, name);
    const res = await owner.api.post(`/api/v2/organizations/${org}/workspaces`, body({ name })).expect(422);
    expect(res.body).toEqual(
      errorsOf(422, {
        detail: 'Name has already been taken',
        code: 'NAME_TAKEN',
        pointer: '/data/attributes/name',
      }),
    );
    const other = await createWorkspace(owner, org);
    await owner.api.patch(`/api/v2/workspaces/${other}`, body({ name })).expect(422);
    await createWorkspace(owner, await createOrganization(owner), name);
  });

  it('ends ten concurrent creates of one name in exactly one workspace and 422s', async () => {
    const name = unique('race');
    const results = await Promise.all(
      Array.from({ length: 10 }, () =>
        owner.api.post(`/api/v2/organizations/${org}/workspaces`, body({ name })),
      ),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([201, ...Array(9).fill(422)]);
    for (const r of results.filter((x) => x.status === 422)) {
      expect(r.body).toEqual(
        errorsOf(422, {
          detail: 'Name has already been taken',
          code: 'NAME_TAKEN',
          pointer: '/data/attributes/name',
        }),
      );
    }
    const list = await owner.api
      .get(`/api/v2/organizations/${org}/workspaces?search[name]=${name}`)
      .expect(200);
    expect(list.body.meta.pagination['total-count']).toBe(1);
  });

  it('validates names, descriptions and engine versions', async () => {
    const res = await owner.api
      .post(`/api/v2/organizations/${org}/workspaces`, body({ name: 'bad name', 'engine-version': 'newest' }))
      .expect(422);
    expect(res.body).toEqual(
      errorsOf(
        422,
        { detail: 'Name is invalid: use letters, numbers, - and _', pointer: '/data/attributes/name' },
        {
          detail: 'Engine version is invalid: use latest or N.N.N',
          pointer: '/data/attributes/engine-version',
        },
      ),
    );
    const id = await createWorkspace(owner, org);
    const nulled = await owner.api.patch(`/api/v2/workspaces/${id}`, body({ name: null })).expect(422);
    expect(nulled.body).toEqual(
      errorsOf(422, { detail: "Name can't be blank", pointer: '/data/attributes/name' }),
    );
  });

  it('deletes a workspace by name and by id', async () => {
    const name = unique('gone');
    const a = await createWorkspace(owner, org, name);
    await owner.api.delete(`/api/v2/organizations/${org}/workspaces/${name}`).expect(204);
    await owner.api.get(`/api/v2/workspaces/${a}`).expect(404);
    const b = await createWorkspace(owner, org);
    await owner.api.delete(`/api/v2/workspaces/${b}`).expect(204);
    await owner.api.get(`/api/v2/workspaces/${b}`).expect(404);
    await owner.api.delete(`/api/v2/workspaces/${b}`).expect(404);
  });

  describe('access', () => {
    it.each<[Level, boolean]>([
      ['read', false],
      ['plan', false],
      ['write', false],
      ['admin', true],
    ])('shows %s access in the permissions and lets only admins change it', async (level, canUpdate) => {
      const name = unique('acc');
      const id = await createWorkspace(owner, org, name);
      const member = await memberWith(t, admin, owner, org);
      await grantWorkspace(owner, member.teamId, id, level);

      const res = await member.api.get(`/api/v2/workspaces/${id}`).expect(200);
      expect(res.body).toEqual({ data: workspaceShape(id, org, defaultProject, { name, level }) });
      await member.api
        .patch(`/api/v2/workspaces/${id}`, body({ description: 'x' }))
        .expect(canUpdate ? 200 : 404);
    });

    it('lists to a member only the workspaces their teams can access', async () => {
      const local = await createOrganization(owner);
      const seen = await createWorkspace(owner, local, 'seen');
      await createWorkspace(owner, local, 'unseen');
      const member = await memberWith(t, admin, owner, local);
      await grantWorkspace(owner, member.teamId, seen, 'plan');

      const res = await member.api.get(`/api/v2/organizations/${local}/workspaces`).expect(200);
      expect(res.body.data.map((w: { id: string }) => w.id)).toEqual([seen]);
      expect(res.body.data[0].attributes.permissions).toEqual(workspacePermissions('plan'));
      expectPagination(res.body, { current: 1, size: 20, prev: null, next: null, pages: 1, count: 1 });
      await member.api.get(`/api/v2/organizations/${local}/workspaces/unseen`).expect(404);
    });

    it('lets read-workspaces read every workspace and manage-workspaces administer them', async () => {
      const local = await createOrganization(owner);
      const id = await createWorkspace(owner, local, 'any');
      const reader = await memberWith(t, admin, owner, local, ['read-workspaces']);
      const manager = await memberWith(t, admin, owner, local, ['manage-workspaces']);

      const read = await reader.api.get(`/api/v2/organizations/${local}/workspaces`).expect(200);
      expect(read.body.data[0].attributes.permissions['can-update']).toBe(false);
      await reader.api.post(`/api/v2/organizations/${local}/workspaces`, body({ name: 'no' })).expect(404);
      await reader.api.delete(`/api/v2/workspaces/${id}`).expect(404);

      const created = await manager.api
        .post(`/api/v2/organizations/${local}/workspaces`, body({ name: 'managed' }))
        .expect(201);
      expect(created.body.data.attributes.permissions['can-destroy']).toBe(true);
      await manager.api.delete(`/api/v2/workspaces/${id}`).expect(204);
    });

    it('answers 404 across organizations', async () => {
      const name = unique('private');
      const id = await createWorkspace(owner, org, name);
      const stranger = await createUser(t, admin);
      await createOrganization(stranger);
      await stranger.api.get(`/api/v2/workspaces/${id}`).expect(404);
      await stranger.api.get(`/api/v2/organizations/${org}/workspaces/${name}`).expect(404);
      await stranger.api.get(`/api/v2/organizations/${org}/workspaces`).expect(404);
      await stranger.api.patch(`/api/v2/workspaces/${id}`, body({ description: 'x' })).expect(404);
      await stranger.api.delete(`/api/v2/workspaces/${id}`).expect(404);
      await stranger.api
        .post(`/api/v2/organizations/${org}/workspaces`, body({ name: unique('x') }))
        .expect(404);
    });
  });

  describe('include', () => {
    /** With projects included too, the included organization leaves its default-project linkage out. */
    const withoutDefaultProject = <T extends { relationships: Record<string, unknown> }>(shape: T): T => {
      const relationships = { ...shape.relationships };
      delete relationships['default-project'];
      return { ...shape, relationships };
    };

    it('includes the project and the organization on show, by id and by name', async () => {
      const prj = await createProject(owner, org, unique('inc'));
      const name = unique('inc-ws');
      const id = await createWorkspace(owner, org, name, prj);
      const project = (await owner.api.get(`/api/v2/projects/${prj}`).expect(200)).body.data;

      const res = await owner.api.get(`/api/v2/workspaces/${id}?include=project,organization`).expect(200);
      expect(res.body).toEqual({
        data: workspaceShape(id, org, prj, { name }),
        included: [
          projectShape(prj, org, { name: project.attributes.name, workspaceCount: 1 }),
          withoutDefaultProject(organizationShape(org)),
        ],
      });
      const byName = await owner.api
        .get(`/api/v2/organizations/${org}/workspaces/${name}?include=organization`)
        .expect(200);
      expect(byName.body.included).toEqual([organizationShape(org)]);
    });

    it('includes each related resource once in a list', async () => {
      const local = await createOrganization(owner);
      const prj = await createProject(owner, local, 'shared-project');
      await createWorkspace(owner, local, 'one', prj);
      await createWorkspace(owner, local, 'two', prj);
      const def = (await owner.api.get(`/api/v2/organizations/${local}/projects?search[name]=Default`)).body
        .data[0].id as string;
      await createWorkspace(owner, local, 'three');

      const res = await owner.api
        .get(`/api/v2/organizations/${local}/workspaces?include=project,organization`)
        .expect(200);
      expect(res.body.data).toHaveLength(3);
      expect(res.body.included).toEqual([
        projectShape(prj, local, { name: 'shared-project', workspaceCount: 2 }),
        projectShape(def, local, { name: 'Default Project', workspaceCount: 1 }),
        withoutDefaultProject(organizationShape(local)),
      ]);
      expect(res.body.links.self).toContain('include=project%2Corganization');
    });

    it('gives an empty included array when the page is empty', async () => {
      const local = await createOrganization(owner);
      const res = await owner.api
        .get(`/api/v2/organizations/${local}/workspaces?include=project`)
        .expect(200);
      expect(res.body.data).toEqual([]);
      expect(res.body.included).toEqual([]);
    });

    it('shows members who are not owners the organization without update rights', async () => {
      const local = await createOrganization(owner);
      const id = await createWorkspace(owner, local, 'shared');
      const member = await memberWith(t, admin, owner, local);
      await grantWorkspace(owner, member.teamId, id, 'read');
      const res = await member.api.get(`/api/v2/workspaces/${id}?include=organization,project`).expect(200);
      expect(res.body.included).toEqual([
        expect.objectContaining({ type: 'projects', id: res.body.data.relationships.project.data.id }),
        withoutDefaultProject(organizationShape(local, { owner: false })),
      ]);
    });

    it('refuses an unknown include with a 400 naming the include parameter', async () => {
      const id = await createWorkspace(owner, org);
      const res = await owner.api.get(`/api/v2/workspaces/${id}?include=project,runs`).expect(400);
      expect(res.body).toEqual(
        errorsOf(400, {
          detail:
            'include parameter contains unknown value runs; allowed: project, organization, effective-tag-bindings, locked-by, current-run, current-run.plan, current-run.configuration-version, current-configuration-version, current-state-version, outputs, readme',
          parameter: 'include',
        }),
      );
      await owner.api.get(`/api/v2/organizations/${org}/workspaces?include=projects`).expect(400);
    });
  });
});
