import {
  Actor,
  bootstrapAdmin,
  createOrganization,
  createProject,
  createWorkspace,
} from '../helpers/fixtures';
import { startApp, TestApp } from '../helpers/test-app';
import { createPolicy, createPolicySet, ids } from './policy-fixtures';

// The e2e project's testTimeout does not reach hooks; booting on MySQL can take longer than 5 s.
jest.setTimeout(60_000);

describe('policy set relationship endpoints', () => {
  let t: TestApp;
  let admin: Actor;
  let org: string;

  beforeAll(async () => {
    t = await startApp();
    admin = await bootstrapAdmin(t);
    org = await createOrganization(admin);
  });
  afterAll(() => t.close());

  const rel = (setId: string, name: string) => `/api/v2/policy-sets/${setId}/relationships/${name}`;
  const linkage = async (setId: string, name: string) =>
    (
      (await admin.api.get(`/api/v2/policy-sets/${setId}`).expect(200)).body.data.relationships[name]
        .data as {
        id: string;
      }[]
    )
      .map((r) => r.id)
      .sort();

  describe.each([
    ['policies', 'policies', (a: Actor, o: string) => createPolicy(a, o)],
    ['projects', 'projects', (a: Actor, o: string) => createProject(a, o)],
    ['workspaces', 'workspaces', (a: Actor, o: string) => createWorkspace(a, o)],
    ['workspace-exclusions', 'workspaces', (a: Actor, o: string) => createWorkspace(a, o)],
  ])('%s', (name, type, make) => {
    it('adds members with 204, idempotently, keeping present ones', async () => {
      const set = await createPolicySet(admin, org);
      const [a, b] = [await make(admin, org), await make(admin, org)];
      const res = await admin.api.post(rel(set.id, name), ids(type, [a])).expect(204);
      expect(res.text).toBe('');
      await admin.api.post(rel(set.id, name), ids(type, [a, b])).expect(204);
      await admin.api.post(rel(set.id, name), ids(type, [a])).expect(204);
      expect(await linkage(set.id, name)).toEqual([a, b].sort());
    });

    it('lists members in the order they were added, on the set and in the list of sets', async () => {
      const set = await createPolicySet(admin, org);
      const made = [await make(admin, org), await make(admin, org), await make(admin, org)];
      // Added one request at a time, against the order of their ids.
      const added = [...made].sort().reverse();
      for (const id of added) {
        await admin.api.post(rel(set.id, name), ids(type, [id])).expect(204);
        await new Promise((r) => setTimeout(r, 5));
      }
      // Adding present members again moves none of them.
      await admin.api.post(rel(set.id, name), ids(type, [added[0], added[1]])).expect(204);
      const order = (resource: { relationships: Record<string, { data: { id: string }[] }> }) =>
        resource.relationships[name].data.map((r) => r.id);
      const shown = await admin.api.get(`/api/v2/policy-sets/${set.id}`).expect(200);
      expect(order(shown.body.data)).toEqual(added);
      const listed = await admin.api
        .get(
          `/api/v2/organizations/${org}/policy-sets?page[size]=100&search[name]=${shown.body.data.attributes.name}`,
        )
        .expect(200);
      expect(listed.body.data.map(order)).toEqual([added]);
    });

    it('removes members with 204 and ignores absent ones', async () => {
      const set = await createPolicySet(admin, org);
      const [a, b] = [await make(admin, org), await make(admin, org)];
      await admin.api.post(rel(set.id, name), ids(type, [a, b])).expect(204);
      await admin.api.delete(rel(set.id, name), ids(type, [a])).expect(204);
      await admin.api.delete(rel(set.id, name), ids(type, [a])).expect(204);
      expect(await linkage(set.id, name)).toEqual([b]);
    });

    it('accepts full resource objects in the body', async () => {
      const set = await createPolicySet(admin, org);
      const a = await make(admin, org);
      await admin.api
        .post(rel(set.id, name), { data: [{ id: a, type, attributes: { name: 'ignored' }, links: {} }] })
        .expect(204);
      expect(await linkage(set.id, name)).toEqual([a]);
    });

    it('answers 422 when adding an unknown member or one of another organization', async () => {
      const set = await createPolicySet(admin, org);
      const foreign = await make(admin, await createOrganization(admin));
      const res = await admin.api.post(rel(set.id, name), ids(type, ['x-doesnotexist', foreign])).expect(422);
      expect(res.body.errors.map((e: { detail: string; source: unknown }) => [e.detail, e.source])).toEqual([
        [expect.stringMatching(/ x-doesnotexist not found$/), { pointer: '/data/0/id' }],
        [expect.stringMatching(new RegExp(` ${foreign} not found$`)), { pointer: '/data/1/id' }],
      ]);
      expect(await linkage(set.id, name)).toEqual([]);
    });

    it('answers 422 for a member of the wrong type, on POST and DELETE', async () => {
      const set = await createPolicySet(admin, org);
      const wrong = type === 'policies' ? 'workspaces' : 'policies';
      for (const method of ['post', 'delete'] as const) {
        const res = await admin.api[method](rel(set.id, name), ids(wrong, ['x-1'])).expect(422);
        expect(res.body.errors).toEqual([
          {
            status: '422',
            title: 'invalid attribute',
            detail: `Type must be ${type}`,
            source: { pointer: '/data/0/type' },
          },
        ]);
      }
    });

    it('answers 422 for a body that is not an identifier array, and 404 for an unknown set', async () => {
      const set = await createPolicySet(admin, org);
      await admin.api.post(rel(set.id, name), { data: { id: 'x', type } }).expect(422);
      await admin.api.post(rel('polset-doesnotexist00', name), ids(type, [])).expect(404);
    });
  });

  it('refuses the policies endpoints on a VCS set', async () => {
    const set = await createPolicySet(admin, org, { 'vcs-repo': { identifier: 'acme/policies' } });
    const policyId = await createPolicy(admin, org);
    for (const method of ['post', 'delete'] as const) {
      const res = await admin.api[method](rel(set.id, 'policies'), ids('policies', [policyId])).expect(422);
      expect(res.body.errors).toEqual([
        {
          status: '422',
          title: 'invalid attribute',
          detail: 'Policies cannot be added to or removed from a policy set with a VCS repository',
          source: { pointer: '/data' },
        },
      ]);
    }
  });

  it('refuses a policy of the other kind', async () => {
    const set = await createPolicySet(admin, org, { kind: 'framework_b' });
    const policyId = await createPolicy(admin, org);
    const res = await admin.api.post(rel(set.id, 'policies'), ids('policies', [policyId])).expect(422);
    expect(res.body.errors[0].detail).toBe(
      `Policy ${policyId} is a framework_a policy; this policy set takes framework_b policies`,
    );
  });

  it.each(['projects', 'workspaces'])('refuses the %s endpoints on a global set', async (name) => {
    const set = await createPolicySet(admin, org, { global: true });
    const member = name === 'projects' ? await createProject(admin, org) : await createWorkspace(admin, org);
    const noun = name === 'projects' ? 'Projects' : 'Workspaces';
    for (const method of ['post', 'delete'] as const) {
      const res = await admin.api[method](rel(set.id, name), ids(name, [member])).expect(422);
      expect(res.body.errors).toEqual([
        {
          status: '422',
          title: 'invalid attribute',
          detail: `${noun} cannot be attached to or detached from a global policy set`,
          source: { pointer: '/data' },
        },
      ]);
    }
  });

  it('accepts workspace exclusions on a global set', async () => {
    const set = await createPolicySet(admin, org, { global: true });
    const wsId = await createWorkspace(admin, org);
    await admin.api.post(rel(set.id, 'workspace-exclusions'), ids('workspaces', [wsId])).expect(204);
    expect(await linkage(set.id, 'workspace-exclusions')).toEqual([wsId]);
  });

  it('keeps policy-count and policy-set-count in step with the relationship', async () => {
    const set = await createPolicySet(admin, org);
    const [a, b] = [await createPolicy(admin, org), await createPolicy(admin, org)];
    await admin.api.post(rel(set.id, 'policies'), ids('policies', [a, b])).expect(204);
    const shown = await admin.api.get(`/api/v2/policy-sets/${set.id}`).expect(200);
    expect(shown.body.data.attributes['policy-count']).toBe(2);
    const policy = await admin.api.get(`/api/v2/policies/${a}`).expect(200);
    expect(policy.body.data.attributes['policy-set-count']).toBe(1);
  });
});
