import { ISO_MILLIS, idOf } from './fixtures';

/** The wire shapes of the foundation resources, as a strict client decodes them. */

/** Projects and workspaces link to their tag bindings without carrying them. */
const tagBindingLinks = (self: string) => ({
  'tag-bindings': { links: { related: `${self}/tag-bindings` } },
  'effective-tag-bindings': { links: { related: `${self}/effective-tag-bindings` } },
});

const timestamps = () => ({
  'created-at': expect.stringMatching(ISO_MILLIS),
  'updated-at': expect.stringMatching(ISO_MILLIS),
});

export function organizationShape(
  name: string,
  options: { email?: string; edition?: 'free' | 'enterprise'; owner?: boolean } = {},
) {
  const owner = options.owner ?? true;
  return {
    id: name,
    type: 'organizations',
    attributes: {
      name,
      email: options.email ?? `${name}@example.com`,
      edition: options.edition ?? 'enterprise',
      'external-id': expect.stringMatching(idOf('org')),
      permissions: { 'can-update': owner, 'can-destroy': owner },
      ...timestamps(),
    },
    relationships: {
      'default-project': { data: { id: expect.stringMatching(idOf('prj')), type: 'projects' } },
      'entitlement-set': {
        data: { id: expect.stringMatching(idOf('org')), type: 'entitlement-sets' },
        links: { related: `/api/v2/organizations/${name}/entitlement-set` },
      },
    },
    links: { self: `/api/v2/organizations/${name}` },
  };
}

export function projectShape(
  id: string,
  org: string,
  options: { name: string; description?: string | null; workspaceCount?: number },
) {
  return {
    id,
    type: 'projects',
    attributes: {
      name: options.name,
      description: options.description ?? null,
      'workspace-count': options.workspaceCount ?? 0,
      ...timestamps(),
    },
    relationships: {
      organization: { data: { id: org, type: 'organizations' } },
      ...tagBindingLinks(`/api/v2/projects/${id}`),
    },
    links: { self: `/api/v2/projects/${id}` },
  };
}

export type Level = 'read' | 'plan' | 'write' | 'admin';

/** A workspace's `permissions` for a caller with this access. */
export function workspacePermissions(level: Level) {
  const admin = level === 'admin';
  const write = level === 'write' || admin;
  return {
    'can-update': admin,
    'can-destroy': admin,
    'can-queue-run': write || level === 'plan',
    'can-queue-apply': write,
    'can-read-runs': true,
    'can-read-state-versions': true,
    'can-read-state-outputs': true,
    'can-create-state-versions': write,
    'can-lock': write,
    'can-unlock': write,
    'can-force-unlock': admin,
    'can-force-delete': admin,
    'can-read-variable': true,
    'can-update-variable': write,
  };
}

export function workspaceShape(
  id: string,
  org: string,
  projectId: string,
  options: {
    name: string;
    description?: string | null;
    engineVersion?: string;
    level?: Level;
    currentRun?: string | null;
  },
) {
  const level = options.level ?? 'admin';
  return {
    id,
    type: 'workspaces',
    attributes: {
      name: options.name,
      description: options.description ?? null,
      'engine-version': options.engineVersion ?? 'latest',
      'terraform-version': options.engineVersion ?? 'latest',
      locked: false,
      'execution-mode': 'remote',
      'auto-apply': false,
      'auto-apply-run-trigger': false,
      'resource-count': 0,
      'structured-run-output-enabled': false,
      'vcs-repo': null,
      'working-directory': null,
      permissions: workspacePermissions(level),
      ...timestamps(),
    },
    relationships: {
      organization: { data: { id: org, type: 'organizations' } },
      project: { data: { id: projectId, type: 'projects' } },
      'locked-by': { data: null },
      'current-state-version': { data: null },
      'agent-pool': { data: null },
      'current-run': { data: options.currentRun ? { id: options.currentRun, type: 'runs' } : null },
      ...tagBindingLinks(`/api/v2/workspaces/${id}`),
    },
    links: { self: `/api/v2/workspaces/${id}` },
  };
}

export const ALL_FLAGS = [
  'manage-policies',
  'manage-workspaces',
  'manage-projects',
  'manage-providers',
  'manage-policy-overrides',
  'manage-variable-sets',
  'read-workspaces',
  'read-projects',
] as const;

