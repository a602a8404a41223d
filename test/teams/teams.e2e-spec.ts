import {
  Actor,
  addToTeam,
  createOrganization,
  createOrganizationToken,
  createTeam,
  createTeamToken,
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
import { ALL_FLAGS, errorsOf, teamShape, teamWorkspaceShape } from '../helpers/shapes';

describe('teams', () => {
  let t: TestApp;
  let admin: Actor;
  let owner: Actor;
  let org: string;
  let ownersTeam: string;

  beforeAll(async () => {
    ({ t, admin, owner, org } = await startWithOwnedOrganization());
    ownersTeam = (await owner.api.get(`/api/v2/organizations/${org}/teams`).expect(200)).body.data[0].id;
  });
  afterAll(() => t.close());

  const body = (attributes: Record<string, unknown>) => ({ data: { type: 'teams', attributes } });
  const users = (...ids: string[]) => ({ data: ids.map((id) => ({ type: 'users', id })) });

  it('creates a team with organization-access flags and shows it with the same shape', async () => {
    const name = unique('platform');
    const res = await owner.api
      .post(
        `/api/v2/organizations/${org}/teams`,
        body({
          name,
          visibility: 'organization',
          'organization-access': {
            'manage-policies': true,
            'read-workspaces': true,
            'manage-providers': false,
          },
        }),
      )
      .expect(201);
    const id = res.body.data.id as string;
    expect(id).toMatch(idOf('team'));
    expect(res.body).toEqual({
      data: teamShape(id, org, {
        name,
        visibility: 'organization',
        flags: ['manage-policies', 'read-workspaces'],
      }),
    });
    expect((await owner.api.get(`/api/v2/teams/${id}`).expect(200)).body).toEqual(res.body);
  });

  it('lists the teams of an organization by name, owners team included', async () => {
    const local = await createOrganization(owner);
    const a = await createTeam(owner, local, [], 'alpha');
    const z = await createTeam(owner, local, ['read-projects'], 'zulu');
    const res = await owner.api.get(`/api/v2/organizations/${local}/teams`).expect(200);
    expect(res.body.data).toEqual([
      teamShape(a, local, { name: 'alpha' }),
      teamShape(res.body.data[1].id, local, {
        name: 'owners',
        visibility: 'organization',
        flags: ALL_FLAGS,
        userIds: [owner.userId!],
      }),
      teamShape(z, local, { name: 'zulu', flags: ['read-projects'] }),
    ]);
    expectPagination(res.body, { current: 1, size: 20, prev: null, next: null, pages: 1, count: 3 });
    const page = await owner.api
      .get(`/api/v2/organizations/${local}/teams?page[size]=1&page[number]=2`)
      .expect(200);
    expect(page.body.data.map((x: { attributes: { name: string } }) => x.attributes.name)).toEqual([
      'owners',
    ]);
    expectPagination(page.body, { current: 2, size: 1, prev: 1, next: 3, pages: 3, count: 3 });
  });

  it('updates name, visibility and single flags, keeping the rest', async () => {
    const id = await createTeam(owner, org, ['manage-workspaces']);
    const name = unique('renamed');
    const res = await owner.api
      .patch(
        `/api/v2/teams/${id}`,
        body({ name, visibility: 'organization', 'organization-access': { 'read-projects': true } }),
      )
      .expect(200);
    expect(res.body).toEqual({
      data: teamShape(id, org, {
        name,
        visibility: 'organization',
        flags: ['manage-workspaces', 'read-projects'],
      }),
    });
    const off = await owner.api
      .patch(`/api/v2/teams/${id}`, body({ 'organization-access': { 'manage-workspaces': false } }))
      .expect(200);
    expect(off.body.data.attributes['organization-access']).toEqual(
      Object.fromEntries(ALL_FLAGS.map((f) => [f, f === 'read-projects'])),
    );
  });

  it('keeps the owners team as it is', async () => {
    const rename = await owner.api.patch(`/api/v2/teams/${ownersTeam}`, body({ name: 'bosses' })).expect(422);
    expect(rename.body).toEqual(
      errorsOf(422, { detail: 'Name of the owners team cannot change', pointer: '/data/attributes/name' }),
    );
    const flags = await owner.api
      .patch(`/api/v2/teams/${ownersTeam}`, body({ 'organization-access': { 'manage-policies': false } }))
      .expect(422);
    expect(flags.body.errors[0].source).toEqual({ pointer: '/data/attributes/organization-access' });
    const del = await owner.api.delete(`/api/v2/teams/${ownersTeam}`).expect(422);
    expect(del.body).toEqual(errorsOf(422, { detail: 'The owners team cannot be deleted' }));
    const taken = await owner.api
      .post(`/api/v2/organizations/${org}/teams`, body({ name: 'owners' }))
      .expect(422);
    expect(taken.body).toEqual(
      errorsOf(422, {
        detail: 'Name has already been taken',
        code: 'NAME_TAKEN',
        pointer: '/data/attributes/name',
      }),
    );
  });

  it('refuses a team name already taken in the organization', async () => {
    const name = unique('dup');
    await createTeam(owner, org, [], name);
    const res = await owner.api.post(`/api/v2/organizations/${org}/teams`, body({ name })).expect(422);
    expect(res.body).toEqual(
      errorsOf(422, {
        detail: 'Name has already been taken',
        code: 'NAME_TAKEN',
        pointer: '/data/attributes/name',
      }),
    );
    const other = await createTeam(owner, org);
    await owner.api.patch(`/api/v2/teams/${other}`, body({ name })).expect(422);
  });

  it('validates team attributes', async () => {
    const res = await owner.api
      .post(
        `/api/v2/organizations/${org}/teams`,
        body({ name: '', visibility: 'public', 'organization-access': { 'manage-policies': 'yes' } }),
      )
      .expect(422);
    expect(res.body).toEqual(
      errorsOf(
        422,
        { detail: "Name can't be blank", pointer: '/data/attributes/name' },
        { detail: 'Visibility is not included in the list', pointer: '/data/attributes/visibility' },
        {
          detail: 'Organization access manage policies must be a boolean value',
          pointer: '/data/attributes/organization-access/manage-policies',
        },
      ),
    );
    const notObject = await owner.api
      .post(`/api/v2/organizations/${org}/teams`, body({ name: 'x', 'organization-access': 'all' }))
      .expect(422);
    expect(notObject.body).toEqual(
      errorsOf(422, {
        detail: 'Organization access must be an object',
        pointer: '/data/attributes/organization-access',
      }),
    );
  });

  it('deletes a team, and its members lose what it gave them', async () => {
    const local = await createOrganization(owner);
    const member = await memberWith(t, admin, owner, local, ['read-workspaces']);
    await member.api.get(`/api/v2/organizations/${local}`).expect(200);
    await owner.api.delete(`/api/v2/teams/${member.teamId}`).expect(204);
    await owner.api.get(`/api/v2/teams/${member.teamId}`).expect(404);
    await member.api.get(`/api/v2/organizations/${local}`).expect(404);
  });

  it('lets members read teams but only owners change them', async () => {
    const member = await memberWith(t, admin, owner, org, [...ALL_FLAGS]);
    await member.api.get(`/api/v2/organizations/${org}/teams`).expect(200);
    await member.api.get(`/api/v2/teams/${ownersTeam}`).expect(200);
    await member.api.post(`/api/v2/organizations/${org}/teams`, body({ name: unique('no') })).expect(404);
    await member.api.patch(`/api/v2/teams/${member.teamId}`, body({ name: unique('no') })).expect(404);
    await member.api.delete(`/api/v2/teams/${member.teamId}`).expect(404);
  });

  describe('secret teams', () => {
    let local: string;
    let alice: Actor & { teamId: string };
    let bob: Actor & { teamId: string };
    let ownersOfLocal: string;
    let open: string;

    beforeAll(async () => {
      local = await createOrganization(owner);
      ownersOfLocal = (await owner.api.get(`/api/v2/organizations/${local}/teams`).expect(200)).body.data[0]
        .id;
      alice = await memberWith(t, admin, owner, local);
      bob = await memberWith(t, admin, owner, local);
      const created = await owner.api
        .post(
          `/api/v2/organizations/${local}/teams`,
          body({ name: unique('open'), visibility: 'organization' }),
        )
        .expect(201);
      open = created.body.data.id;
    });

    const listed = async (actor: Actor) => {
      const res = await actor.api.get(`/api/v2/organizations/${local}/teams`).expect(200);
      expect(res.body.meta.pagination['total-count']).toBe(res.body.data.length);
      return (res.body.data as { id: string }[]).map((d) => d.id).sort();
    };

    it('are listed and shown, with their members, only to their own members', async () => {
      expect(await listed(alice)).toEqual([alice.teamId, ownersOfLocal, open].sort());
      expect(await listed(bob)).toEqual([bob.teamId, ownersOfLocal, open].sort());

      const own = await alice.api.get(`/api/v2/teams/${alice.teamId}`).expect(200);
      expect(own.body.data.relationships.users.data).toEqual([{ id: alice.userId, type: 'users' }]);
      const other = await alice.api.get(`/api/v2/teams/${bob.teamId}`).expect(404);
      expect(other.body).toEqual({ errors: [{ status: '404', title: 'not found' }] });

      const teamToken = await createTeamToken(t, owner, bob.teamId);
      expect(await listed(teamToken)).toEqual([bob.teamId, ownersOfLocal, open].sort());
      await teamToken.api.get(`/api/v2/teams/${alice.teamId}`).expect(404);
    });

    it('are all visible to owners, to the organization token and to site administrators', async () => {
      const all = [alice.teamId, bob.teamId, ownersOfLocal, open].sort();
      expect(await listed(owner)).toEqual(all);
      expect(await listed(await createOrganizationToken(t, owner, local))).toEqual(all);
      expect(await listed(admin)).toEqual(all);
      await admin.api.get(`/api/v2/teams/${bob.teamId}`).expect(200);
    });

    it('become visible to every member once made visible to the organization', async () => {
      const team = await createTeam(owner, local);
      await alice.api.get(`/api/v2/teams/${team}`).expect(404);
      await owner.api.patch(`/api/v2/teams/${team}`, body({ visibility: 'organization' })).expect(200);
      await alice.api.get(`/api/v2/teams/${team}`).expect(200);
      expect(await listed(alice)).toContain(team);
    });
  });

  it('answers 404 across organizations', async () => {
    const id = await createTeam(owner, org);
    const stranger = await createUser(t, admin);
    await createOrganization(stranger);
    await stranger.api.get(`/api/v2/teams/${id}`).expect(404);
    await stranger.api.get(`/api/v2/organizations/${org}/teams`).expect(404);
    await stranger.api.patch(`/api/v2/teams/${id}`, body({ name: 'x' })).expect(404);
    await stranger.api.delete(`/api/v2/teams/${id}`).expect(404);
    await stranger.api.post(`/api/v2/teams/${id}/relationships/users`, users(stranger.userId!)).expect(404);
  });

  describe('membership', () => {
    it('adds users by id or by username and removes them', async () => {
      const local = await createOrganization(owner);
      const team = await createTeam(owner, local, [], 'crew');
      const ann = await createUser(t, admin, unique('ann'));
      const ben = await createUser(t, admin);
      const benName = (await admin.api.get(`/api/v2/users/${ben.userId}`).expect(200)).body.data.attributes
        .username;

      const added = await owner.api
        .post(`/api/v2/teams/${team}/relationships/users`, users(ann.userId!, benName, ann.userId!))
        .expect(204);
      expect(added.text).toBe('');
      const shown = await owner.api.get(`/api/v2/teams/${team}`).expect(200);
      const members = shown.body.data.relationships.users.data as { id: string }[];
      expect(members.map((m) => m.id).sort()).toEqual([ann.userId!, ben.userId!].sort());
      expect(shown.body.data).toEqual(
        teamShape(team, local, { name: 'crew', userIds: members.map((m) => m.id) }),
      );
      await ann.api.get(`/api/v2/organizations/${local}`).expect(200);

      await owner.api.post(`/api/v2/teams/${team}/relationships/users`, users(ann.userId!)).expect(204);
      await owner.api.delete(`/api/v2/teams/${team}/relationships/users`, users(ann.userId!)).expect(204);
      const after = await owner.api.get(`/api/v2/teams/${team}`).expect(200);
      expect(after.body.data.relationships.users.data).toEqual([{ id: ben.userId, type: 'users' }]);
      expect(after.body.data.attributes['users-count']).toBe(1);
      await ann.api.get(`/api/v2/organizations/${local}`).expect(404);
    });

    it('refuses unknown users and wrong types without changing the team', async () => {
      const team = await createTeam(owner, org);
      const ann = await createUser(t, admin);
      const unknown = await owner.api
        .post(`/api/v2/teams/${team}/relationships/users`, users(ann.userId!, 'user-nobody0000000000'))
        .expect(422);
      expect(unknown.body).toEqual(
        errorsOf(422, { detail: 'User user-nobody0000000000 not found', pointer: '/data/1/id' }),
      );
      const wrongType = await owner.api
        .post(`/api/v2/teams/${team}/relationships/users`, { data: [{ type: 'teams', id: ann.userId }] })
        .expect(422);
      expect(wrongType.body).toEqual(
        errorsOf(422, { detail: 'Type must be users', pointer: '/data/0/type' }),
      );
      const notArray = await owner.api
        .post(`/api/v2/teams/${team}/relationships/users`, { data: { type: 'users', id: ann.userId } })
        .expect(422);
      expect(notArray.body.errors[0].source).toEqual({ pointer: '/data' });
      const shown = await owner.api.get(`/api/v2/teams/${team}`).expect(200);
      expect(shown.body.data.relationships.users.data).toEqual([]);
    });

    it('keeps at least one member in the owners team', async () => {
      const local = await createOrganization(owner);
      const owners = (await owner.api.get(`/api/v2/organizations/${local}/teams`)).body.data[0].id as string;
      const res = await owner.api
        .delete(`/api/v2/teams/${owners}/relationships/users`, users(owner.userId!))
        .expect(422);
      expect(res.body).toEqual(
        errorsOf(422, { detail: 'The owners team must keep at least one member', pointer: '/data' }),
      );
      await owner.api.get(`/api/v2/organizations/${local}`).expect(200);

      const second = await createUser(t, admin);
      await addToTeam(owner, owners, second.userId!);
      await second.api
        .delete(`/api/v2/teams/${owners}/relationships/users`, users(owner.userId!))
        .expect(204);
      await owner.api.get(`/api/v2/organizations/${local}`).expect(404);
      await second.api
        .patch(`/api/v2/organizations/${local}`, {
          data: { type: 'organizations', attributes: { email: 'n@example.com' } },
        })
        .expect(200);
    });

    it('needs owner rights to change membership', async () => {
      const member = await memberWith(t, admin, owner, org, [...ALL_FLAGS]);
      const other = await createUser(t, admin);
      await member.api
        .post(`/api/v2/teams/${member.teamId}/relationships/users`, users(other.userId!))
        .expect(404);
      await member.api
        .delete(`/api/v2/teams/${member.teamId}/relationships/users`, users(member.userId!))
        .expect(404);
    });
  });

  describe('team access to workspaces', () => {
    const grant = (teamId: string, workspaceId: string, access: unknown) => ({
      data: {
        type: 'team-workspaces',
        attributes: { access },
        relationships: {
          team: { data: { type: 'teams', id: teamId } },
          workspace: { data: { type: 'workspaces', id: workspaceId } },
        },
      },
    });

    it('grants, shows, lists, changes and revokes access', async () => {
      const ws = await createWorkspace(owner, org);
      const team = await createTeam(owner, org);
      const created = await owner.api.post('/api/v2/team-workspaces', grant(team, ws, 'plan')).expect(201);
      const id = created.body.data.id as string;
      expect(id).toMatch(idOf('tws'));
      expect(created.body).toEqual({ data: teamWorkspaceShape(id, team, ws, 'plan') });
      expect((await owner.api.get(`/api/v2/team-workspaces/${id}`).expect(200)).body).toEqual(created.body);

      const list = await owner.api.get(`/api/v2/team-workspaces?filter[workspace][id]=${ws}`).expect(200);
      expect(list.body.data).toEqual([teamWorkspaceShape(id, team, ws, 'plan')]);
      expectPagination(list.body, { current: 1, size: 20, prev: null, next: null, pages: 1, count: 1 });
      expect(list.body.links.self).toContain(`filter%5Bworkspace%5D%5Bid%5D=${ws}`);

      const changed = await owner.api
        .patch(`/api/v2/team-workspaces/${id}`, {
          data: { type: 'team-workspaces', attributes: { access: 'admin' } },
        })
        .expect(200);
      expect(changed.body).toEqual({ data: teamWorkspaceShape(id, team, ws, 'admin') });

      await owner.api.delete(`/api/v2/team-workspaces/${id}`).expect(204);
      await owner.api.get(`/api/v2/team-workspaces/${id}`).expect(404);
      const empty = await owner.api.get(`/api/v2/team-workspaces?filter[workspace][id]=${ws}`).expect(200);
      expectPagination(empty.body, { current: 1, size: 20, prev: null, next: null, pages: 0, count: 0 });
    });

    it('requires filter[workspace][id] on the list', async () => {
      const res = await owner.api.get('/api/v2/team-workspaces').expect(400);
      expect(res.body).toEqual(
        errorsOf(400, { detail: 'filter[workspace][id] is required', parameter: 'filter[workspace][id]' }),
      );
      await owner.api.get('/api/v2/team-workspaces?filter[workspace][id]=ws-missing00000000').expect(404);
    });

    it('refuses a second grant for the same team and workspace, bad levels and foreign teams', async () => {
      const ws = await createWorkspace(owner, org);
      const team = await createTeam(owner, org);
      await grantWorkspace(owner, team, ws, 'read');
      const dup = await owner.api.post('/api/v2/team-workspaces', grant(team, ws, 'write')).expect(422);
      expect(dup.body).toEqual(
        errorsOf(422, {
          detail: 'Team already has access to this workspace',
          code: 'TEAM_ACCESS_TAKEN',
          pointer: '/data/relationships/team',
        }),
      );
      const level = await owner.api.post('/api/v2/team-workspaces', grant(team, ws, 'root')).expect(422);
      expect(level.body).toEqual(
        errorsOf(422, {
          detail: 'Access is not included in the list (read, plan, write, admin)',
          pointer: '/data/attributes/access',
        }),
      );
      const elsewhere = await createOrganization(owner);
      const foreign = await createTeam(owner, elsewhere);
      const cross = await owner.api.post('/api/v2/team-workspaces', grant(foreign, ws, 'read')).expect(422);
      expect(cross.body).toEqual(
        errorsOf(422, { detail: 'Team not found', pointer: '/data/relationships/team/data/id' }),
      );
      const missing = await owner.api
        .post('/api/v2/team-workspaces', {
          data: { type: 'team-workspaces', attributes: { access: 'read' }, relationships: {} },
        })
        .expect(422);
      expect(missing.body).toEqual(
        errorsOf(422, { detail: 'Team relationship is required', pointer: '/data/relationships/team' }),
      );
    });

    it('lets readers of the workspace see its grants but only its administrators change them', async () => {
      const ws = await createWorkspace(owner, org);
      const reader = await memberWith(t, admin, owner, org);
      await grantWorkspace(owner, reader.teamId, ws, 'write');
      const list = await reader.api.get(`/api/v2/team-workspaces?filter[workspace][id]=${ws}`).expect(200);
      const id = list.body.data[0].id as string;
      await reader.api
        .patch(`/api/v2/team-workspaces/${id}`, {
          data: { type: 'team-workspaces', attributes: { access: 'admin' } },
        })
        .expect(404);
      await reader.api.delete(`/api/v2/team-workspaces/${id}`).expect(404);
      await reader.api
        .post('/api/v2/team-workspaces', grant(reader.teamId, await createWorkspace(owner, org), 'read'))
        .expect(404);

      const stranger = await createUser(t, admin);
      await stranger.api.get(`/api/v2/team-workspaces/${id}`).expect(404);
      await stranger.api.get(`/api/v2/team-workspaces?filter[workspace][id]=${ws}`).expect(404);
    });

    describe('of secret teams', () => {
      let ws: string;
      let hidden: string;
      let hiddenGrant: string;
      let openTeam: string;
      let openGrant: string;
      let reader: Actor & { teamId: string };
      let readerGrant: string;
      let wsAdmin: Actor & { teamId: string };
      let wsAdminGrant: string;

      beforeAll(async () => {
        ws = await createWorkspace(owner, org);
        hidden = await createTeam(owner, org);
        hiddenGrant = await grantWorkspace(owner, hidden, ws, 'write');
        openTeam = (
          await owner.api
            .post(
              `/api/v2/organizations/${org}/teams`,
              body({ name: unique('open'), visibility: 'organization' }),
            )
            .expect(201)
        ).body.data.id;
        openGrant = await grantWorkspace(owner, openTeam, ws, 'read');
        reader = await memberWith(t, admin, owner, org);
        readerGrant = await grantWorkspace(owner, reader.teamId, ws, 'read');
        wsAdmin = await memberWith(t, admin, owner, org);
        wsAdminGrant = await grantWorkspace(owner, wsAdmin.teamId, ws, 'admin');
      });

      const listedGrants = async (actor: Actor) => {
        const res = await actor.api.get(`/api/v2/team-workspaces?filter[workspace][id]=${ws}`).expect(200);
        expect(res.body.meta.pagination['total-count']).toBe(res.body.data.length);
        return (res.body.data as { id: string }[]).map((d) => d.id).sort();
      };

      it('are listed and shown only to those who see the team', async () => {
        expect(await listedGrants(reader)).toEqual([openGrant, readerGrant].sort());
        expect(await listedGrants(wsAdmin)).toEqual([openGrant, wsAdminGrant].sort());
        const page = await reader.api
          .get(`/api/v2/team-workspaces?filter[workspace][id]=${ws}&page[size]=1&page[number]=2`)
          .expect(200);
        expect(page.body.data).toEqual([teamWorkspaceShape(readerGrant, reader.teamId, ws, 'read')]);
        expectPagination(page.body, { current: 2, size: 1, prev: 1, next: null, pages: 2, count: 2 });

        const shown = await reader.api.get(`/api/v2/team-workspaces/${hiddenGrant}`).expect(404);
        expect(shown.body).toEqual({ errors: [{ status: '404', title: 'not found' }] });
        await reader.api.get(`/api/v2/team-workspaces/${hiddenGrant}?include=team`).expect(400);
        expect((await reader.api.get(`/api/v2/team-workspaces/${openGrant}`).expect(200)).body).toEqual({
          data: teamWorkspaceShape(openGrant, openTeam, ws, 'read'),
        });
      });

      it('are all listed to owners, to site administrators and to the team itself', async () => {
        const all = [hiddenGrant, openGrant, readerGrant, wsAdminGrant].sort();
        expect(await listedGrants(owner)).toEqual(all);
        expect(await listedGrants(admin)).toEqual(all);
        expect(await listedGrants(await createOrganizationToken(t, owner, org))).toEqual(all);
        const teamToken = await createTeamToken(t, owner, hidden);
        expect(await listedGrants(teamToken)).toContain(hiddenGrant);
        const own = await teamToken.api.get(`/api/v2/team-workspaces/${hiddenGrant}`).expect(200);
        expect(own.body).toEqual({ data: teamWorkspaceShape(hiddenGrant, hidden, ws, 'write') });
      });

      it('cannot be changed, revoked or made by a workspace administrator who does not see the team', async () => {
        const change = { data: { type: 'team-workspaces', attributes: { access: 'read' } } };
        await wsAdmin.api.patch(`/api/v2/team-workspaces/${hiddenGrant}`, change).expect(404);
        await wsAdmin.api.delete(`/api/v2/team-workspaces/${hiddenGrant}`).expect(404);
        const other = await createTeam(owner, org);
        const made = await wsAdmin.api.post('/api/v2/team-workspaces', grant(other, ws, 'read')).expect(422);
        expect(made.body).toEqual(
          errorsOf(422, { detail: 'Team not found', pointer: '/data/relationships/team/data/id' }),
        );
        await wsAdmin.api.patch(`/api/v2/team-workspaces/${openGrant}`, change).expect(200);
        expect((await owner.api.get(`/api/v2/team-workspaces/${hiddenGrant}`).expect(200)).body).toEqual({
          data: teamWorkspaceShape(hiddenGrant, hidden, ws, 'write'),
        });
      });
    });
  });
});
