import {
  Actor,
  bootstrapAdmin,
  createOrganization,
  createProject,
  createTeam,
  createUser,
  createWorkspace,
  unique,
} from '../helpers/fixtures';
import { errorsOf } from '../helpers/shapes';
import { startApp, TestApp } from '../helpers/test-app';

/**
 * JSON:API 1.0: a server MUST answer 409 Conflict to a body whose `data.type` is not the endpoint's
 * type, and to an update whose `data.id` is not the id in the URL; it never updates another resource.
 */
describe('JSON:API conflicts (409)', () => {
  let t: TestApp;
  let owner: Actor;
  let org: string;
  let projectId: string;
  let otherProjectId: string;
  let wsId: string;
  let wsName: string;
  let otherWsId: string;
  let teamId: string;
  let otherTeamId: string;

  beforeAll(async () => {
    t = await startApp();
    const admin = await bootstrapAdmin(t);
    owner = await createUser(t, admin);
    org = await createOrganization(owner);
    projectId = await createProject(owner, org);
    otherProjectId = await createProject(owner, org);
    wsName = unique('ws');
    wsId = await createWorkspace(owner, org, wsName);
    otherWsId = await createWorkspace(owner, org);
    teamId = await createTeam(owner, org);
    otherTeamId = await createTeam(owner, org);
  });
  afterAll(() => t.close());

  const typeConflict = (type: string) =>
    errorsOf(409, { detail: `Type must be ${type}`, pointer: '/data/type' });
  const idConflict = (id: string) =>
    errorsOf(409, { detail: `Id must be ${id}, the id in the URL`, pointer: '/data/id' });

  describe('a data.type of another kind of resource', () => {
    it.each([
      ['workspaces', () => `/api/v2/organizations/${org}/workspaces`, 'projects'],
      ['projects', () => `/api/v2/organizations/${org}/projects`, 'workspaces'],
      ['teams', () => `/api/v2/organizations/${org}/teams`, 'users'],
      ['organizations', () => '/api/v2/organizations', 'teams'],
      ['agent-pools', () => `/api/v2/organizations/${org}/agent-pools`, 'agents'],
    ])('is a 409 on a create of %s, and nothing is created', async (type, path, other) => {
      const name = unique('c');
      const res = await owner.api
        .post(path(), { data: { type: other, attributes: { name, email: 'x@example.com' } } })
        .expect(409);
      expect(res.body).toEqual(typeConflict(type));
      const list = await owner.api.get(path()).expect(200);
      expect(JSON.stringify(list.body)).not.toContain(name);
    });

    it.each([
      ['workspaces', () => `/api/v2/workspaces/${wsId}`, 'projects'],
      ['projects', () => `/api/v2/projects/${projectId}`, 'workspaces'],
      ['teams', () => `/api/v2/teams/${teamId}`, 'organizations'],
      ['organizations', () => `/api/v2/organizations/${org}`, 'workspaces'],
    ])('is a 409 on an update of %s', async (type, path, other) => {
      const res = await owner.api
        .patch(path(), { data: { type: other, attributes: { description: 'changed' } } })
        .expect(409);
      expect(res.body).toEqual(typeConflict(type));
    });

    it('stays a 422 when the type is missing where the route requires it', async () => {
      const res = await owner.api
        .post(`/api/v2/organizations/${org}/projects`, { data: { attributes: { name: unique('p') } } })
        .expect(422);
      expect(res.body).toEqual(errorsOf(422, { detail: 'Type must be projects', pointer: '/data/type' }));
    });
  });

  describe('an update whose data.id is not the id in the URL', () => {
    it('is a 409 for a workspace, which keeps its description, and so is the other one', async () => {
      const res = await owner.api
        .patch(`/api/v2/workspaces/${wsId}`, {
          data: { type: 'workspaces', id: otherWsId, attributes: { description: 'silent' } },
        })
        .expect(409);
      expect(res.body).toEqual(idConflict(wsId));
      for (const id of [wsId, otherWsId]) {
        const shown = await owner.api.get(`/api/v2/workspaces/${id}`).expect(200);
        expect(shown.body.data.attributes.description).not.toBe('silent');
      }
    });

    it.each([
      ['projects', () => `/api/v2/projects/${projectId}`, () => otherProjectId, () => projectId],
      ['teams', () => `/api/v2/teams/${teamId}`, () => otherTeamId, () => teamId],
      ['organizations', () => `/api/v2/organizations/${org}`, () => 'someone-else', () => org],
    ])('is a 409 for %s', async (type, path, other, own) => {
      const res = await owner.api
        .patch(path(), { data: { type, id: other(), attributes: {} } })
        .expect(409);
      expect(res.body).toEqual(idConflict(own()));
    });

    it('is accepted when data.id is the URL id, or absent', async () => {
      for (const id of [wsId, undefined]) {
        const description = unique('d');
        const res = await owner.api
          .patch(`/api/v2/workspaces/${wsId}`, { data: { type: 'workspaces', id, attributes: { description } } })
          .expect(200);
        expect(res.body.data.attributes.description).toBe(description);
      }
      await owner.api
        .patch(`/api/v2/projects/${projectId}`, { data: { type: 'projects', id: projectId, attributes: {} } })
        .expect(200);
    });

    it("accepts the workspace's id on the route that names the workspace by name", async () => {
      const description = unique('d');
      const res = await owner.api
        .patch(`/api/v2/organizations/${org}/workspaces/${wsName}`, {
          data: { type: 'workspaces', id: wsId, attributes: { description } },
        })
        .expect(200);
      expect(res.body.data.attributes.description).toBe(description);
    });
  });
});
