import request from 'supertest';
import {
  Actor,
  bootstrapAdmin,
  createOrganization,
  createWorkspace,
  grantWorkspace,
  memberWith,
  unique,
} from '../helpers/fixtures';
import { startApp, TestApp } from '../helpers/test-app';
import { createPolicy, createPolicySet, ids, makeFree } from './policy-fixtures';

// The e2e project's testTimeout does not reach hooks; booting on MySQL can take longer than 5 s.
jest.setTimeout(60_000);

describe('policy sets: permissions and editions', () => {
  let t: TestApp;
  let admin: Actor;

  beforeAll(async () => {
    t = await startApp();
    admin = await bootstrapAdmin(t);
  });
  afterAll(() => t.close());

  describe('permissions', () => {
    let org: string;
    let manager: Actor;
    let reader: Actor & { teamId: string };
    let wsId: string;
    let setId: string;

    beforeAll(async () => {
      org = await createOrganization(admin);
      wsId = await createWorkspace(admin, org);
      manager = await memberWith(t, admin, admin, org, ['manage-policies']);
      reader = await memberWith(t, admin, admin, org, [
        'read-workspaces',
        'read-projects',
        'manage-workspaces',
      ]);
      await grantWorkspace(admin, reader.teamId, wsId, 'admin');
      setId = (await createPolicySet(admin, org)).id;
    });

    it('lets a manage-policies team member use every policy set endpoint', async () => {
      const created = await createPolicySet(manager, org);
      await manager.api.get(`/api/v2/organizations/${org}/policy-sets`).expect(200);
      await manager.api.get(`/api/v2/policy-sets/${created.id}`).expect(200);
      await manager.api
        .patch(`/api/v2/policy-sets/${created.id}`, {
          data: { type: 'policy-sets', attributes: { description: 'm' } },
        })
        .expect(200);
      await manager.api
        .post(`/api/v2/policy-sets/${created.id}/relationships/workspaces`, ids('workspaces', [wsId]))
        .expect(204);
      await manager.api.delete(`/api/v2/policy-sets/${created.id}`).expect(204);
    });

    it('answers 404 to a member without manage-policies, even a workspace admin, on reads and writes', async () => {
      const expect404 = async (req: request.Test) => {
        const res = await req.expect(404);
        expect(res.body).toEqual({ errors: [{ status: '404', title: 'not found' }] });
      };
      await expect404(reader.api.get(`/api/v2/organizations/${org}/policy-sets`));
      await expect404(
        reader.api.post(`/api/v2/organizations/${org}/policy-sets`, {
          data: { type: 'policy-sets', attributes: { name: unique('nope') } },
        }),
      );
      await expect404(reader.api.get(`/api/v2/policy-sets/${setId}`));
      await expect404(
        reader.api.patch(`/api/v2/policy-sets/${setId}`, {
          data: { type: 'policy-sets', attributes: { description: 'x' } },
        }),
      );
      for (const name of ['policies', 'projects', 'workspaces', 'workspace-exclusions']) {
        const type = name === 'policies' || name === 'projects' ? name : 'workspaces';
        await expect404(reader.api.post(`/api/v2/policy-sets/${setId}/relationships/${name}`, ids(type, [])));
        await expect404(
          reader.api.delete(`/api/v2/policy-sets/${setId}/relationships/${name}`, ids(type, [])),
        );
      }
      await expect404(reader.api.delete(`/api/v2/policy-sets/${setId}`));
      await admin.api.get(`/api/v2/policy-sets/${setId}`).expect(200);
    });

    it('answers 404 to a user of another organization and 401 without a token', async () => {
      const outsider = await memberWith(t, admin, admin, await createOrganization(admin), [
        'manage-policies',
      ]);
      await outsider.api.get(`/api/v2/policy-sets/${setId}`).expect(404);
      await outsider.api.get(`/api/v2/organizations/${org}/policy-sets`).expect(404);
      const res = await request(t.origin).get(`/api/v2/policy-sets/${setId}`).expect(401);
      expect(res.body.errors[0]).toMatchObject({ status: '401', title: 'unauthorized' });
    });
  });

  describe('free edition', () => {
    let org: string;

    beforeEach(async () => {
      org = await createOrganization(admin);
      await makeFree(admin, org);
    });

    const create = (attributes: Record<string, unknown>, relationships?: Record<string, unknown>) =>
      admin.api.post(`/api/v2/organizations/${org}/policy-sets`, {
        data: { type: 'policy-sets', attributes: { name: unique('free'), ...attributes }, relationships },
      });

    it('allows one policy set and refuses a second, naming the limit', async () => {
      await create({}).expect(201);
      const res = await create({}).expect(422);
      expect(res.body.errors).toEqual([
        {
          status: '422',
          title: 'invalid attribute',
          detail: 'The free edition allows at most 1 policy set per organization',
          source: { pointer: '/data' },
        },
      ]);
    });

    it('allows five policies in the set and refuses a sixth, on create and through the relationship', async () => {
      const policies = [];
      for (let i = 0; i < 6; i++) policies.push(await createPolicy(admin, org));
      const tooMany = await create({}, { policies: ids('policies', policies) }).expect(422);
      expect(tooMany.body.errors).toEqual([
        {
          status: '422',
          title: 'invalid attribute',
          detail: 'The free edition allows at most 5 policies in a policy set',
          source: { pointer: '/data/relationships/policies' },
        },
      ]);
      const set = await create({}, { policies: ids('policies', policies.slice(0, 5)) }).expect(201);
      const rel = `/api/v2/policy-sets/${set.body.data.id}/relationships/policies`;
      await admin.api.post(rel, ids('policies', policies.slice(0, 2))).expect(204);
      const sixth = await admin.api.post(rel, ids('policies', [policies[5]])).expect(422);
      expect(sixth.body.errors[0]).toMatchObject({
        detail: 'The free edition allows at most 5 policies in a policy set',
        source: { pointer: '/data' },
      });
      const shown = await admin.api.get(`/api/v2/policy-sets/${set.body.data.id}`).expect(200);
      expect(shown.body.data.attributes['policy-count']).toBe(5);
    });

    it('refuses a VCS repository on create and on update', async () => {
      const res = await create({ 'vcs-repo': { identifier: 'acme/p' } }).expect(422);
      expect(res.body.errors).toEqual([
        {
          status: '422',
          title: 'invalid attribute',
          detail: 'Vcs repo is not available in the free edition',
          source: { pointer: '/data/attributes/vcs-repo' },
        },
      ]);
      const set = await create({}).expect(201);
      await admin.api
        .patch(`/api/v2/policy-sets/${set.body.data.id}`, {
          data: { type: 'policy-sets', attributes: { 'vcs-repo': { identifier: 'acme/p' } } },
        })
        .expect(422);
    });

    it('lifts the limits once the organization is enterprise again', async () => {
      await create({}).expect(201);
      await admin.api
        .patch(`/api/v2/organizations/${org}`, {
          data: { type: 'organizations', attributes: { edition: 'enterprise' } },
        })
        .expect(200);
      await create({ 'vcs-repo': { identifier: 'acme/p' } }).expect(201);
    });
  });
});
