import {
  Actor,
  bootstrapAdmin,
  createOrganization,
  createProject,
  createWorkspace,
  expectPagination,
  grantWorkspace,
  memberWith,
} from '../helpers/fixtures';
import { startApp, TestApp } from '../helpers/test-app';
import { createPolicySet, ids } from './policy-fixtures';

// The e2e project's testTimeout does not reach hooks; booting on MySQL can take longer than 5 s.
jest.setTimeout(60_000);

describe('GET /workspaces/:id/effective-policy-sets', () => {
  let t: TestApp;
  let admin: Actor;
  let org: string;
  let inProjectA: string;
  let inProjectB: string;
  let elsewhere: string;

  const effective = async (wsId: string, actor = admin, query = '') => {
    const res = await actor.api.get(`/api/v2/workspaces/${wsId}/effective-policy-sets${query}`).expect(200);
    return res.body as { data: { attributes: { name: string } }[] };
  };
  const names = (body: { data: { attributes: { name: string } }[] }) =>
    body.data.map((s) => s.attributes.name);

  beforeAll(async () => {
    t = await startApp();
    admin = await bootstrapAdmin(t);
    org = await createOrganization(admin);
    const projectId = await createProject(admin, org);
    inProjectA = await createWorkspace(admin, org, 'in-project-a', projectId);
    inProjectB = await createWorkspace(admin, org, 'in-project-b', projectId);
    elsewhere = await createWorkspace(admin, org, 'elsewhere');
    await createPolicySet(admin, org, { name: 'global-all', global: true });
    await createPolicySet(
      admin,
      org,
      { name: 'global-but-elsewhere', global: true },
      {
        'workspace-exclusions': ids('workspaces', [elsewhere]),
      },
    );
    await createPolicySet(admin, org, { name: 'project-wide' }, { projects: ids('projects', [projectId]) });
    await createPolicySet(
      admin,
      org,
      { name: 'project-but-b' },
      {
        projects: ids('projects', [projectId]),
        'workspace-exclusions': ids('workspaces', [inProjectB]),
      },
    );
    await createPolicySet(
      admin,
      org,
      { name: 'workspace-elsewhere' },
      { workspaces: ids('workspaces', [elsewhere]) },
    );
    await createPolicySet(
      admin,
      org,
      { name: 'project-and-workspace' },
      {
        projects: ids('projects', [projectId]),
        workspaces: ids('workspaces', [inProjectA]),
      },
    );
    await createPolicySet(admin, org, { name: 'attached-nowhere' });
    const other = await createOrganization(admin);
    await createPolicySet(admin, other, { name: 'other-org-global', global: true });
  });
  afterAll(() => t.close());

  it('combines global, project and workspace sets, once each, in name order', async () => {
    expect(names(await effective(inProjectA))).toEqual([
      'global-all',
      'global-but-elsewhere',
      'project-and-workspace',
      'project-but-b',
      'project-wide',
    ]);
  });

  it('leaves out sets that exclude the workspace', async () => {
    expect(names(await effective(inProjectB))).toEqual([
      'global-all',
      'global-but-elsewhere',
      'project-and-workspace',
      'project-wide',
    ]);
    expect(names(await effective(elsewhere))).toEqual(['global-all', 'workspace-elsewhere']);
  });

  it('serializes each set as the policy set endpoints do', async () => {
    const body = await effective(elsewhere);
    const id = (body.data[1] as unknown as { id: string }).id;
    const shown = await admin.api.get(`/api/v2/policy-sets/${id}`).expect(200);
    expect(body.data[1]).toEqual(shown.body.data);
  });

  it('paginates', async () => {
    const body = await effective(inProjectA, admin, '?page[size]=2&page[number]=2');
    expect(names(body)).toEqual(['project-and-workspace', 'project-but-b']);
    expectPagination(body as never, { current: 2, size: 2, prev: 1, next: 3, pages: 3, count: 5 });
  });

  it('follows a workspace excluded later and a set made global later', async () => {
    const set = await createPolicySet(admin, org, { name: 'zz-late' });
    expect(names(await effective(elsewhere))).not.toContain('zz-late');
    await admin.api
      .patch(`/api/v2/policy-sets/${set.id}`, { data: { type: 'policy-sets', attributes: { global: true } } })
      .expect(200);
    expect(names(await effective(elsewhere))).toContain('zz-late');
    await admin.api
      .post(
        `/api/v2/policy-sets/${set.id}/relationships/workspace-exclusions`,
        ids('workspaces', [elsewhere]),
      )
      .expect(204);
    expect(names(await effective(elsewhere))).not.toContain('zz-late');
    await admin.api.delete(`/api/v2/policy-sets/${set.id}`).expect(204);
  });

  it('needs only read access to the workspace, and answers 404 without it', async () => {
    const reader = await memberWith(t, admin, admin, org);
    await grantWorkspace(admin, reader.teamId, inProjectA, 'read');
    expect(names(await effective(inProjectA, reader))).toHaveLength(5);
    await reader.api.get(`/api/v2/workspaces/${inProjectB}/effective-policy-sets`).expect(404);
    await admin.api.get('/api/v2/workspaces/ws-doesnotexist00000/effective-policy-sets').expect(404);
  });
});
