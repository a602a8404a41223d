import {
  Actor,
  createOrganization,
  createProject,
  createUser,
  createWorkspace,
  expectPagination,
  grantWorkspace,
  idOf,
  memberWith,
  unique,
  startWithOwnedOrganization,
} from '../helpers/fixtures';
import { TestApp } from '../helpers/test-app';
import { errorsOf, projectShape } from '../helpers/shapes';

describe('projects', () => {
  let t: TestApp;
  let admin: Actor;
  let owner: Actor;
  let org: string;

  beforeAll(async () => {
    ({ t, admin, owner, org } = await startWithOwnedOrganization());
  });
  afterAll(() => t.close());

  const body = (attributes: Record<string, unknown>) => ({ data: { type: 'projects', attributes } });
  const defaultProjectOf = async (name: string): Promise<string> => {
    const res = await owner.api
      .get(`/api/v2/organizations/${name}/projects?search[name]=Default`)
      .expect(200);
    return res.body.data[0].id;
  };

  it('creates a project and shows it with the same shape', async () => {
    const name = unique('Core Platform');
    const created = await owner.api
      .post(`/api/v2/organizations/${org}/projects`, body({ name, description: 'the core' }))
      .expect(201);
    const id = created.body.data.id as string;
    expect(id).toMatch(idOf('prj'));
    expect(created.body).toEqual({ data: projectShape(id, org, { name, description: 'the core' }) });

    const shown = await owner.api.get(`/api/v2/projects/${id}`).expect(200);
    expect(shown.body).toEqual(created.body);
  });

  it('counts the workspaces of each project', async () => {
    const local = await createOrganization(owner);
    const prj = await createProject(owner, local, 'zz-counted');
    await createWorkspace(owner, local, unique('w'), prj);
    await createWorkspace(owner, local, unique('w'), prj);
    const res = await owner.api.get(`/api/v2/organizations/${local}/projects`).expect(200);
    expect(res.body.data).toEqual([
      projectShape(res.body.data[0].id, local, { name: 'Default Project' }),
      projectShape(prj, local, { name: 'zz-counted', workspaceCount: 2 }),
    ]);
    expectPagination(res.body, { current: 1, size: 20, prev: null, next: null, pages: 1, count: 2 });
    const one = await owner.api.get(`/api/v2/projects/${prj}`).expect(200);
    expect(one.body.data.attributes['workspace-count']).toBe(2);
  });

  it('searches projects by name', async () => {
    const local = await createOrganization(owner);
    await createProject(owner, local, 'alpha-one');
    await createProject(owner, local, 'beta-two');
    const res = await owner.api.get(`/api/v2/organizations/${local}/projects?search[name]=ALPHA`).expect(200);
    expect(res.body.data.map((p: { attributes: { name: string } }) => p.attributes.name)).toEqual([
      'alpha-one',
    ]);
    expect(res.body.links.self).toContain('search%5Bname%5D=ALPHA');
    const wildcard = await owner.api
      .get(`/api/v2/organizations/${local}/projects?search[name]=%25`)
      .expect(200);
    expect(wildcard.body.data).toEqual([]);
  });

  it('updates name and description; omitted attributes keep their values', async () => {
    const id = await createProject(owner, org, unique('before'));
    const renamed = unique('after');
    const res = await owner.api
      .patch(`/api/v2/projects/${id}`, body({ name: renamed, description: 'now described' }))
      .expect(200);
    expect(res.body).toEqual({
      data: projectShape(id, org, { name: renamed, description: 'now described' }),
    });
    const cleared = await owner.api.patch(`/api/v2/projects/${id}`, body({ description: null })).expect(200);
    expect(cleared.body.data.attributes).toMatchObject({ name: renamed, description: null });
  });

  it('refuses a name already taken in the organization, but not in another one', async () => {
    const name = unique('shared');
    await createProject(owner, org, name);
    const dup = await owner.api.post(`/api/v2/organizations/${org}/projects`, body({ name })).expect(422);
    expect(dup.body).toEqual(
      errorsOf(422, {
        detail: 'Name has already been taken',
        code: 'NAME_TAKEN',
        pointer: '/data/attributes/name',
      }),
    );
    const other = await createProject(owner, org, unique('other'));
    await owner.api.patch(`/api/v2/projects/${other}`, body({ name })).expect(422);
    await createProject(owner, await createOrganization(owner), name);
  });

  it('validates names', async () => {
    const res = await owner.api
      .post(`/api/v2/organizations/${org}/projects`, body({ name: 'ab' }))
      .expect(422);
    expect(res.body).toEqual(
      errorsOf(422, {
        detail: 'Name is too short (minimum is 3 characters)',
        pointer: '/data/attributes/name',
      }),
    );
    const typed = await owner.api
      .post(`/api/v2/organizations/${org}/projects`, body({ name: 42, description: ['x'] }))
      .expect(422);
    expect(typed.body).toEqual(
      errorsOf(
        422,
        { detail: 'Name must be a string', pointer: '/data/attributes/name' },
        { detail: 'Description must be a string', pointer: '/data/attributes/description' },
      ),
    );
  });

  it('deletes an empty project, but not the default one or one with workspaces', async () => {
    const id = await createProject(owner, org);
    await owner.api.delete(`/api/v2/projects/${id}`).expect(204);
    await owner.api.get(`/api/v2/projects/${id}`).expect(404);

    const def = await defaultProjectOf(org);
    const refused = await owner.api.delete(`/api/v2/projects/${def}`).expect(422);
    expect(refused.body).toEqual(errorsOf(422, { detail: 'The default project cannot be deleted' }));

    const busy = await createProject(owner, org);
    await createWorkspace(owner, org, unique('w'), busy);
    const stillUsed = await owner.api.delete(`/api/v2/projects/${busy}`).expect(422);
    expect(stillUsed.body).toEqual(
      errorsOf(422, { detail: 'Project still has workspaces; move or delete them first' }),
    );
  });

  it('needs manage-projects to create, update or delete', async () => {
    const reader = await memberWith(t, admin, owner, org, ['read-projects']);
    const manager = await memberWith(t, admin, owner, org, ['manage-projects']);
    await reader.api.post(`/api/v2/organizations/${org}/projects`, body({ name: unique('no') })).expect(404);
    const id = await createProject(manager, org);
    await reader.api.patch(`/api/v2/projects/${id}`, body({ description: 'x' })).expect(404);
    await reader.api.delete(`/api/v2/projects/${id}`).expect(404);
    await reader.api.get(`/api/v2/projects/${id}`).expect(200);
    await manager.api.patch(`/api/v2/projects/${id}`, body({ description: 'x' })).expect(200);
    await manager.api.delete(`/api/v2/projects/${id}`).expect(204);
  });

  it('shows a member without project rights only the projects holding workspaces their teams can access', async () => {
    const local = await createOrganization(owner);
    const visible = await createProject(owner, local, 'visible');
    const hidden = await createProject(owner, local, 'hidden');
    const ws = await createWorkspace(owner, local, unique('w'), visible);
    await createWorkspace(owner, local, unique('w'), hidden);
    const member = await memberWith(t, admin, owner, local);
    await grantWorkspace(owner, member.teamId, ws, 'read');

    const res = await member.api.get(`/api/v2/organizations/${local}/projects`).expect(200);
    expect(res.body.data).toEqual([projectShape(visible, local, { name: 'visible', workspaceCount: 1 })]);
    expectPagination(res.body, { current: 1, size: 20, prev: null, next: null, pages: 1, count: 1 });
    await member.api.get(`/api/v2/projects/${visible}`).expect(200);
    await member.api.get(`/api/v2/projects/${hidden}`).expect(404);
  });

  it('answers 404 across organizations and for missing projects', async () => {
    const id = await createProject(owner, org);
    const stranger = await createUser(t, admin);
    const theirs = await createOrganization(stranger);
    await stranger.api.get(`/api/v2/projects/${id}`).expect(404);
    await stranger.api.patch(`/api/v2/projects/${id}`, body({ description: 'x' })).expect(404);
    await stranger.api.delete(`/api/v2/projects/${id}`).expect(404);
    await stranger.api.get(`/api/v2/organizations/${org}/projects`).expect(404);
    await owner.api.get(`/api/v2/organizations/${theirs}/projects`).expect(404);
    expect((await owner.api.get('/api/v2/projects/prj-0000000000000000').expect(404)).body).toEqual(
      errorsOf(404),
    );
  });
});
