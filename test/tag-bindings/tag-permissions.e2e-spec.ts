import {
  Actor,
  createProject,
  createTeam,
  createUser,
  createWorkspace,
  addToTeam,
  grantWorkspace,
  memberWith,
  createOrganizationToken,
  tagBindingList,
  unique,
  startWithOwnedOrganization,
} from '../helpers/fixtures';
import { client, TestApp } from '../helpers/test-app';

type Status = 200 | 404;

interface Expectation {
  readProject: Status;
  writeProject: Status;
  readWorkspace: Status;
  writeWorkspace: Status;
}

describe('who may read and write tag bindings', () => {
  let t: TestApp;
  let admin: Actor;
  let owner: Actor;
  let org: string;
  let projectId: string;
  let ws: string;
  const actors: Record<string, Actor> = {};

  beforeAll(async () => {
    ({ t, admin, owner, org } = await startWithOwnedOrganization());
    projectId = await createProject(owner, org);
    ws = await createWorkspace(owner, org, unique('ws'), projectId);
    await owner.api
      .patch(`/api/v2/projects/${projectId}/tag-bindings`, { data: tagBindingList({ env: 'prod' }) })
      .expect(200);
    await owner.api
      .patch(`/api/v2/workspaces/${ws}/tag-bindings`, { data: tagBindingList({ app: 'web' }) })
      .expect(200);

    actors['the organization owner'] = owner;
    actors['the organization token'] = await createOrganizationToken(t, owner, org);
    actors['a member with manage-projects'] = await memberWith(t, admin, owner, org, ['manage-projects']);
    actors['a member with manage-workspaces'] = await memberWith(t, admin, owner, org, ['manage-workspaces']);
    actors['a member with read-projects and read-workspaces'] = await memberWith(t, admin, owner, org, [
      'read-projects',
      'read-workspaces',
    ]);
    for (const level of ['read', 'write', 'admin'] as const) {
      const user = await createUser(t, admin);
      const team = await createTeam(owner, org);
      await addToTeam(owner, team, user.userId!);
      await grantWorkspace(owner, team, ws, level);
      actors[`a member with ${level} access to the workspace`] = user;
    }
    actors['a plain member of the organization'] = await memberWith(t, admin, owner, org);
    actors['a user outside the organization'] = await createUser(t, admin);
  }, 60_000);
  afterAll(() => t.close());

  const matrix: [string, Expectation][] = [
    [
      'the organization owner',
      { readProject: 200, writeProject: 200, readWorkspace: 200, writeWorkspace: 200 },
    ],
    [
      'the organization token',
      { readProject: 200, writeProject: 200, readWorkspace: 200, writeWorkspace: 200 },
    ],
    [
      'a member with manage-projects',
      { readProject: 200, writeProject: 200, readWorkspace: 404, writeWorkspace: 404 },
    ],
    [
      'a member with manage-workspaces',
      { readProject: 200, writeProject: 404, readWorkspace: 200, writeWorkspace: 200 },
    ],
    [
      'a member with read-projects and read-workspaces',
      { readProject: 200, writeProject: 404, readWorkspace: 200, writeWorkspace: 404 },
    ],
    [
      'a member with read access to the workspace',
      { readProject: 200, writeProject: 404, readWorkspace: 200, writeWorkspace: 404 },
    ],
    [
      'a member with write access to the workspace',
      { readProject: 200, writeProject: 404, readWorkspace: 200, writeWorkspace: 404 },
    ],
    [
      'a member with admin access to the workspace',
      { readProject: 200, writeProject: 404, readWorkspace: 200, writeWorkspace: 200 },
    ],
    [
      'a plain member of the organization',
      { readProject: 404, writeProject: 404, readWorkspace: 404, writeWorkspace: 404 },
    ],
    [
      'a user outside the organization',
      { readProject: 404, writeProject: 404, readWorkspace: 404, writeWorkspace: 404 },
    ],
  ];

  it.each(matrix)('gives %s the expected answers', async (name, expected) => {
    const api = actors[name].api;
    const tag = unique('k');
    const body = { data: tagBindingList({ [tag]: 'v' }) };
    const answers: Expectation = {
      readProject: (await api.get(`/api/v2/projects/${projectId}/tag-bindings`)).status as Status,
      writeProject: (await api.patch(`/api/v2/projects/${projectId}/tag-bindings`, body)).status as Status,
      readWorkspace: (await api.get(`/api/v2/workspaces/${ws}/tag-bindings`)).status as Status,
      writeWorkspace: (await api.patch(`/api/v2/workspaces/${ws}/tag-bindings`, body)).status as Status,
    };
    expect(answers).toEqual(expected);
    expect((await api.get(`/api/v2/projects/${projectId}/effective-tag-bindings`)).status).toBe(
      expected.readProject,
    );
    const effective = await api.get(`/api/v2/workspaces/${ws}/effective-tag-bindings`);
    expect(effective.status).toBe(expected.readWorkspace);
    if (expected.readWorkspace === 404) {
      expect(effective.body).toEqual({ errors: [{ status: '404', title: 'not found' }] });
    }

    const stored = async (path: string) =>
      (await owner.api.get(`${path}/tag-bindings`).expect(200)).body.data.map(
        (i: { attributes: { key: string } }) => i.attributes.key,
      );
    const projectKeys = await stored(`/api/v2/projects/${projectId}`);
    const workspaceKeys = await stored(`/api/v2/workspaces/${ws}`);
    expect(projectKeys.includes(tag)).toBe(expected.writeProject === 200);
    expect(workspaceKeys.includes(tag)).toBe(expected.writeWorkspace === 200);
    // Keep the project and the workspace under their limits for the next actor.
    await owner.api
      .patch(`/api/v2/projects/${projectId}`, {
        data: {
          type: 'projects',
          relationships: { 'tag-bindings': { data: tagBindingList({ env: 'prod' }) } },
        },
      })
      .expect(200);
    await owner.api
      .patch(`/api/v2/workspaces/${ws}`, {
        data: {
          type: 'workspaces',
          relationships: { 'tag-bindings': { data: tagBindingList({ app: 'web' }) } },
        },
      })
      .expect(200);
  });

  it('answers 401 without a token', async () => {
    const anonymous = client(t);
    await anonymous.get(`/api/v2/projects/${projectId}/tag-bindings`).expect(401);
    await anonymous.patch(`/api/v2/workspaces/${ws}/tag-bindings`, { data: [] }).expect(401);
  });

  it('answers 404 for a project or workspace that does not exist', async () => {
    await owner.api.get('/api/v2/projects/prj-0000000000000000/tag-bindings').expect(404);
    await owner.api.patch('/api/v2/workspaces/ws-0000000000000000/tag-bindings', { data: [] }).expect(404);
    await owner.api.get('/api/v2/workspaces/ws-0000000000000000/effective-tag-bindings').expect(404);
  });
});
