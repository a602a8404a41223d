import {
  Actor,
  createOrganization,
  createTeam,
  createUser,
  createWorkspace,
  expectPagination,
  grantWorkspace,
  idOf,
  memberWith,
  unique,
  startWithOwnedOrganization,
} from '../helpers/fixtures';
import { client, TestApp } from '../helpers/test-app';
import { errorsOf, organizationShape, tokenShape, workspacePermissions } from '../helpers/shapes';

describe('authentication tokens', () => {
  let t: TestApp;
  let admin: Actor;
  let owner: Actor;
  let org: string;

  beforeAll(async () => {
    ({ t, admin, owner, org } = await startWithOwnedOrganization());
  });
  afterAll(() => t.close());

  const tokenBody = (attributes: Record<string, unknown>) => ({
    data: { type: 'authentication-tokens', attributes },
  });
  const secretOf = (res: { body: { data: { attributes: { token: string } } } }) =>
    res.body.data.attributes.token;

  describe('user tokens', () => {
    it('issues a token to its own user and shows the secret only once', async () => {
      const res = await owner.api
        .post(`/api/v2/users/${owner.userId}/authentication-tokens`, tokenBody({ description: 'ci' }))
        .expect(201);
      const id = res.body.data.id as string;
      expect(id).toMatch(idOf('at'));
      expect(res.body).toEqual({
        data: tokenShape(id, { kind: 'user', description: 'ci', secret: true, createdBy: owner.userId }),
      });

      const shown = await owner.api.get(`/api/v2/authentication-tokens/${id}`).expect(200);
      expect(shown.body).toEqual({
        data: tokenShape(id, { kind: 'user', description: 'ci', createdBy: owner.userId }),
      });
      const me = await client(t, secretOf(res)).get('/api/v2/account/details').expect(200);
      expect(me.body.data.id).toBe(owner.userId);
    });

    it('issues a token with no body and one that expires later', async () => {
      const bare = await owner.api.post(`/api/v2/users/${owner.userId}/authentication-tokens`).expect(201);
      expect(bare.body.data.attributes).toMatchObject({ description: null, 'expired-at': null });
      const expiredAt = new Date(Date.now() + 86_400_000).toISOString();
      const later = await owner.api
        .post(`/api/v2/users/${owner.userId}/authentication-tokens`, tokenBody({ 'expired-at': expiredAt }))
        .expect(201);
      expect(later.body.data.attributes['expired-at']).toBe(expiredAt);
      await client(t, secretOf(later)).get('/api/v2/account/details').expect(200);
    });

    it('refuses an expiry in the past and malformed attributes', async () => {
      const past = await owner.api
        .post(
          `/api/v2/users/${owner.userId}/authentication-tokens`,
          tokenBody({ 'expired-at': '2001-01-01T00:00:00.000Z' }),
        )
        .expect(422);
      expect(past.body).toEqual(
        errorsOf(422, { detail: 'Expired at must be in the future', pointer: '/data/attributes/expired-at' }),
      );
      const bad = await owner.api
        .post(
          `/api/v2/users/${owner.userId}/authentication-tokens`,
          tokenBody({ 'expired-at': 'soon', description: 7 }),
        )
        .expect(422);
      expect(bad.body).toEqual(
        errorsOf(
          422,
          { detail: 'Description must be a string', pointer: '/data/attributes/description' },
          { detail: 'Expired at must be an ISO 8601 timestamp', pointer: '/data/attributes/expired-at' },
        ),
      );
    });

    it('lists the caller’s own user tokens, paginated, without secrets', async () => {
      const user = await createUser(t, admin);
      await user.api
        .post(`/api/v2/users/${user.userId}/authentication-tokens`, tokenBody({ description: 'two' }))
        .expect(201);
      // Newest first: the token just issued, which has not authenticated anything (the one the
      // user calls with may have been noted as used by now, a second after its first use).
      const res = await user.api
        .get(`/api/v2/users/${user.userId}/authentication-tokens?page[size]=1&sort=-created-at`)
        .expect(200);
      expect(res.body.data).toEqual([
        tokenShape(res.body.data[0].id, { kind: 'user', description: 'two', createdBy: user.userId }),
      ]);
      expectPagination(res.body, { current: 1, size: 1, prev: null, next: 2, pages: 2, count: 2 });
      await owner.api.get(`/api/v2/users/${user.userId}/authentication-tokens`).expect(404);
    });

    it('never issues, shows or deletes another user’s token (site administrators aside: test/admin)', async () => {
      const other = await createUser(t, admin);
      await owner.api.post(`/api/v2/users/${other.userId}/authentication-tokens`).expect(404);
      const theirs = await other.api.post(`/api/v2/users/${other.userId}/authentication-tokens`).expect(201);
      await owner.api.get(`/api/v2/authentication-tokens/${theirs.body.data.id}`).expect(404);
      await owner.api.delete(`/api/v2/authentication-tokens/${theirs.body.data.id}`).expect(404);
      await client(t, secretOf(theirs)).get('/api/v2/account/details').expect(200);
    });

    it('stops working once deleted', async () => {
      const res = await owner.api.post(`/api/v2/users/${owner.userId}/authentication-tokens`).expect(201);
      const api = client(t, secretOf(res));
      await api.get('/api/v2/account/details').expect(200);
      await api.delete(`/api/v2/authentication-tokens/${res.body.data.id}`).expect(204);
      const refused = await api.get('/api/v2/account/details').expect(401);
      expect(refused.body).toEqual(errorsOf(401));
      await owner.api.get(`/api/v2/authentication-tokens/${res.body.data.id}`).expect(404);
    });

    it('lets site administrators issue tokens for any user, and no one else', async () => {
      const other = await createUser(t, admin);
      const res = await admin.api
        .post(`/api/v2/admin/users/${other.userId}/authentication-tokens`)
        .expect(201);
      expect(res.body).toEqual({
        data: tokenShape(res.body.data.id, { kind: 'user', secret: true, createdBy: other.userId }),
      });
      await owner.api.post(`/api/v2/admin/users/${other.userId}/authentication-tokens`).expect(404);
      await admin.api.post('/api/v2/admin/users/user-0000000000000000/authentication-tokens').expect(404);
    });
  });

  describe('team tokens', () => {
    it('acts with the rights of its team in its organization', async () => {
      const local = await createOrganization(owner);
      const team = await createTeam(owner, local, ['manage-workspaces']);
      const res = await owner.api
        .post(`/api/v2/teams/${team}/authentication-token`, tokenBody({ description: 'pipeline' }))
        .expect(201);
      expect(res.body).toEqual({
        data: tokenShape(res.body.data.id, {
          kind: 'team',
          description: 'pipeline',
          secret: true,
          createdBy: owner.userId,
          team,
        }),
      });
      const asTeam = client(t, secretOf(res));

      const orgs = await asTeam.get('/api/v2/organizations').expect(200);
      expect(orgs.body.data).toEqual([organizationShape(local, { owner: false })]);
      const ws = await asTeam
        .post(`/api/v2/organizations/${local}/workspaces`, {
          data: { type: 'workspaces', attributes: { name: 'by-team' } },
        })
        .expect(201);
      expect(ws.body.data.attributes.permissions['can-update']).toBe(true);
      await asTeam
        .post(`/api/v2/organizations/${local}/teams`, { data: { type: 'teams', attributes: { name: 'no' } } })
        .expect(404);
      await asTeam.get(`/api/v2/organizations/${org}`).expect(404);
      await asTeam.get('/api/v2/account/details').expect(404);
    });

    it('sees only the workspaces its team was given', async () => {
      const local = await createOrganization(owner);
      const seen = await createWorkspace(owner, local, 'seen');
      const hidden = await createWorkspace(owner, local, 'hidden');
      const team = await createTeam(owner, local);
      await grantWorkspace(owner, team, seen, 'write');
      const asTeam = client(
        t,
        secretOf(await owner.api.post(`/api/v2/teams/${team}/authentication-token`).expect(201)),
      );

      const list = await asTeam.get(`/api/v2/organizations/${local}/workspaces`).expect(200);
      expect(list.body.data.map((w: { id: string }) => w.id)).toEqual([seen]);
      expect(list.body.data[0].attributes.permissions).toEqual(workspacePermissions('write'));
      await asTeam.get(`/api/v2/workspaces/${hidden}`).expect(404);
      await asTeam.delete(`/api/v2/workspaces/${seen}`).expect(404);
    });

    it('has one token at a time: a new one replaces the old, deleting it ends it', async () => {
      const team = await createTeam(owner, org);
      const first = await owner.api.post(`/api/v2/teams/${team}/authentication-token`).expect(201);
      const second = await owner.api.post(`/api/v2/teams/${team}/authentication-token`).expect(201);
      await client(t, secretOf(first)).get(`/api/v2/organizations/${org}`).expect(401);
      const asTeam = client(t, secretOf(second));
      await asTeam.get(`/api/v2/organizations/${org}`).expect(200);
      await owner.api.get(`/api/v2/authentication-tokens/${second.body.data.id}`).expect(200);

      await owner.api.delete(`/api/v2/teams/${team}/authentication-token`).expect(204);
      await asTeam.get(`/api/v2/organizations/${org}`).expect(401);
      const again = await owner.api.delete(`/api/v2/teams/${team}/authentication-token`).expect(404);
      expect(again.body).toEqual(errorsOf(404));
    });

    it('is left with exactly one working token after concurrent requests for a new one', async () => {
      const team = await createTeam(owner, org);
      const issued = await Promise.all(
        Array.from({ length: 5 }, () =>
          owner.api.post(`/api/v2/teams/${team}/authentication-token`).expect(201),
        ),
      );
      const statuses = await Promise.all(
        issued.map(
          async (res) => (await client(t, secretOf(res)).get(`/api/v2/organizations/${org}`)).status,
        ),
      );
      expect(statuses.sort()).toEqual([200, 401, 401, 401, 401]);
    });

    it('is managed by organization owners only', async () => {
      const member = await memberWith(t, admin, owner, org, ['manage-workspaces']);
      await member.api.post(`/api/v2/teams/${member.teamId}/authentication-token`).expect(404);
      const issued = await owner.api.post(`/api/v2/teams/${member.teamId}/authentication-token`).expect(201);
      await member.api.get(`/api/v2/authentication-tokens/${issued.body.data.id}`).expect(404);
      await member.api.delete(`/api/v2/teams/${member.teamId}/authentication-token`).expect(404);
      const stranger = await createUser(t, admin);
      await stranger.api.post(`/api/v2/teams/${member.teamId}/authentication-token`).expect(404);
    });
  });

  describe('several tokens per team, each with a description', () => {
    it('issues tokens that live beside each other and beside the one-token route’s', async () => {
      const local = await createOrganization(owner);
      const team = await createTeam(owner, local);
      const expiredAt = new Date(Date.now() + 86_400_000).toISOString();
      const ci = await owner.api
        .post(`/api/v2/teams/${team}/authentication-tokens`, {
          data: { type: '', attributes: { description: 'ci', 'expired-at': expiredAt } },
        })
        .expect(201);
      expect(ci.body).toEqual({
        data: tokenShape(ci.body.data.id, {
          kind: 'team',
          description: 'ci',
          secret: true,
          createdBy: owner.userId,
          expiredAt,
          team,
        }),
      });
      const deploy = await owner.api
        .post(`/api/v2/teams/${team}/authentication-tokens`, tokenBody({ description: 'deploy' }))
        .expect(201);
      const legacy = await owner.api.post(`/api/v2/teams/${team}/authentication-token`).expect(201);
      await owner.api.post(`/api/v2/teams/${team}/authentication-token`).expect(201);
      // Replacing the one-token route's token leaves the described ones working, and vice versa.
      await client(t, secretOf(legacy)).get(`/api/v2/organizations/${local}`).expect(401);
      for (const res of [ci, deploy])
        await client(t, secretOf(res)).get(`/api/v2/organizations/${local}`).expect(200);
      const shown = await owner.api.get(`/api/v2/teams/${team}/authentication-token`).expect(200);
      expect(shown.body.data.attributes.description).toBeNull();
      await owner.api.delete(`/api/v2/teams/${team}/authentication-token`).expect(204);
      await client(t, secretOf(ci)).get(`/api/v2/organizations/${local}`).expect(200);
      await owner.api.delete(`/api/v2/authentication-tokens/${ci.body.data.id}`).expect(204);
      await client(t, secretOf(ci)).get(`/api/v2/organizations/${local}`).expect(401);
      await client(t, secretOf(deploy)).get(`/api/v2/organizations/${local}`).expect(200);
    });

    it('requires a description unique in the team', async () => {
      const team = await createTeam(owner, org);
      const other = await createTeam(owner, org);
      const path = `/api/v2/teams/${team}/authentication-tokens`;
      const blank = await owner.api.post(path, tokenBody({})).expect(422);
      expect(blank.body).toEqual(
        errorsOf(422, { detail: "Description can't be blank", pointer: '/data/attributes/description' }),
      );
      await owner.api.post(path, tokenBody({ description: 'ci' })).expect(201);
      const taken = await owner.api.post(path, tokenBody({ description: 'ci' })).expect(422);
      expect(taken.body).toEqual(
        errorsOf(422, {
          detail: 'Description has already been taken',
          code: 'DESCRIPTION_TAKEN',
          pointer: '/data/attributes/description',
        }),
      );
      await owner.api
        .post(`/api/v2/teams/${team}/authentication-token`, tokenBody({ description: 'ci' }))
        .expect(422);
      await owner.api
        .post(`/api/v2/teams/${other}/authentication-tokens`, tokenBody({ description: 'ci' }))
        .expect(201);
    });

    it('ends with exactly one token after concurrent creates with one description', async () => {
      const team = await createTeam(owner, org);
      const statuses = await Promise.all(
        Array.from(
          { length: 4 },
          async () =>
            (
              await owner.api.post(
                `/api/v2/teams/${team}/authentication-tokens`,
                tokenBody({ description: 'x' }),
              )
            ).status,
        ),
      );
      expect(statuses.sort()).toEqual([201, 422, 422, 422]);
    });

    it('lists an organization’s team tokens for its owners, paginated, by team name with q', async () => {
      const local = await createOrganization(owner);
      const alpha = await createTeam(owner, local, [], 'alpha-builders');
      const beta = await createTeam(owner, local, [], 'beta');
      const a1 = await owner.api
        .post(`/api/v2/teams/${alpha}/authentication-tokens`, tokenBody({ description: 'one' }))
        .expect(201);
      const a2 = await owner.api.post(`/api/v2/teams/${alpha}/authentication-token`).expect(201);
      const b1 = await owner.api
        .post(`/api/v2/teams/${beta}/authentication-tokens`, tokenBody({ description: 'two' }))
        .expect(201);
      await owner.api.post(`/api/v2/organizations/${local}/authentication-token`).expect(201);
      await owner.api.post(`/api/v2/teams/${await createTeam(owner, org)}/authentication-token`).expect(201);

      const path = `/api/v2/organizations/${local}/team-tokens`;
      const all = await owner.api.get(path).expect(200);
      // Oldest first; tokens issued within one millisecond follow their ids, so compare as sets.
      expect(all.body.data).toHaveLength(3);
      expect(all.body.data).toEqual(
        expect.arrayContaining([
          tokenShape(a1.body.data.id, {
            kind: 'team',
            description: 'one',
            createdBy: owner.userId,
            team: alpha,
          }),
          tokenShape(a2.body.data.id, { kind: 'team', createdBy: owner.userId, team: alpha }),
          tokenShape(b1.body.data.id, {
            kind: 'team',
            description: 'two',
            createdBy: owner.userId,
            team: beta,
          }),
        ]),
      );
      expectPagination(all.body, { current: 1, size: 20, prev: null, next: null, pages: 1, count: 3 });
      const page = await owner.api.get(`${path}?page[size]=1&page[number]=2&sort=-created-at`).expect(200);
      expect(page.body.data).toEqual([all.body.data[1]]);
      expectPagination(page.body, { current: 2, size: 1, prev: 1, next: 3, pages: 3, count: 3 });
      for (const sort of ['created-by', '-expired-at', 'last-used-at']) {
        const sorted = await owner.api.get(`${path}?sort=${sort}`).expect(200);
        expect(sorted.body.data.map((d: { id: string }) => d.id).sort()).toEqual(
          all.body.data.map((d: { id: string }) => d.id).sort(),
        );
      }
      const named = await owner.api.get(`${path}?q=BUILD`).expect(200);
      expect(named.body.data.map((d: { id: string }) => d.id).sort()).toEqual(
        [a1.body.data.id, a2.body.data.id].sort(),
      );
    });

    it('is for the organization’s owners only', async () => {
      const member = await memberWith(t, admin, owner, org, ['manage-workspaces']);
      await member.api
        .post(`/api/v2/teams/${member.teamId}/authentication-tokens`, tokenBody({ description: 'mine' }))
        .expect(404);
      await member.api.get(`/api/v2/organizations/${org}/team-tokens`).expect(404);
      const outsider = await createUser(t, admin);
      await createOrganization(outsider);
      await outsider.api.get(`/api/v2/organizations/${org}/team-tokens`).expect(404);
      await outsider.api
        .post(`/api/v2/teams/${member.teamId}/authentication-tokens`, tokenBody({ description: 'x' }))
        .expect(404);
      await owner.api.get(`/api/v2/organizations/${unique('missing')}/team-tokens`).expect(404);
    });
  });

  describe('organization tokens', () => {
    it('acts as an owner in its organization and nowhere else', async () => {
      const local = await createOrganization(owner);
      const res = await owner.api.post(`/api/v2/organizations/${local}/authentication-token`).expect(201);
      expect(res.body).toEqual({
        data: tokenShape(res.body.data.id, { kind: 'organization', secret: true, createdBy: owner.userId }),
      });
      const asOrg = client(t, secretOf(res));

      const orgs = await asOrg.get('/api/v2/organizations').expect(200);
      expect(orgs.body.data).toEqual([organizationShape(local)]);
      await asOrg
        .post(`/api/v2/organizations/${local}/teams`, {
          data: { type: 'teams', attributes: { name: 'made-by-token' } },
        })
        .expect(201);
      await asOrg
        .post(`/api/v2/organizations/${local}/workspaces`, {
          data: { type: 'workspaces', attributes: { name: 'w' } },
        })
        .expect(201);
      await asOrg.get(`/api/v2/organizations/${org}`).expect(404);
      await asOrg.get(`/api/v2/organizations/${org}/workspaces`).expect(404);
      await asOrg.get('/api/v2/account/details').expect(404);
    });

    it('has one token at a time, and deleting it ends it', async () => {
      const local = await createOrganization(owner);
      const first = await owner.api.post(`/api/v2/organizations/${local}/authentication-token`).expect(201);
      const second = await owner.api.post(`/api/v2/organizations/${local}/authentication-token`).expect(201);
      await client(t, secretOf(first)).get(`/api/v2/organizations/${local}`).expect(401);
      await client(t, secretOf(second)).get(`/api/v2/organizations/${local}`).expect(200);
      await owner.api.delete(`/api/v2/organizations/${local}/authentication-token`).expect(204);
      await client(t, secretOf(second)).get(`/api/v2/organizations/${local}`).expect(401);
      await owner.api.delete(`/api/v2/organizations/${local}/authentication-token`).expect(404);
    });

    it('is managed by organization owners only', async () => {
      const member = await memberWith(t, admin, owner, org, ['manage-workspaces']);
      await member.api.post(`/api/v2/organizations/${org}/authentication-token`).expect(404);
      await member.api.delete(`/api/v2/organizations/${org}/authentication-token`).expect(404);
      const stranger = await createUser(t, admin);
      await stranger.api.post(`/api/v2/organizations/${org}/authentication-token`).expect(404);
      await owner.api.post(`/api/v2/organizations/${unique('missing')}/authentication-token`).expect(404);
    });
  });

  describe('as the official Go client calls them', () => {
    // Newer clients marshal their create options with no resource type: `{"data":{"type":""}}`.
    const untyped = (attributes?: Record<string, unknown>) => ({
      data: { type: '', ...(attributes ? { attributes } : {}) },
    });

    it('issues team and organization tokens from a body with an empty or singular type', async () => {
      const local = await createOrganization(owner);
      const team = await createTeam(owner, local);
      const bare = await owner.api.post(`/api/v2/teams/${team}/authentication-token`, untyped()).expect(201);
      expect(bare.body).toEqual({
        data: tokenShape(bare.body.data.id, { kind: 'team', secret: true, createdBy: owner.userId, team }),
      });
      const expiredAt = new Date(Date.now() + 86_400_000).toISOString();
      const singular = await owner.api
        .post(`/api/v2/teams/${team}/authentication-token`, {
          data: { type: 'authentication-token', attributes: { 'expired-at': expiredAt } },
        })
        .expect(201);
      expect(singular.body).toEqual({
        data: tokenShape(singular.body.data.id, {
          kind: 'team',
          secret: true,
          createdBy: owner.userId,
          expiredAt,
          team,
        }),
      });
      const org = await owner.api
        .post(`/api/v2/organizations/${local}/authentication-token`, untyped({ 'expired-at': expiredAt }))
        .expect(201);
      expect(org.body).toEqual({
        data: tokenShape(org.body.data.id, {
          kind: 'organization',
          secret: true,
          createdBy: owner.userId,
          expiredAt,
        }),
      });
      await client(t, secretOf(org)).get(`/api/v2/organizations/${local}`).expect(200);
    });

    it('still refuses a body that names another type', async () => {
      const team = await createTeam(owner, org);
      for (const path of [
        `/api/v2/teams/${team}/authentication-token`,
        `/api/v2/organizations/${org}/authentication-token`,
      ]) {
        const res = await owner.api.post(path, { data: { type: 'teams' } }).expect(409);
        expect(res.body).toEqual(
          errorsOf(409, {
            detail: 'Type must be authentication-tokens or authentication-token',
            pointer: '/data/type',
          }),
        );
      }
    });

    it('shows the team token without its secret while it exists', async () => {
      const team = await createTeam(owner, org);
      const path = `/api/v2/teams/${team}/authentication-token`;
      expect((await owner.api.get(path).expect(404)).body).toEqual(errorsOf(404));
      const issued = await owner.api.post(path, tokenBody({ description: 'deploys' })).expect(201);
      const shown = await owner.api.get(path).expect(200);
      expect(shown.body).toEqual({
        data: tokenShape(issued.body.data.id, {
          kind: 'team',
          description: 'deploys',
          createdBy: owner.userId,
          team,
        }),
      });
      await owner.api.delete(path).expect(204);
      await owner.api.get(path).expect(404);
    });

    it('shows the organization token without its secret while it exists', async () => {
      const local = await createOrganization(owner);
      const path = `/api/v2/organizations/${local}/authentication-token`;
      await owner.api.get(path).expect(404);
      const issued = await owner.api.post(path).expect(201);
      const shown = await owner.api.get(path).expect(200);
      expect(shown.body).toEqual({
        data: tokenShape(issued.body.data.id, { kind: 'organization', createdBy: owner.userId }),
      });
      await owner.api.delete(path).expect(204);
      await owner.api.get(path).expect(404);
    });

    it('shows team and organization tokens to the organization’s owners only', async () => {
      const member = await memberWith(t, admin, owner, org, ['manage-workspaces']);
      await owner.api.post(`/api/v2/teams/${member.teamId}/authentication-token`).expect(201);
      await owner.api.post(`/api/v2/organizations/${org}/authentication-token`).expect(201);
      const outsider = await createUser(t, admin);
      await createOrganization(outsider);
      for (const caller of [member, outsider]) {
        await caller.api.get(`/api/v2/teams/${member.teamId}/authentication-token`).expect(404);
        await caller.api.get(`/api/v2/organizations/${org}/authentication-token`).expect(404);
      }
      await owner.api.get('/api/v2/teams/team-0000000000000000/authentication-token').expect(404);
      await owner.api.get(`/api/v2/organizations/${unique('missing')}/authentication-token`).expect(404);
    });
  });

  it('refuses unknown, malformed and missing tokens with 401', async () => {
    for (const header of ['Bearer nope.plinthv1.nope', 'Bearer ', 'Basic dXNlcjpwYXNz', 'bearer']) {
      const res = await client(t).get('/api/v2/organizations').set('Authorization', header).expect(401);
      expect(res.body).toEqual(errorsOf(401));
    }
    await client(t).get('/api/v2/organizations').expect(401);
  });

  it('reads the token from the Authorization header only, the scheme in any case, with one space', async () => {
    const path = '/api/v2/account/details';
    await client(t).get(path).set('Authorization', `bearer ${owner.token}`).expect(200);
    await client(t).get(path).set('Authorization', `BEARER ${owner.token}`).expect(200);
    for (const header of [`Bearer  ${owner.token}`, `Bearer ${owner.token} extra`, `Token ${owner.token}`]) {
      const res = await client(t).get(path).set('Authorization', header).expect(401);
      expect(res.body).toEqual(errorsOf(401));
    }
    // RFC 6750 also allows a query parameter and a form field; neither is accepted (URLs get logged).
    await client(t).get(`${path}?access_token=${owner.token}`).expect(401);
    await client(t)
      .post('/api/v2/organizations')
      .type('form')
      .send({ access_token: owner.token })
      .expect(401);
    // Beside a valid header they are not read at all: neither a second token nor a 400.
    for (const extra of [owner.token, 'nope.plinthv1.nope']) {
      await client(t)
        .get(`${path}?access_token=${extra}`)
        .set('Authorization', `Bearer ${owner.token}`)
        .expect(200);
    }
    const refused = await client(t).get(`${path}?access_token=${owner.token}`).expect(401);
    expect(refused.body).toEqual(errorsOf(401));
  });
});
