import {
  Actor,
  bootstrapAdmin,
  createOrganization,
  createUser,
  createWorkspace,
  expectPagination,
  idOf,
  memberWith,
  unique,
} from '../helpers/fixtures';
import { client, JSONAPI, startApp, TestApp } from '../helpers/test-app';
import { ALL_FLAGS, errorsOf, organizationShape, projectShape, teamShape } from '../helpers/shapes';

describe('organizations', () => {
  let t: TestApp;
  let admin: Actor;
  let alice: Actor;

  beforeAll(async () => {
    t = await startApp();
    admin = await bootstrapAdmin(t);
    alice = await createUser(t, admin);
  });
  afterAll(() => t.close());

  const body = (attributes: Record<string, unknown>) => ({ data: { type: 'organizations', attributes } });

  it('creates an organization whose creator owns it', async () => {
    const name = unique('acme');
    const res = await alice.api
      .post('/api/v2/organizations', body({ name, email: 'ops@acme.example' }))
      .expect(201);
    expect(res.headers['content-type']).toMatch(/^application\/vnd\.api\+json/);
    expect(res.body).toEqual({ data: organizationShape(name, { email: 'ops@acme.example' }) });
    expect(res.body.data.attributes['created-at']).toBe(res.body.data.attributes['updated-at']);
  });

  it('puts the creator alone in an owners team with every organization right', async () => {
    const org = await createOrganization(alice);
    const res = await alice.api.get(`/api/v2/organizations/${org}/teams`).expect(200);
    expect(res.body.data).toEqual([
      teamShape(res.body.data[0].id, org, {
        name: 'owners',
        visibility: 'organization',
        flags: ALL_FLAGS,
        userIds: [alice.userId!],
      }),
    ]);
    expect(res.body.data[0].id).toMatch(idOf('team'));
  });

  it('creates a Default Project with the organization', async () => {
    const org = await createOrganization(alice);
    const res = await alice.api.get(`/api/v2/organizations/${org}/projects`).expect(200);
    expect(res.body.data).toEqual([projectShape(res.body.data[0].id, org, { name: 'Default Project' })]);
    expect(res.body.data[0].id).toMatch(idOf('prj'));
  });

  it('lists only the organizations the caller belongs to, site administrators all', async () => {
    const bob = await createUser(t, admin);
    const mine = [
      await createOrganization(bob, unique('b-one')),
      await createOrganization(bob, unique('b-two')),
    ];
    await createOrganization(alice);

    const res = await bob.api.get('/api/v2/organizations').expect(200);
    expect(res.body.data).toEqual(mine.sort().map((name) => organizationShape(name)));
    expectPagination(res.body, { current: 1, size: 20, prev: null, next: null, pages: 1, count: 2 });

    const all = await admin.api.get('/api/v2/organizations?page[size]=100').expect(200);
    const names = all.body.data.map((o: { id: string }) => o.id);
    expect(names).toEqual(expect.arrayContaining([...mine]));
    expect(names).toEqual([...names].sort());
    expect(all.body.meta.pagination['total-count']).toBe(names.length);
  });

  it('shows an organization to its members, with update rights only for owners', async () => {
    const org = await createOrganization(alice);
    const member = await memberWith(t, admin, alice, org, ['read-workspaces']);

    const asOwner = await alice.api.get(`/api/v2/organizations/${org}`).expect(200);
    expect(asOwner.body).toEqual({ data: organizationShape(org) });
    const asMember = await member.api.get(`/api/v2/organizations/${org}`).expect(200);
    expect(asMember.body).toEqual({ data: organizationShape(org, { owner: false }) });
  });

  it('answers 404 to non-members and for missing organizations', async () => {
    const org = await createOrganization(alice);
    const outsider = await createUser(t, admin);
    expect((await outsider.api.get(`/api/v2/organizations/${org}`).expect(404)).body).toEqual(errorsOf(404));
    await alice.api.get(`/api/v2/organizations/${unique('missing')}`).expect(404);
    await outsider.api.patch(`/api/v2/organizations/${org}`, body({ email: 'x@example.com' })).expect(404);
    await outsider.api.delete(`/api/v2/organizations/${org}`).expect(404);
  });

  it('lets owners rename it and change its email; omitted attributes keep their values', async () => {
    const org = await createOrganization(alice);
    const renamed = unique('renamed');
    const res = await alice.api.patch(`/api/v2/organizations/${org}`, body({ name: renamed })).expect(200);
    expect(res.body).toEqual({ data: organizationShape(renamed, { email: `${org}@example.com` }) });

    await alice.api.get(`/api/v2/organizations/${org}`).expect(404);
    const email = await alice.api
      .patch(`/api/v2/organizations/${renamed}`, body({ email: 'new@example.com' }))
      .expect(200);
    expect(email.body.data.attributes).toMatchObject({ name: renamed, email: 'new@example.com' });
    const projects = await alice.api.get(`/api/v2/organizations/${renamed}/projects`).expect(200);
    expect(projects.body.data[0].relationships.organization.data).toEqual({
      id: renamed,
      type: 'organizations',
    });
  });

  it('refuses updates from members who are not owners', async () => {
    const org = await createOrganization(alice);
    const member = await memberWith(t, admin, alice, org, [...ALL_FLAGS]);
    await member.api.patch(`/api/v2/organizations/${org}`, body({ email: 'x@example.com' })).expect(404);
    await member.api.delete(`/api/v2/organizations/${org}`).expect(404);
    await alice.api.get(`/api/v2/organizations/${org}`).expect(200);
  });

  it('refuses a name that is already taken, on create and on rename', async () => {
    const org = await createOrganization(alice);
    const taken = errorsOf(422, {
      detail: 'Name has already been taken',
      code: 'NAME_TAKEN',
      pointer: '/data/attributes/name',
    });
    const other = await createUser(t, admin);
    const dup = await other.api
      .post('/api/v2/organizations', body({ name: org, email: 'x@example.com' }))
      .expect(422);
    expect(dup.body).toEqual(taken);

    const second = await createOrganization(alice);
    const rename = await alice.api.patch(`/api/v2/organizations/${second}`, body({ name: org })).expect(422);
    expect(rename.body).toEqual(taken);
    await alice.api.get(`/api/v2/organizations/${second}`).expect(200);
  });

  it('lets only site administrators choose or change the edition', async () => {
    const name = unique('ed');
    const refused = await alice.api
      .post('/api/v2/organizations', body({ name, email: 'e@example.com', edition: 'free' }))
      .expect(422);
    expect(refused.body).toEqual(
      errorsOf(422, {
        detail: 'Edition can only be set by a site administrator',
        pointer: '/data/attributes/edition',
      }),
    );
    await alice.api.get(`/api/v2/organizations/${name}`).expect(404);

    const org = await createOrganization(alice);
    const change = await alice.api
      .patch(`/api/v2/organizations/${org}`, body({ edition: 'free' }))
      .expect(422);
    expect(change.body.errors[0].source).toEqual({ pointer: '/data/attributes/edition' });
    await alice.api.patch(`/api/v2/organizations/${org}`, body({ edition: 'enterprise' })).expect(200);

    const byAdmin = await admin.api
      .patch(`/api/v2/organizations/${org}`, body({ edition: 'free' }))
      .expect(200);
    expect(byAdmin.body).toEqual({ data: organizationShape(org, { edition: 'free' }) });
    const created = await admin.api
      .post('/api/v2/organizations', body({ name, email: 'e@example.com', edition: 'free' }))
      .expect(201);
    expect(created.body.data.attributes.edition).toBe('free');
  });

  it('validates the attributes it is sent', async () => {
    const res = await alice.api
      .post('/api/v2/organizations', body({ name: 'has space', email: 'nope', edition: 'gold' }))
      .expect(422);
    expect(res.body).toEqual(
      errorsOf(
        422,
        { detail: 'Name is invalid: use letters, numbers, - and _', pointer: '/data/attributes/name' },
        { detail: 'Email is invalid', pointer: '/data/attributes/email' },
        { detail: 'Edition is not included in the list', pointer: '/data/attributes/edition' },
      ),
    );
    const blank = await alice.api.post('/api/v2/organizations', body({})).expect(422);
    expect(blank.body).toEqual(
      errorsOf(
        422,
        { detail: "Name can't be blank", pointer: '/data/attributes/name' },
        { detail: "Email can't be blank", pointer: '/data/attributes/email' },
      ),
    );
    const wrongType = await alice.api
      .post('/api/v2/organizations', {
        data: { type: 'workspaces', attributes: { name: 'x', email: 'x@e.co' } },
      })
      .expect(409);
    expect(wrongType.body).toEqual(
      errorsOf(409, { detail: 'Type must be organizations', pointer: '/data/type' }),
    );
  });

  it('deletes an organization with everything in it', async () => {
    const org = await createOrganization(alice);
    const wsId = await createWorkspace(alice, org);
    const member = await memberWith(t, admin, alice, org, ['manage-workspaces']);
    const del = await alice.api.delete(`/api/v2/organizations/${org}`).expect(204);
    expect(del.text).toBe('');

    await alice.api.get(`/api/v2/organizations/${org}`).expect(404);
    await alice.api.get(`/api/v2/workspaces/${wsId}`).expect(404);
    await alice.api.get(`/api/v2/teams/${member.teamId}`).expect(404);
    const again = await createOrganization(alice, org);
    expect(again).toBe(org);
  });

  it('answers with the JSON:API media type and accepts plain JSON bodies', async () => {
    const name = unique('plain');
    const res = await alice.api
      .post('/api/v2/organizations')
      .set('Content-Type', 'application/json')
      .send(JSON.stringify(body({ name, email: 'p@example.com', unknown: 'ignored' })))
      .expect(201);
    expect(res.headers['content-type']).toContain(JSONAPI);
    expect(res.body.data.attributes).not.toHaveProperty('unknown');
  });

  it('does not let team or organization tokens create organizations', async () => {
    const org = await createOrganization(alice);
    const tok = await alice.api.post(`/api/v2/organizations/${org}/authentication-token`).expect(201);
    const asOrg = client(t, tok.body.data.attributes.token as string);
    const res = await asOrg
      .post('/api/v2/organizations', body({ name: unique('by-token'), email: 't@example.com' }))
      .expect(404);
    expect(res.body).toEqual(errorsOf(404));
  });
});
