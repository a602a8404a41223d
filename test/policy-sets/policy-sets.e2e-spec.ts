import {
  Actor,
  bootstrapAdmin,
  createOrganization,
  createProject,
  createWorkspace,
  idOf,
  ISO_MILLIS,
  unique,
} from '../helpers/fixtures';
import { createCatalogVersion } from '../admin-catalogs/catalog-helpers';
import { startApp, TestApp } from '../helpers/test-app';
import { createPolicy, createPolicySet, ids } from './policy-fixtures';

// The e2e project's testTimeout does not reach hooks; booting on MySQL can take longer than 5 s.
jest.setTimeout(60_000);

describe('policy sets: create, show, update, delete', () => {
  let t: TestApp;
  let admin: Actor;
  let org: string;

  beforeAll(async () => {
    t = await startApp();
    admin = await bootstrapAdmin(t);
    org = await createOrganization(admin);
    await createCatalogVersion(admin, 'policy-engine-versions', '0.61.0');
  });
  afterAll(() => t.close());

  const post = (attributes: Record<string, unknown>, relationships?: Record<string, unknown>) =>
    admin.api.post(`/api/v2/organizations/${org}/policy-sets`, {
      data: { type: 'policy-sets', attributes, relationships },
    });
  const patch = (id: string, attributes: Record<string, unknown>, relationships?: Record<string, unknown>) =>
    admin.api.patch(`/api/v2/policy-sets/${id}`, {
      data: { type: 'policy-sets', attributes, relationships },
    });
  const errorsOf = (res: { body: { errors: { detail: string; code?: string; source?: unknown }[] } }) =>
    res.body.errors.map((e) => ({ detail: e.detail, ...(e.code ? { code: e.code } : {}), source: e.source }));

  describe('create', () => {
    it('applies the defaults and answers 201 with the whole resource', async () => {
      const name = unique('production');
      const res = await post({ name }).expect(201);
      expect(res.headers['content-type']).toMatch(/^application\/vnd\.api\+json/);
      const id = res.body.data.id;
      expect(res.body).toEqual({
        data: {
          id: expect.stringMatching(idOf('polset')),
          type: 'policy-sets',
          attributes: {
            name,
            description: null,
            global: false,
            kind: 'framework_a',
            overridable: false,
            'agent-enabled': false,
            'policy-tool-version': 'latest',
            'policy-count': 0,
            'workspace-count': 0,
            'project-count': 0,
            'policies-path': null,
            versioned: false,
            'vcs-repo': null,
            'created-at': expect.stringMatching(ISO_MILLIS),
            'updated-at': expect.stringMatching(ISO_MILLIS),
          },
          relationships: {
            organization: { data: { id: org, type: 'organizations' } },
            projects: { data: [] },
            workspaces: { data: [] },
            'workspace-exclusions': { data: [] },
            policies: { data: [] },
            'current-version': { data: null },
            'newest-version': { data: null },
          },
          links: { self: `/api/v2/policy-sets/${id}` },
        },
      });
    });

    it('creates a set with every relationship and counts its members', async () => {
      const projectId = await createProject(admin, org);
      const ws1 = await createWorkspace(admin, org);
      const ws2 = await createWorkspace(admin, org);
      const policyId = await createPolicy(admin, org);
      const res = await post(
        {
          name: unique('full'),
          description: 'All of it',
          overridable: true,
          'agent-enabled': true,
          'policy-tool-version': '0.23.0',
        },
        {
          projects: ids('projects', [projectId]),
          workspaces: ids('workspaces', [ws1, ws2]),
          'workspace-exclusions': ids('workspaces', [ws2]),
          policies: { data: [{ id: policyId, type: 'policies', attributes: { ignored: true } }] },
        },
      ).expect(201);
      expect(res.body.data.attributes).toMatchObject({
        description: 'All of it',
        overridable: true,
        'agent-enabled': true,
        'policy-tool-version': '0.23.0',
        'policy-count': 1,
        'workspace-count': 2,
        'project-count': 1,
        versioned: false,
      });
      expect(res.body.data.relationships).toMatchObject({
        projects: { data: [{ id: projectId, type: 'projects' }] },
        workspaces: {
          data: expect.arrayContaining([
            { id: ws1, type: 'workspaces' },
            { id: ws2, type: 'workspaces' },
          ]),
        },
        'workspace-exclusions': { data: [{ id: ws2, type: 'workspaces' }] },
        policies: { data: [{ id: policyId, type: 'policies' }] },
      });
      const policy = await admin.api.get(`/api/v2/policies/${policyId}`).expect(200);
      expect(policy.body.data.attributes['policy-set-count']).toBe(1);
      expect(policy.body.data.relationships['policy-sets']).toEqual({
        data: [{ id: res.body.data.id, type: 'policy-sets' }],
      });
    });

    it('creates a VCS set and shows it as versioned with its repository', async () => {
      const res = await post({
        name: unique('vcs'),
        'vcs-repo': {
          identifier: 'acme/policies',
          branch: 'main',
          'oauth-token-id': 'ot-123',
          'ingress-submodules': true,
        },
        'policies-path': '/policy-sets/prod',
      }).expect(201);
      expect(res.body.data.attributes).toMatchObject({
        versioned: true,
        'policies-path': '/policy-sets/prod',
        'vcs-repo': {
          branch: 'main',
          identifier: 'acme/policies',
          'oauth-token-id': 'ot-123',
          'vcs-app-installation-id': null,
          'ingress-submodules': true,
        },
      });
    });

    it('accepts the nested project identifier shape and the app installation alias', async () => {
      const res = await post({
        name: unique('ado'),
        'vcs-repo': { identifier: 'contoso/platform/_git/policies', 'github-app-installation-id': 'ghain-1' },
      }).expect(201);
      expect(res.body.data.attributes['vcs-repo']).toEqual({
        branch: null,
        identifier: 'contoso/platform/_git/policies',
        'oauth-token-id': null,
        'vcs-app-installation-id': 'ghain-1',
        'ingress-submodules': false,
      });
    });

    it('creates a global framework_b set and omits its projects and workspaces', async () => {
      const res = await post({
        name: unique('opa'),
        kind: 'framework_b',
        global: true,
        'policy-tool-version': '0.61.0',
      }).expect(201);
      expect(res.body.data.attributes).toMatchObject({
        kind: 'framework_b',
        global: true,
        'policy-tool-version': '0.61.0',
      });
      expect(Object.keys(res.body.data.relationships).sort()).toEqual([
        'current-version',
        'newest-version',
        'organization',
        'policies',
        'workspace-exclusions',
      ]);
    });
  });

  describe('create rules', () => {
    it('requires a name made of letters, numbers, - and _, unique in the organization', async () => {
      const missing = await post({}).expect(422);
      expect(errorsOf(missing)).toContainEqual({
        detail: "Name can't be blank",
        source: { pointer: '/data/attributes/name' },
      });
      const bad = await post({ name: 'no spaces' }).expect(422);
      expect(errorsOf(bad)).toEqual([
        {
          detail: 'Name is invalid: use letters, numbers, - and _',
          source: { pointer: '/data/attributes/name' },
        },
      ]);
      const name = unique('taken');
      await post({ name }).expect(201);
      const taken = await post({ name }).expect(422);
      expect(taken.body.errors).toEqual([
        {
          status: '422',
          title: 'invalid attribute',
          code: 'NAME_TAKEN',
          detail: 'Name has already been taken',
          source: { pointer: '/data/attributes/name' },
        },
      ]);
    });

    it('refuses attributes of the wrong type', async () => {
      const res = await post({
        name: unique('x'),
        global: 'yes',
        kind: 'rego',
        'vcs-repo': 'acme/p',
        'policies-path': true,
      }).expect(422);
      expect(errorsOf(res)).toEqual(
        expect.arrayContaining([
          { detail: 'Global must be a boolean', source: { pointer: '/data/attributes/global' } },
          {
            detail: 'Kind is not included in the list: framework_a, framework_b',
            source: { pointer: '/data/attributes/kind' },
          },
          { detail: 'Vcs repo must be an object', source: { pointer: '/data/attributes/vcs-repo' } },
          { detail: 'Policies path must be a string', source: { pointer: '/data/attributes/policies-path' } },
        ]),
      );
    });

    it('allows agent-enabled only for framework_a', async () => {
      const res = await post({ name: unique('b'), kind: 'framework_b', 'agent-enabled': true }).expect(422);
      expect(errorsOf(res)).toEqual([
        {
          detail: 'Agent enabled is only valid for framework_a policy sets',
          source: { pointer: '/data/attributes/agent-enabled' },
        },
      ]);
    });

    it('requires agent-enabled for overridable and a pinned tool version on framework_a', async () => {
      const res = await post({
        name: unique('a'),
        overridable: true,
        'policy-tool-version': '0.23.0',
      }).expect(422);
      expect(errorsOf(res)).toEqual([
        {
          detail: 'Overridable requires agent-enabled for framework_a policy sets',
          source: { pointer: '/data/attributes/overridable' },
        },
        {
          detail:
            'Policy tool version can be set only when agent-enabled is true for framework_a policy sets',
          source: { pointer: '/data/attributes/policy-tool-version' },
        },
      ]);
    });

    it('refuses a framework_b tool version that is neither latest nor a version', async () => {
      const res = await post({
        name: unique('b'),
        kind: 'framework_b',
        'policy-tool-version': 'newest',
      }).expect(422);
      expect(errorsOf(res)).toEqual([
        {
          detail: 'Policy tool version is invalid: use latest or N.N.N',
          source: { pointer: '/data/attributes/policy-tool-version' },
        },
      ]);
    });

    it('refuses vcs-repo together with policies', async () => {
      const policyId = await createPolicy(admin, org);
      const res = await post(
        { name: unique('both'), 'vcs-repo': { identifier: 'acme/policies' } },
        { policies: ids('policies', [policyId]) },
      ).expect(422);
      expect(errorsOf(res)).toEqual([
        {
          detail: 'Vcs repo cannot be used together with the policies relationship',
          source: { pointer: '/data/attributes/vcs-repo' },
        },
      ]);
    });

    it.each([
      [{}, "Vcs repo identifier can't be blank"],
      [
        { identifier: 'just-a-name' },
        'Vcs repo identifier is invalid: use <namespace>/<repo> or <org>/<project>/_git/<repo>',
      ],
      [
        { identifier: 'a/b/c' },
        'Vcs repo identifier is invalid: use <namespace>/<repo> or <org>/<project>/_git/<repo>',
      ],
    ])('checks the vcs-repo identifier of %j', async (vcsRepo, detail) => {
      const res = await post({ name: unique('vcs'), 'vcs-repo': vcsRepo }).expect(422);
      expect(errorsOf(res)).toEqual([
        { detail, source: { pointer: '/data/attributes/vcs-repo/identifier' } },
      ]);
    });

    it('refuses oauth-token-id together with vcs-app-installation-id', async () => {
      const res = await post({
        name: unique('vcs'),
        'vcs-repo': { identifier: 'acme/p', 'oauth-token-id': 'ot-1', 'vcs-app-installation-id': 'ghain-1' },
      }).expect(422);
      expect(errorsOf(res)).toEqual([
        {
          detail: 'Vcs repo oauth-token-id and vcs-app-installation-id cannot both be given',
          source: { pointer: '/data/attributes/vcs-repo/vcs-app-installation-id' },
        },
      ]);
    });

    it('accepts policies-path only with vcs-repo', async () => {
      const res = await post({ name: unique('path'), 'policies-path': '/x' }).expect(422);
      expect(errorsOf(res)).toEqual([
        {
          detail: 'Policies path is valid only when vcs-repo is present',
          source: { pointer: '/data/attributes/policies-path' },
        },
      ]);
    });

    it('accepts projects and workspaces only when not global', async () => {
      const projectId = await createProject(admin, org);
      const wsId = await createWorkspace(admin, org);
      const res = await post(
        { name: unique('g'), global: true },
        { projects: ids('projects', [projectId]), workspaces: ids('workspaces', [wsId]) },
      ).expect(422);
      expect(errorsOf(res)).toEqual([
        {
          detail: 'Projects can be given only when global is false',
          source: { pointer: '/data/relationships/projects' },
        },
        {
          detail: 'Workspaces can be given only when global is false',
          source: { pointer: '/data/relationships/workspaces' },
        },
      ]);
    });

    it('refuses unknown members, members of another organization and policies of the other kind', async () => {
      const other = await createOrganization(admin);
      const foreignWs = await createWorkspace(admin, other);
      const opaPolicy = await createPolicy(admin, org, { kind: 'framework_b' });
      const res = await post(
        { name: unique('refs') },
        {
          projects: ids('projects', ['prj-doesnotexist0000']),
          workspaces: ids('workspaces', [foreignWs]),
          'workspace-exclusions': ids('workspaces', ['ws-doesnotexist00000']),
          policies: ids('policies', [opaPolicy]),
        },
      ).expect(422);
      expect(errorsOf(res)).toEqual([
        {
          detail: `Policy ${opaPolicy} is a framework_b policy; this policy set takes framework_a policies`,
          source: { pointer: '/data/relationships/policies/data/0/id' },
        },
        {
          detail: 'Project prj-doesnotexist0000 not found',
          source: { pointer: '/data/relationships/projects/data/0/id' },
        },
        {
          detail: `Workspace ${foreignWs} not found`,
          source: { pointer: '/data/relationships/workspaces/data/0/id' },
        },
        {
          detail: 'Workspace ws-doesnotexist00000 not found',
          source: { pointer: '/data/relationships/workspace-exclusions/data/0/id' },
        },
      ]);
    });

    it('refuses a relationship member of the wrong type', async () => {
      const wsId = await createWorkspace(admin, org);
      const res = await post({ name: unique('type') }, { projects: ids('workspaces', [wsId]) }).expect(422);
      expect(errorsOf(res)).toEqual([
        { detail: 'Type must be projects', source: { pointer: '/data/relationships/projects/data/0/type' } },
      ]);
    });
  });

  describe('show and delete', () => {
    it('shows a set and answers 404 for an unknown one', async () => {
      const set = await createPolicySet(admin, org);
      const res = await admin.api.get(`/api/v2/policy-sets/${set.id}`).expect(200);
      expect(res.body).toEqual({ data: set });
      const missing = await admin.api.get('/api/v2/policy-sets/polset-doesnotexist00').expect(404);
      expect(missing.body).toEqual({ errors: [{ status: '404', title: 'not found' }] });
    });

    it('deletes a set with 204 and keeps its policies', async () => {
      const policyId = await createPolicy(admin, org);
      const set = await createPolicySet(admin, org, {}, { policies: ids('policies', [policyId]) });
      const res = await admin.api.delete(`/api/v2/policy-sets/${set.id}`).expect(204);
      expect(res.text).toBe('');
      await admin.api.get(`/api/v2/policy-sets/${set.id}`).expect(404);
      const policy = await admin.api.get(`/api/v2/policies/${policyId}`).expect(200);
      expect(policy.body.data.attributes['policy-set-count']).toBe(0);
    });

    it("goes away with its organization, together with the organization's policies", async () => {
      const doomed = await createOrganization(admin);
      const wsId = await createWorkspace(admin, doomed);
      const policyId = await createPolicy(admin, doomed);
      const set = await createPolicySet(
        admin,
        doomed,
        {},
        { workspaces: ids('workspaces', [wsId]), policies: ids('policies', [policyId]) },
      );
      await admin.api.delete(`/api/v2/organizations/${doomed}`).expect(204);
      await admin.api.get(`/api/v2/policy-sets/${set.id}`).expect(404);
      await admin.api.get(`/api/v2/policies/${policyId}`).expect(404);
    });

    it('loses its attachments when the attached policy, workspace or project is deleted', async () => {
      const projectId = await createProject(admin, org);
      const wsId = await createWorkspace(admin, org);
      const policyId = await createPolicy(admin, org);
      const set = await createPolicySet(
        admin,
        org,
        {},
        {
          projects: ids('projects', [projectId]),
          workspaces: ids('workspaces', [wsId]),
          'workspace-exclusions': ids('workspaces', [wsId]),
          policies: ids('policies', [policyId]),
        },
      );
      await admin.api.delete(`/api/v2/workspaces/${wsId}`).expect(204);
      await admin.api.delete(`/api/v2/projects/${projectId}`).expect(204);
      await admin.api.delete(`/api/v2/policies/${policyId}`).expect(204);
      const res = await admin.api.get(`/api/v2/policy-sets/${set.id}`).expect(200);
      expect(res.body.data.attributes).toMatchObject({
        'policy-count': 0,
        'workspace-count': 0,
        'project-count': 0,
      });
      expect(res.body.data.relationships['workspace-exclusions']).toEqual({ data: [] });
    });
  });

  describe('update', () => {
    it('changes what is sent and keeps what is omitted', async () => {
      const wsId = await createWorkspace(admin, org);
      const set = await createPolicySet(
        admin,
        org,
        { description: 'keep me' },
        { workspaces: ids('workspaces', [wsId]) },
      );
      const name = unique('renamed');
      const res = await patch(set.id, { name }).expect(200);
      expect(res.body.data.attributes).toEqual({
        ...set.attributes,
        name,
        'updated-at': expect.stringMatching(ISO_MILLIS),
      });
      expect(res.body.data.relationships).toEqual(set.relationships);
    });

    it('resets omitted agent-enabled and policy-tool-version to their defaults (contract rule 1)', async () => {
      const set = await createPolicySet(admin, org, {
        'agent-enabled': true,
        'policy-tool-version': '0.23.0',
      });
      const kept = await patch(set.id, { 'agent-enabled': true, 'policy-tool-version': '0.24.0' }).expect(
        200,
      );
      expect(kept.body.data.attributes).toMatchObject({
        'agent-enabled': true,
        'policy-tool-version': '0.24.0',
      });
      const reset = await patch(set.id, { description: 'x' }).expect(200);
      expect(reset.body.data.attributes).toMatchObject({
        'agent-enabled': false,
        'policy-tool-version': 'latest',
      });
    });

    it('refuses an update that would leave overridable without agent-enabled', async () => {
      const set = await createPolicySet(admin, org, { 'agent-enabled': true, overridable: true });
      const res = await patch(set.id, { description: 'x' }).expect(422);
      expect(errorsOf(res)).toEqual([
        {
          detail: 'Overridable requires agent-enabled for framework_a policy sets',
          source: { pointer: '/data/attributes/overridable' },
        },
      ]);
      await patch(set.id, { description: 'x', 'agent-enabled': true }).expect(200);
    });

    it('refuses to change the kind', async () => {
      const set = await createPolicySet(admin, org);
      const res = await patch(set.id, { kind: 'framework_b' }).expect(422);
      expect(errorsOf(res)).toEqual([
        {
          detail: 'Kind cannot be changed after the policy set is created',
          source: { pointer: '/data/attributes/kind' },
        },
      ]);
      await patch(set.id, { kind: 'framework_a' }).expect(200);
    });

    it('replaces relationships that are sent and clears them with an empty array', async () => {
      const [p1, p2] = [await createProject(admin, org), await createProject(admin, org)];
      const [w1, w2] = [await createWorkspace(admin, org), await createWorkspace(admin, org)];
      const set = await createPolicySet(
        admin,
        org,
        {},
        {
          projects: ids('projects', [p1]),
          workspaces: ids('workspaces', [w1]),
          'workspace-exclusions': ids('workspaces', [w1]),
        },
      );
      const replaced = await patch(
        set.id,
        {},
        { projects: ids('projects', [p2]), workspaces: ids('workspaces', [w1, w2]) },
      ).expect(200);
      expect(replaced.body.data.relationships).toMatchObject({
        projects: { data: [{ id: p2, type: 'projects' }] },
        workspaces: {
          data: expect.arrayContaining([
            { id: w1, type: 'workspaces' },
            { id: w2, type: 'workspaces' },
          ]),
        },
        'workspace-exclusions': { data: [{ id: w1, type: 'workspaces' }] },
      });
      const cleared = await patch(
        set.id,
        {},
        {
          projects: { data: [] },
          workspaces: { data: [] },
          'workspace-exclusions': { data: [] },
        },
      ).expect(200);
      expect(cleared.body.data.attributes).toMatchObject({ 'project-count': 0, 'workspace-count': 0 });
      expect(cleared.body.data.relationships['workspace-exclusions']).toEqual({ data: [] });
    });

    it('drops project and workspace attachments when switching to global, and keeps exclusions', async () => {
      const projectId = await createProject(admin, org);
      const [w1, w2] = [await createWorkspace(admin, org), await createWorkspace(admin, org)];
      const set = await createPolicySet(
        admin,
        org,
        {},
        {
          projects: ids('projects', [projectId]),
          workspaces: ids('workspaces', [w1]),
          'workspace-exclusions': ids('workspaces', [w2]),
        },
      );
      const global = await patch(set.id, { global: true }).expect(200);
      expect(global.body.data.attributes).toMatchObject({
        global: true,
        'project-count': 0,
        'workspace-count': 0,
      });
      expect(global.body.data.relationships.projects).toBeUndefined();
      expect(global.body.data.relationships['workspace-exclusions']).toEqual({
        data: [{ id: w2, type: 'workspaces' }],
      });
      const back = await patch(set.id, { global: false }).expect(200);
      expect(back.body.data.relationships).toMatchObject({
        projects: { data: [] },
        workspaces: { data: [] },
      });
    });

    it('refuses projects on a set that is or becomes global', async () => {
      const projectId = await createProject(admin, org);
      const set = await createPolicySet(admin, org, { global: true });
      const res = await patch(set.id, {}, { projects: ids('projects', [projectId]) }).expect(422);
      expect(errorsOf(res)).toEqual([
        {
          detail: 'Projects can be given only when global is false',
          source: { pointer: '/data/relationships/projects' },
        },
      ]);
      await patch(set.id, { global: true }, { projects: { data: [] } }).expect(200);
    });

    it('adds and removes a VCS repository; removing it clears policies-path', async () => {
      const set = await createPolicySet(admin, org);
      const vcs = await patch(set.id, {
        'vcs-repo': { identifier: 'acme/p' },
        'policies-path': 'sub',
      }).expect(200);
      expect(vcs.body.data.attributes).toMatchObject({ versioned: true, 'policies-path': 'sub' });
      const kept = await patch(set.id, { description: 'still vcs' }).expect(200);
      expect(kept.body.data.attributes['vcs-repo']).toMatchObject({ identifier: 'acme/p' });
      const removed = await patch(set.id, { 'vcs-repo': null }).expect(200);
      expect(removed.body.data.attributes).toMatchObject({
        versioned: false,
        'vcs-repo': null,
        'policies-path': null,
      });
    });

    it('refuses a VCS repository on a set that has policies', async () => {
      const policyId = await createPolicy(admin, org);
      const set = await createPolicySet(admin, org, {}, { policies: ids('policies', [policyId]) });
      const res = await patch(set.id, { 'vcs-repo': { identifier: 'acme/p' } }).expect(422);
      expect(errorsOf(res)).toEqual([
        {
          detail: 'Vcs repo cannot be used together with the policies relationship',
          source: { pointer: '/data/attributes/vcs-repo' },
        },
      ]);
    });

    it('refuses a taken name and answers 404 for an unknown set', async () => {
      const a = await createPolicySet(admin, org);
      const b = await createPolicySet(admin, org);
      const res = await patch(b.id, { name: a.attributes.name }).expect(422);
      expect(errorsOf(res)).toEqual([
        {
          detail: 'Name has already been taken',
          code: 'NAME_TAKEN',
          source: { pointer: '/data/attributes/name' },
        },
      ]);
      await patch('polset-doesnotexist00', { description: 'x' }).expect(404);
    });
  });
});
