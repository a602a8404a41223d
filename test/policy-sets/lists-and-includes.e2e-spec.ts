import {
  Actor,
  bootstrapAdmin,
  createOrganization,
  createProject,
  createWorkspace,
  expectPagination,
  memberWith,
} from '../helpers/fixtures';
import { startApp, TestApp } from '../helpers/test-app';
import { createPolicy, createPolicySet, ids } from './policy-fixtures';

type Resource = { id: string; type: string; attributes: Record<string, unknown> };
const names = (body: { data: Resource[] }) => body.data.map((r) => r.attributes.name);
const keys = (included: Resource[]) => included.map((r) => `${r.type}:${r.id}`).sort();

// The e2e project's testTimeout does not reach hooks; booting on MySQL can take longer than 5 s.
jest.setTimeout(60_000);

describe('policy set lists, filters and includes', () => {
  let t: TestApp;
  let admin: Actor;
  let org: string;
  let projectId: string;
  let ws1: string;
  let ws2: string;
  let policyId: string;
  let setId: string;

  beforeAll(async () => {
    t = await startApp();
    admin = await bootstrapAdmin(t);
    org = await createOrganization(admin);
    projectId = await createProject(admin, org);
    ws1 = await createWorkspace(admin, org, 'ws-one', projectId);
    ws2 = await createWorkspace(admin, org, 'ws-two');
    policyId = await createPolicy(admin, org, { name: 'require-tags' });
    const set = await createPolicySet(
      admin,
      org,
      { name: 'a-policies' },
      {
        projects: ids('projects', [projectId]),
        workspaces: ids('workspaces', [ws1]),
        'workspace-exclusions': ids('workspaces', [ws2]),
        policies: ids('policies', [policyId]),
      },
    );
    setId = set.id;
    await createPolicySet(admin, org, { name: 'b-vcs', 'vcs-repo': { identifier: 'acme/policies' } });
    await createPolicySet(admin, org, { name: 'c-opa', kind: 'framework_b', global: true });
    await createPolicySet(admin, org, { name: 'd-plain' });
    await createPolicySet(admin, org, {
      name: 'e-vcs-opa',
      kind: 'framework_b',
      'vcs-repo': { identifier: 'acme/opa' },
    });
  });
  afterAll(() => t.close());

  const list = (query = '', actor = admin) =>
    actor.api.get(`/api/v2/organizations/${org}/policy-sets${query}`);

  describe('list', () => {
    it('lists sets in name order with pagination', async () => {
      const first = await list('?page[size]=2').expect(200);
      expect(names(first.body)).toEqual(['a-policies', 'b-vcs']);
      expectPagination(first.body, { current: 1, size: 2, prev: null, next: 2, pages: 3, count: 5 });
      expect(first.body.links.next).toContain('page%5Bnumber%5D=2');
      const last = await list('?page[size]=2&page[number]=3').expect(200);
      expect(names(last.body)).toEqual(['e-vcs-opa']);
      expectPagination(last.body, { current: 3, size: 2, prev: 2, next: null, pages: 3, count: 5 });
      const past = await list('?page[size]=2&page[number]=9').expect(200);
      expect(past.body.data).toEqual([]);
      expect(past.body.meta.pagination['total-count']).toBe(5);
    });

    it('answers the same resource in lists as in show', async () => {
      const res = await list('?search[name]=a-policies').expect(200);
      const shown = await admin.api.get(`/api/v2/policy-sets/${setId}`).expect(200);
      expect(res.body.data).toEqual([shown.body.data]);
      expect(res.body).not.toHaveProperty('included');
    });

    it('filters by filter[versioned]', async () => {
      expect(names((await list('?filter[versioned]=true').expect(200)).body)).toEqual(['b-vcs', 'e-vcs-opa']);
      expect(names((await list('?filter[versioned]=false').expect(200)).body)).toEqual([
        'a-policies',
        'c-opa',
        'd-plain',
      ]);
      const bad = await list('?filter[versioned]=maybe').expect(400);
      expect(bad.body.errors[0]).toMatchObject({ source: { parameter: 'filter[versioned]' } });
    });

    it('filters by filter[kind] and search[name], together', async () => {
      expect(names((await list('?filter[kind]=framework_b').expect(200)).body)).toEqual([
        'c-opa',
        'e-vcs-opa',
      ]);
      expect(names((await list('?search[name]=VCS').expect(200)).body)).toEqual(['b-vcs', 'e-vcs-opa']);
      expect(
        names(
          (await list('?search[name]=vcs&filter[kind]=framework_a&filter[versioned]=true').expect(200)).body,
        ),
      ).toEqual(['b-vcs']);
      await list('?filter[kind]=rego').expect(400);
    });

    it('treats LIKE wildcards in search[name] literally', async () => {
      expect((await list('?search[name]=%25').expect(200)).body.data).toEqual([]);
      expect((await list('?search[name]=_').expect(200)).body.data).toEqual([]);
    });

    it('answers 404 for an unknown organization and 422 for a bad page size', async () => {
      await admin.api.get('/api/v2/organizations/nope-nope/policy-sets').expect(404);
      const res = await list('?page[size]=101').expect(422);
      expect(res.body.errors[0].detail).toBe('page[size] must be between 1 and 100');
    });
  });

  describe('include', () => {
    it.each([
      ['projects', () => [`projects:${projectId}`]],
      ['workspaces', () => [`workspaces:${ws1}`]],
      ['workspace-exclusions', () => [`workspaces:${ws2}`]],
      ['workspace_exclusions', () => [`workspaces:${ws2}`]],
      ['policies', () => [`policies:${policyId}`]],
      ['newest_version', () => []],
      ['current_version', () => []],
    ])('includes %s on show', async (include, expected) => {
      const res = await admin.api.get(`/api/v2/policy-sets/${setId}?include=${include}`).expect(200);
      expect(keys(res.body.included)).toEqual(expected());
    });

    it('includes full resources of each type, de-duplicated, on lists', async () => {
      await admin.api
        .post(`/api/v2/policy-sets/${setId}/relationships/workspace-exclusions`, ids('workspaces', [ws1]))
        .expect(204);
      const res = await list('?include=projects,workspaces,workspace-exclusions,policies').expect(200);
      expect(keys(res.body.included)).toEqual(
        [`projects:${projectId}`, `workspaces:${ws1}`, `workspaces:${ws2}`, `policies:${policyId}`].sort(),
      );
      const project = res.body.included.find((r: Resource) => r.type === 'projects');
      expect(project).toMatchObject({
        id: projectId,
        attributes: { 'workspace-count': 1 },
        links: { self: `/api/v2/projects/${projectId}` },
      });
      const policy = res.body.included.find((r: Resource) => r.type === 'policies');
      expect(policy).toMatchObject({ attributes: { name: 'require-tags', 'policy-set-count': 1 } });
      await admin.api
        .delete(`/api/v2/policy-sets/${setId}/relationships/workspace-exclusions`, ids('workspaces', [ws1]))
        .expect(204);
    });

    it('answers 400 naming the include parameter for an unknown include', async () => {
      const res = await admin.api.get(`/api/v2/policy-sets/${setId}?include=organization`).expect(400);
      expect(res.body.errors[0]).toMatchObject({ status: '400', source: { parameter: 'include' } });
      expect(res.body.errors[0].detail).toContain('include parameter');
    });

    it('leaves out included projects and workspaces the caller cannot read', async () => {
      const manager = await memberWith(t, admin, admin, org, ['manage-policies']);
      const res = await manager.api
        .get(`/api/v2/policy-sets/${setId}?include=projects,workspaces,policies`)
        .expect(200);
      expect(keys(res.body.included)).toEqual([`policies:${policyId}`]);
      const reader = await memberWith(t, admin, admin, org, ['manage-policies', 'read-workspaces']);
      const full = await reader.api
        .get(`/api/v2/policy-sets/${setId}?include=projects,workspaces`)
        .expect(200);
      expect(keys(full.body.included)).toEqual([`projects:${projectId}`, `workspaces:${ws1}`].sort());
    });
  });
});
