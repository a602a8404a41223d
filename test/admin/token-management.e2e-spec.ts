import { TokenUsage } from '../../src/common/auth/token-usage';
import {
  Actor,
  bootstrapAdmin,
  createOrganization,
  createTeam,
  createUser,
  expectPagination,
  memberWith,
} from '../helpers/fixtures';
import { client, startApp, TestApp } from '../helpers/test-app';
import { errorsOf, tokenShape } from '../helpers/shapes';

describe('tokens listed and revoked without their secrets', () => {
  let t: TestApp;
  let admin: Actor;

  beforeAll(async () => {
    // A remembered GET answer may trail last-used-at by CACHE_TTL_MS (docs/administration.md); not here.
    t = await startApp({ RESPONSE_CACHE_MB: '0' });
    admin = await bootstrapAdmin(t);
  });
  afterAll(() => t.close());

  const issue = async (actor: Actor, path: string, description?: string) => {
    const body = description
      ? { data: { type: 'authentication-tokens', attributes: { description } } }
      : undefined;
    const res = await actor.api.post(path, body).expect(201);
    return { id: res.body.data.id as string, secret: res.body.data.attributes.token as string };
  };

  describe('site administrators', () => {
    it('list any user’s tokens, paginated, never with a secret', async () => {
      const user = await createUser(t, admin);
      await issue(user, `/api/v2/users/${user.userId}/authentication-tokens`, 'second');
      const res = await admin.api
        .get(`/api/v2/users/${user.userId}/authentication-tokens?page[size]=1&page[number]=2`)
        .expect(200);
      expect(res.body.data).toEqual([
        tokenShape(res.body.data[0].id, { kind: 'user', description: 'second', createdBy: user.userId }),
      ]);
      expectPagination(res.body, { current: 2, size: 1, prev: 1, next: null, pages: 2, count: 2 });
      await admin.api.get('/api/v2/users/user-0000000000000000/authentication-tokens').expect(404);
    });

    it('show and revoke another user’s token, which stops at once', async () => {
      const user = await createUser(t, admin);
      const token = await issue(user, `/api/v2/users/${user.userId}/authentication-tokens`, 'laptop');
      const api = client(t, token.secret);
      await api.get('/api/v2/account/details').expect(200);
      const shown = await admin.api.get(`/api/v2/authentication-tokens/${token.id}`).expect(200);
      expect(shown.body.data.attributes.token).toBeNull();
      await admin.api.delete(`/api/v2/authentication-tokens/${token.id}`).expect(204);
      await api.get('/api/v2/account/details').expect(401);
      await user.api.get('/api/v2/account/details').expect(200);
    });
  });

  describe('organization owners', () => {
    it('see the metadata of their organization’s token and team tokens, and nobody else’s', async () => {
      const owner = await createUser(t, admin);
      const org = await createOrganization(owner);
      const other = await createOrganization(owner);
      const team = await createTeam(owner, org);
      const teamToken = await issue(owner, `/api/v2/teams/${team}/authentication-token`, 'ci');
      const orgToken = await issue(owner, `/api/v2/organizations/${org}/authentication-token`, 'org');
      await issue(owner, `/api/v2/teams/${await createTeam(owner, other)}/authentication-token`);
      await issue(owner, `/api/v2/users/${owner.userId}/authentication-tokens`);

      const res = await owner.api.get(`/api/v2/organizations/${org}/authentication-tokens`).expect(200);
      expect(res.body.data).toEqual([
        tokenShape(teamToken.id, { kind: 'team', description: 'ci', createdBy: owner.userId, team }),
        tokenShape(orgToken.id, { kind: 'organization', description: 'org', createdBy: owner.userId }),
      ]);
      expectPagination(res.body, { current: 1, size: 20, prev: null, next: null, pages: 1, count: 2 });
      const teams = await owner.api
        .get(`/api/v2/organizations/${org}/authentication-tokens?filter[kind]=team`)
        .expect(200);
      expect(teams.body.data.map((d: { id: string }) => d.id)).toEqual([teamToken.id]);
      const bad = await owner.api
        .get(`/api/v2/organizations/${org}/authentication-tokens?filter[kind]=user`)
        .expect(400);
      expect(bad.body).toEqual(
        errorsOf(400, { detail: 'filter[kind] must be team or organization', parameter: 'filter[kind]' }),
      );

      const member = await memberWith(t, admin, owner, org, ['manage-workspaces']);
      await member.api.get(`/api/v2/organizations/${org}/authentication-tokens`).expect(404);
      await client(t, teamToken.secret).get(`/api/v2/organizations/${org}/authentication-tokens`).expect(404);
      const asOrg = await client(t, orgToken.secret)
        .get(`/api/v2/organizations/${org}/authentication-tokens`)
        .expect(200);
      expect(asOrg.body.data).toHaveLength(2);
    });
  });

  describe('last-used-at', () => {
    it('is null until the token is used, then kept to the minute without a write per request', async () => {
      const user = await createUser(t, admin);
      const token = await issue(user, `/api/v2/users/${user.userId}/authentication-tokens`);
      const usage = t.app.get(TokenUsage);
      const show = async () =>
        (await admin.api.get(`/api/v2/authentication-tokens/${token.id}`).expect(200)).body.data.attributes[
          'last-used-at'
        ] as string | null;
      await usage.flush();
      expect(await show()).toBeNull();

      const before = Date.now();
      await client(t, token.secret).get('/api/v2/account/details').expect(200);
      await usage.flush();
      const first = await show();
      expect(first).not.toBeNull();
      expect(Date.parse(first!)).toBeGreaterThanOrEqual(before - 1);

      // Within the minute: neither this process nor the statement writes it again.
      await client(t, token.secret).get('/api/v2/organizations').expect(200);
      await usage.flush();
      expect(await show()).toBe(first);
      await usage.flush(new Date(Date.now() + 30_000));
      expect(await show()).toBe(first);
    });

    it('is written again once a minute has passed', async () => {
      const user = await createUser(t, admin);
      const token = await issue(user, `/api/v2/users/${user.userId}/authentication-tokens`);
      const usage = t.app.get(TokenUsage);
      await usage.flush();
      await client(t, token.secret).get('/api/v2/account/details').expect(200);
      await usage.flush();
      // A use noted 61 s later (as the clock will read then) is due, and the row is old enough.
      const later = Date.now() + 61_000;
      usage.touch(token.id, later);
      await usage.flush(new Date(later));
      const shown = await admin.api.get(`/api/v2/authentication-tokens/${token.id}`).expect(200);
      expect(shown.body.data.attributes['last-used-at']).toBe(new Date(later).toISOString());
    });
  });
});