export function teamShape(
  id: string,
  org: string,
  options: {
    name: string;
    visibility?: 'secret' | 'organization';
    flags?: readonly string[];
    userIds?: string[];
  },
) {
  const flags = options.flags ?? [];
  const userIds = options.userIds ?? [];
  return {
    id,
    type: 'teams',
    attributes: {
      name: options.name,
      visibility: options.visibility ?? 'secret',
      'organization-access': Object.fromEntries(ALL_FLAGS.map((f) => [f, flags.includes(f)])),
      'users-count': userIds.length,
      ...timestamps(),
    },
    relationships: {
      organization: { data: { id: org, type: 'organizations' } },
      users: { data: userIds.map((u) => ({ id: u, type: 'users' })) },
    },
    links: { self: `/api/v2/teams/${id}` },
  };
}

export function teamWorkspaceShape(id: string, teamId: string, workspaceId: string, access: Level) {
  return {
    id,
    type: 'team-workspaces',
    attributes: { access, ...timestamps() },
    relationships: {
      team: { data: { id: teamId, type: 'teams' } },
      workspace: { data: { id: workspaceId, type: 'workspaces' } },
    },
    links: { self: `/api/v2/team-workspaces/${id}` },
  };
}

export function tokenShape(
  id: string,
  options: {
    kind: 'user' | 'team' | 'organization';
    description?: string | null;
    /** true: the response that created it, which carries the secret. */
    secret?: boolean;
    createdBy?: string;
    expiredAt?: string | null;
    /** true: the token has authenticated a request since it was issued. */
    lastUsed?: boolean;
    /** The team of a team token. */
    team?: string;
  },
) {
  return {
    id,
    type: 'authentication-tokens',
    attributes: {
      kind: options.kind,
      description: options.description ?? null,
      token: options.secret ? expect.stringMatching(/^[0-9A-Za-z]{14}\.plinthv1\.[0-9A-Za-z]{48}$/) : null,
      'expired-at': options.expiredAt ?? null,
      'created-at': expect.stringMatching(ISO_MILLIS),
      'last-used-at': options.lastUsed ? expect.stringMatching(ISO_MILLIS) : null,
    },
    relationships: {
      ...(options.team ? { team: { data: { id: options.team, type: 'teams' } } } : {}),
      ...(options.createdBy ? { 'created-by': { data: { id: options.createdBy, type: 'users' } } } : {}),
    },
    links: { self: `/api/v2/authentication-tokens/${id}` },
  };
}

export function userShape(
  id: string,
  username: string,
  options: { email?: string; admin?: boolean; suspended?: boolean } = {},
) {
  return {
    id,
    type: 'users',
    attributes: {
      username,
      email: options.email ?? `${username}@example.com`,
      'is-site-admin': options.admin ?? false,
      'is-admin': options.admin ?? false,
      'is-suspended': options.suspended ?? false,
      'created-at': expect.stringMatching(ISO_MILLIS),
    },
    links: { self: `/api/v2/users/${id}` },
  };
}

/** A JSON:API error document with exactly these errors (`code` only on those given one). */
export function errorsOf(
  status: number,
  ...errors: { detail?: string; pointer?: string; parameter?: string; code?: string }[]
) {
  const title = TITLES[status];
  const list = (errors.length ? errors : [{}]).map((e) => ({
    status: String(status),
    title,
    ...(e.code ? { code: e.code } : {}),
    ...(e.detail ? { detail: e.detail } : {}),
    ...(e.pointer ? { source: { pointer: e.pointer } } : {}),
    ...(e.parameter ? { source: { parameter: e.parameter } } : {}),
  }));
  return { errors: list };
}

const TITLES: Record<number, string> = {
  400: 'bad request',
  401: 'unauthorized',
  404: 'not found',
  409: 'conflict',
  413: 'payload too large',
  415: 'unsupported media type',
  422: 'invalid attribute',
  429: 'too many requests',
  503: 'service unavailable',
};

/** The 422 of a name already taken, as every resource with a unique name answers it. */
export const NAME_TAKEN_422 = errorsOf(422, {
  code: 'NAME_TAKEN',
  detail: 'Name has already been taken',
  pointer: '/data/attributes/name',
});
