import {
  Actor,
  addToTeam,
  bootstrapAdmin,
  createOrganization,
  createOrganizationToken,
  createTeam,
  createTeamToken,
  createUser,
  expectPagination,
} from '../helpers/fixtures';
import { client, startApp, TestApp } from '../helpers/test-app';
import { errorsOf, userShape } from '../helpers/shapes';

describe('site administrators manage users (/api/v2/admin/users)', () => {
  let t: TestApp;
  let admin: Actor;

  beforeAll(async () => {
    t = await startApp();
    admin = await bootstrapAdmin(t);
  });
  afterAll(() => t.close());

  const usernameOf = async (actor: Actor) =>
    (await actor.api.get('/api/v2/account/details').expect(200)).body.data.attributes.username as string;

  describe('list and search', () => {
    let alice: Actor;
    let aliceName: string;

    beforeAll(async () => {
      alice = await createUser(t, admin, 'alice-lister');
      aliceName = await usernameOf(alice);
      await createUser(t, admin, 'bob-lister');
      await createUser(t, admin, 'carol_lister');
    });

    it('lists every user, paginated, with the installation’s status counts', async () => {
      const res = await admin.api.get('/api/v2/admin/users?page[size]=2').expect(200);
      expect(res.body.data).toEqual([
        userShape(admin.userId!, 'admin', { admin: true }),
        userShape(alice.userId!, aliceName),
      ]);
      expect(res.body.meta['status-counts']).toEqual({
        total: expect.any(Number),
        suspended: expect.any(Number),
        admin: expect.any(Number),
      });
      const counts = res.body.meta['status-counts'];
      expect(counts.total).toBeGreaterThanOrEqual(4);
      expect(counts.admin).toBeGreaterThanOrEqual(1);
      expectPagination(res.body, {
        current: 1,
        size: 2,
        prev: null,
        next: 2,
        pages: Math.ceil(counts.total / 2),
        count: counts.total,
      });
    });

    it('searches usernames and emails with q or search, and filters by exact username', async () => {
      const byQ = await admin.api.get('/api/v2/admin/users?q=LISTER').expect(200);
      expect(byQ.body.data.map((u: { attributes: { username: string } }) => u.attributes.username)).toEqual([
        'alice-lister',
        'bob-lister',
        'carol_lister',
      ]);
      const bySearch = await admin.api.get('/api/v2/admin/users?search=bob-lister%40example').expect(200);
      expect(bySearch.body.data.map((u: { id: string }) => u.id)).toHaveLength(1);
      // LIKE wildcards are literal: `_` matches only an underscore.
      const literal = await admin.api.get('/api/v2/admin/users?q=l_ster').expect(200);
      expect(literal.body.data).toEqual([]);
      expect(literal.body.meta.pagination['total-count']).toBe(0);
      const exact = await admin.api.get('/api/v2/admin/users?filter[username]=ALICE-lister').expect(200);
      expect(exact.body.data).toEqual([userShape(alice.userId!, aliceName)]);
      const partial = await admin.api.get('/api/v2/admin/users?filter[username]=alice').expect(200);
      expect(partial.body.data).toEqual([]);
    });

    it('filters by admin and suspended flags, and refuses values that are not booleans', async () => {
      const admins = await admin.api.get('/api/v2/admin/users?filter[admin]=true').expect(200);
      expect(
        admins.body.data.every((u: { attributes: Record<string, unknown> }) => u.attributes['is-admin']),
      ).toBe(true);
      const bad = await admin.api.get('/api/v2/admin/users?filter[suspended]=maybe').expect(400);
      expect(bad.body).toEqual(
        errorsOf(400, { detail: 'filter[suspended] must be true or false', parameter: 'filter[suspended]' }),
      );
      const size = await admin.api.get('/api/v2/admin/users?page[size]=0').expect(422);
      expect(size.body.errors[0].source).toEqual({ parameter: 'page[size]' });
    });

    it('answers 404 to anyone who is not a site administrator, on every admin user route', async () => {
      for (const path of ['/api/v2/admin/users', `/api/v2/admin/users/${admin.userId}`]) {
        const res = await alice.api.get(path).expect(404);
        expect(res.body).toEqual(errorsOf(404));
      }
      await alice.api.post(`/api/v2/admin/users/${admin.userId}/actions/suspend`).expect(404);
      await alice.api.post(`/api/v2/admin/users/${admin.userId}/actions/unsuspend`).expect(404);
      await alice.api.delete(`/api/v2/admin/users/${admin.userId}`).expect(404);
      await client(t).get('/api/v2/admin/users').expect(401);
    });

    it('shows one user, and 404 for an unknown id', async () => {
      const res = await admin.api.get(`/api/v2/admin/users/${alice.userId}`).expect(200);
      expect(res.body).toEqual({ data: userShape(alice.userId!, aliceName) });
      await admin.api.get('/api/v2/admin/users/user-0000000000000000').expect(404);
    });
  });

  describe('suspend and unsuspend', () => {
    it('stops a suspended user’s tokens at once, and starts them again on unsuspend', async () => {
      const user = await createUser(t, admin);
      const name = await usernameOf(user);
      // Warm the authentication cache: the suspension must not be served from it.
      await user.api.get('/api/v2/account/details').expect(200);

      const suspended = await admin.api
        .post(`/api/v2/admin/users/${user.userId}/actions/suspend`)
        .expect(200);
      expect(suspended.body).toEqual({ data: userShape(user.userId!, name, { suspended: true }) });
      const refused = await user.api.get('/api/v2/account/details').expect(401);
      expect(refused.body).toEqual(errorsOf(401));

      const listed = await admin.api.get('/api/v2/admin/users?filter[suspended]=true').expect(200);
      expect(listed.body.data.map((u: { id: string }) => u.id)).toContain(user.userId);

      const again = await admin.api.post(`/api/v2/admin/users/${user.userId}/actions/suspend`).expect(400);
      expect(again.body).toEqual(errorsOf(400, { detail: 'The user is already suspended' }));

      const back = await admin.api.post(`/api/v2/admin/users/${user.userId}/actions/unsuspend`).expect(200);
      expect(back.body).toEqual({ data: userShape(user.userId!, name) });
      await user.api.get('/api/v2/account/details').expect(200);
      const notSuspended = await admin.api
        .post(`/api/v2/admin/users/${user.userId}/actions/unsuspend`)
        .expect(400);
      expect(notSuspended.body).toEqual(errorsOf(400, { detail: 'The user is not suspended' }));
    });

    it('leaves the team and organization tokens the user issued working', async () => {
      const owner = await createUser(t, admin);
      const org = await createOrganization(owner);
      const teamToken = await createTeamToken(t, owner, await createTeam(owner, org));
      const orgToken = await createOrganizationToken(t, owner, org);
      await admin.api.post(`/api/v2/admin/users/${owner.userId}/actions/suspend`).expect(200);
      await owner.api.get(`/api/v2/organizations/${org}`).expect(401);
      await teamToken.api.get(`/api/v2/organizations/${org}`).expect(200);
      await orgToken.api.get(`/api/v2/organizations/${org}`).expect(200);
    });

    it('refuses to suspend the caller’s own account, and 404 for an unknown user', async () => {
      const self = await admin.api.post(`/api/v2/admin/users/${admin.userId}/actions/suspend`).expect(422);
      expect(self.body).toEqual(errorsOf(422, { detail: 'You cannot suspend your own account' }));
      await admin.api.post('/api/v2/admin/users/user-0000000000000000/actions/suspend').expect(404);
    });
  });

  describe('grant and revoke site administration', () => {
    it('makes a user a site administrator and back, taking effect on their tokens at once', async () => {
      const user = await createUser(t, admin);
      const name = await usernameOf(user);
      await user.api.get('/api/v2/admin/users').expect(404);
      const granted = await admin.api
        .post(`/api/v2/admin/users/${user.userId}/actions/grant_admin`)
        .expect(200);
      expect(granted.body).toEqual({ data: userShape(user.userId!, name, { admin: true }) });
      await user.api.get('/api/v2/admin/users').expect(200);
      const again = await admin.api
        .post(`/api/v2/admin/users/${user.userId}/actions/grant_admin`)
        .expect(400);
      expect(again.body).toEqual(errorsOf(400, { detail: 'The user is already a site administrator' }));

      const revoked = await admin.api
        .post(`/api/v2/admin/users/${user.userId}/actions/revoke_admin`)
        .expect(200);
      expect(revoked.body).toEqual({ data: userShape(user.userId!, name) });
      await user.api.get('/api/v2/admin/users').expect(404);
      await admin.api.post(`/api/v2/admin/users/${user.userId}/actions/revoke_admin`).expect(400);
    });

    it('refuses to revoke the caller’s own administration', async () => {
      const res = await admin.api
        .post(`/api/v2/admin/users/${admin.userId}/actions/revoke_admin`)
        .expect(422);
      expect(res.body).toEqual(errorsOf(422, { detail: 'You cannot revoke your own site administration' }));
    });
  });

  describe('delete', () => {
    it('removes the user, their tokens and memberships; tokens they issued for a team stay', async () => {
      const owner = await createUser(t, admin);
      const org = await createOrganization(owner);
      const leaving = await createUser(t, admin);
      const owners = (await owner.api.get(`/api/v2/organizations/${org}/teams`).expect(200)).body.data.find(
        (team: { attributes: { name: string } }) => team.attributes.name === 'owners',
      ).id as string;
      await addToTeam(owner, owners, leaving.userId!);
      const teamId = await createTeam(owner, org);
      const teamToken = await createTeamToken(t, leaving, teamId);
      const tokenId = (
        await owner.api
          .get(`/api/v2/organizations/${org}/authentication-tokens?filter[kind]=team`)
          .expect(200)
      ).body.data[0].id as string;

      await admin.api.delete(`/api/v2/admin/users/${leaving.userId}`).expect(204);

      await leaving.api.get('/api/v2/account/details').expect(401);
      await admin.api.get(`/api/v2/admin/users/${leaving.userId}`).expect(404);
      const members = await owner.api.get(`/api/v2/teams/${owners}`).expect(200);
      expect(members.body.data.relationships.users.data).toEqual([{ id: owner.userId, type: 'users' }]);
      await teamToken.api.get(`/api/v2/organizations/${org}`).expect(200);
      const shown = await owner.api.get(`/api/v2/authentication-tokens/${tokenId}`).expect(200);
      // Kept, no longer attributed to anyone: it names only its team.
      expect(shown.body.data.attributes.kind).toBe('team');
      expect(shown.body.data.relationships).toEqual({ team: { data: { id: teamId, type: 'teams' } } });
      await admin.api.delete(`/api/v2/admin/users/${leaving.userId}`).expect(404);
    });

    it('refuses to delete the only owner of an organization, or the caller', async () => {
      const owner = await createUser(t, admin);
      const org = await createOrganization(owner);
      const res = await admin.api.delete(`/api/v2/admin/users/${owner.userId}`).expect(422);
      expect(res.body).toEqual(
        errorsOf(422, {
          detail: `The user is the only owner of ${org}; add another owner or delete the organization first`,
        }),
      );
      await owner.api.get('/api/v2/account/details').expect(200);
      const self = await admin.api.delete(`/api/v2/admin/users/${admin.userId}`).expect(422);
      expect(self.body).toEqual(errorsOf(422, { detail: 'You cannot delete your own account' }));
    });
  });
});
