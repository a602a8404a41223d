import request from 'supertest';
import { client, Client, ProviderOverride, startApp, TestApp } from './test-app';

export const ISO_MILLIS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
export const ISO_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00$/;
export const idOf = (prefix: string) => new RegExp(`^${prefix}-[0-9A-Za-z]{16}$`);

let counter = 0;
/** A name unique within the test run. */
export function unique(base: string): string {
  counter += 1;
  return `${base}-${counter}-${Math.random().toString(36).slice(2, 7)}`;
}

export interface Actor {
  token: string;
  api: Client;
  userId?: string;
}

/** Runs the IACT bootstrap and returns the first site administrator. */
export async function bootstrapAdmin(t: Pick<TestApp, 'origin'>): Promise<Actor> {
  const iact = await request(t.origin).get('/admin/retrieve-iact').expect(200);
  const res = await request(t.origin)
    .post(`/admin/initial-admin-user?token=${iact.text}`)
    .send({ username: 'admin', email: 'admin@example.com', password: 'correct-horse-battery' })
    .expect(201);
  const api = client(t, res.body.token);
  const me = await api.get('/api/v2/account/details').expect(200);
  return { token: res.body.token, api, userId: me.body.data.id };
}

/** A plain (non-admin) user with a token, created by the administrator. */
export async function createUser(t: TestApp, admin: Actor, username = unique('user')): Promise<Actor> {
  const created = await admin.api
    .post('/api/v2/admin/users', {
      data: {
        type: 'users',
        attributes: { username, email: `${username}@example.com`, password: 'a-long-password' },
      },
    })
    .expect(201);
  const userId = created.body.data.id as string;
  const tok = await admin.api.post(`/api/v2/admin/users/${userId}/authentication-tokens`).expect(201);
  const token = tok.body.data.attributes.token as string;
  return { token, api: client(t, token), userId };
}

export async function createOrganization(actor: Actor, name = unique('org')): Promise<string> {
  await actor.api
    .post('/api/v2/organizations', {
      data: { type: 'organizations', attributes: { name, email: `${name}@example.com` } },
    })
    .expect(201);
  return name;
}

/** A started app, its first site administrator, and an organization owned by a plain user. */
export interface OwnedOrganization {
  t: TestApp;
  admin: Actor;
  owner: Actor;
  org: string;
}

/** The set-up most suites start from (close `t` in afterAll). */
export async function startWithOwnedOrganization(
  env: Record<string, string> = {},
  overrides: ProviderOverride[] = [],
): Promise<OwnedOrganization> {
  const t = await startApp(env, overrides);
  const admin = await bootstrapAdmin(t);
  const owner = await createUser(t, admin);
  return { t, admin, owner, org: await createOrganization(owner) };
}

export async function createProject(actor: Actor, org: string, name = unique('prj')): Promise<string> {
  const res = await actor.api
    .post(`/api/v2/organizations/${org}/projects`, { data: { type: 'projects', attributes: { name } } })
    .expect(201);
  return res.body.data.id;
}

export async function createWorkspace(
  actor: Actor,
  org: string,
  name = unique('ws'),
  projectId?: string,
): Promise<string> {
  const relationships = projectId ? { project: { data: { type: 'projects', id: projectId } } } : undefined;
  const res = await actor.api
    .post(`/api/v2/organizations/${org}/workspaces`, {
      data: { type: 'workspaces', attributes: { name }, relationships },
    })
    .expect(201);
  return res.body.data.id;
}

export type Flag =
  | 'manage-policies'
  | 'manage-workspaces'
  | 'manage-projects'
  | 'manage-providers'
  | 'manage-policy-overrides'
  | 'manage-variable-sets'
  | 'read-workspaces'
  | 'read-projects';

export async function createTeam(
  actor: Actor,
  org: string,
  flags: Flag[] = [],
  name = unique('team'),
): Promise<string> {
  const access = Object.fromEntries(flags.map((f) => [f, true]));
  const res = await actor.api
    .post(`/api/v2/organizations/${org}/teams`, {
      data: { type: 'teams', attributes: { name, 'organization-access': access } },
    })
    .expect(201);
  return res.body.data.id;
}

export async function addToTeam(actor: Actor, teamId: string, userId: string): Promise<void> {
  await actor.api
    .post(`/api/v2/teams/${teamId}/relationships/users`, { data: [{ type: 'users', id: userId }] })
    .expect(204);
}

export async function grantWorkspace(
  actor: Actor,
  teamId: string,
  workspaceId: string,
  access: 'read' | 'plan' | 'write' | 'admin',
): Promise<string> {
  const res = await actor.api
    .post('/api/v2/team-workspaces', {
      data: {
        type: 'team-workspaces',
        attributes: { access },
        relationships: {
          team: { data: { type: 'teams', id: teamId } },
          workspace: { data: { type: 'workspaces', id: workspaceId } },
        },
      },
    })
    .expect(201);
  return res.body.data.id as string;
}

/** A user who belongs to `org` through a new team with the given flags. */
export async function memberWith(
  t: TestApp,
  admin: Actor,
  owner: Actor,
  org: string,
  flags: Flag[] = [],
): Promise<Actor & { teamId: string }> {
  const user = await createUser(t, admin);
  const teamId = await createTeam(owner, org, flags);
  await addToTeam(owner, teamId, user.userId!);
  return { ...user, teamId };
}

/** The pagination block a strict client reads. */
export function expectPagination(
  body: { meta: { pagination: Record<string, unknown> }; links: Record<string, unknown> },
  expected: {
    current: number;
    size: number;
    prev: number | null;
    next: number | null;
    pages: number;
    count: number;
  },
): void {
  expect(body.meta.pagination).toEqual({
    'current-page': expected.current,
    'page-size': expected.size,
    'prev-page': expected.prev,
    'next-page': expected.next,
    'total-pages': expected.pages,
    'total-count': expected.count,
  });
  for (const key of ['self', 'first', 'last'])
    expect(body.links[key]).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/.+page%5Bnumber%5D=\d+/);
  expect(body.links.prev === null || typeof body.links.prev === 'string').toBe(true);
  expect(body.links.next === null || typeof body.links.next === 'string').toBe(true);
}

/** The token of a new team token for `teamId`, issued by an owner. */
export async function createTeamToken(t: TestApp, owner: Actor, teamId: string): Promise<Actor> {
  const res = await owner.api.post(`/api/v2/teams/${teamId}/authentication-token`).expect(201);
  const token = res.body.data.attributes.token as string;
  return { token, api: client(t, token) };
}

/** The organization's own token (replacing any earlier one), as an actor. */
export async function createOrganizationToken(t: TestApp, owner: Actor, org: string): Promise<Actor> {
  const res = await owner.api.post(`/api/v2/organizations/${org}/authentication-token`).expect(201);
  const token = res.body.data.attributes.token as string;
  return { token, api: client(t, token) };
}

export async function reserveTagKey(
  actor: Actor,
  org: string,
  key: string,
  disableOverrides: boolean,
): Promise<string> {
  const res = await actor.api
    .post(`/api/v2/organizations/${org}/reserved-tag-keys`, {
      data: { type: 'reserved-tag-keys', attributes: { key, 'disable-overrides': disableOverrides } },
    })
    .expect(201);
  return res.body.data.id;
}

/** `{env: 'prod'}` → the `data` array of a tag-binding list. */
export function tagBindingList(pairs: Record<string, string>): unknown[] {
  return Object.entries(pairs).map(([key, value]) => ({ type: 'tag-bindings', attributes: { key, value } }));
}
