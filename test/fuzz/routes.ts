/**
 * The routes the fuzzer drives, one entry per route. To cover a new module, append its routes
 * here (see docs/testing.md): the fuzzer sends each entry malformed bodies, paths and queries
 * and expects no 5xx and no hang.
 */
export interface FuzzFixtures {
  org: string;
  projectId: string;
  workspaceId: string;
  workspaceName: string;
  teamId: string;
  teamWorkspaceId: string;
  userId: string;
  tokenId: string;
  poolId: string;
  /** Token part of a valid signed link for a purpose nobody serves. */
  uploadToken: string;
  policyId: string;
  policySetId: string;
  reservedTagKeyId: string;
  catalogIds: Record<'engine-versions' | 'policy-engine-versions', string>;
  /** A fresh name on every call, for creates that must not collide. */
  unique(base: string): string;
}

export type FuzzBody =
  /** A JSON:API resource document of `type` with these attributes and relationships. */
  | {
      kind: 'resource';
      type: string;
      attributes: readonly string[];
      relationships?: readonly string[];
      /** Members of object-valued attributes, each an attribute in its own right. */
      nested?: Readonly<Record<string, readonly string[]>>;
    }
  /** A relationship document: `{data: [{type, id}, …]}`. */
  | { kind: 'identifiers'; type: string }
  /** A plain JSON object with these fields (non-JSON:API routes such as the bootstrap). */
  | { kind: 'object'; fields: readonly string[] }
  /** Raw bytes (signed upload links). */
  | { kind: 'raw' };

export interface FuzzRoute {
  method: 'GET' | 'HEAD' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  /** Express-style template: `/api/v2/organizations/:org/projects`. */
  path: string;
  /** Real values for the template's parameters; the fuzzer mixes them with hostile ones. */
  params?: (f: FuzzFixtures) => Record<string, string>;
  /** Query parameters the route reads; the fuzzer adds unknown and repeated ones too. */
  query?: readonly string[];
  body?: FuzzBody;
  /** Attributes of a request that succeeds: one hostile value among them reaches the deepest checks. */
  sample?: (f: FuzzFixtures) => Record<string, unknown>;
  /** Who calls: the site administrator (default) or nobody. */
  auth?: 'admin' | 'none';
  /**
   * The route destroys or renames what its path names (or the caller's own token): the fuzzer
   * never hands it the real fixture values, only hostile ones.
   */
  destructive?: boolean;
}

const PAGE = ['page[number]', 'page[size]'] as const;

const org = (f: FuzzFixtures) => ({ org: f.org, name: f.org });
const orgAttrs = {
  kind: 'resource',
  type: 'organizations',
  attributes: ['name', 'email', 'edition'],
} as const;
const projectAttrs = { kind: 'resource', type: 'projects', attributes: ['name', 'description'] } as const;
const workspaceAttrs = {
  kind: 'resource',
  type: 'workspaces',
  attributes: [
    'name',
    'description',
    'engine-version',
    'terraform-version',
    'execution-mode',
    'agent-pool-id',
    'auto-apply',
    'auto-apply-run-trigger',
  ],
  relationships: ['project', 'agent-pool'],
} as const;
const poolAttrs = {
  kind: 'resource',
  type: 'agent-pools',
  attributes: ['name', 'organization-scoped'],
  relationships: ['allowed-workspaces', 'allowed-projects', 'excluded-workspaces'],
} as const;
const pool = (f: FuzzFixtures) => ({ id: f.poolId });
const ws = (f: FuzzFixtures) => ({ id: f.workspaceId });
const teamAttrs = {
  kind: 'resource',
  type: 'teams',
  attributes: ['name', 'visibility', 'organization-access'],
  nested: {
    'organization-access': [
      'manage-policies',
      'manage-workspaces',
      'manage-projects',
      'manage-providers',
      'manage-policy-overrides',
      'manage-variable-sets',
      'read-workspaces',
      'read-projects',
    ],
  },
} as const;
const teamWorkspaceAttrs = {
  kind: 'resource',
  type: 'team-workspaces',
  attributes: ['access'],
  relationships: ['team', 'workspace'],
} as const;
const tokenAttrs = {
  kind: 'resource',
  type: 'authentication-tokens',
  attributes: ['description', 'expired-at'],
} as const;
const loginAttrs = {
  kind: 'resource',
  type: 'authentication-tokens',
  attributes: ['username', 'password', 'description', 'expired-at'],
} as const;
const userAttrs = {
  kind: 'resource',
  type: 'users',
  attributes: ['username', 'email', 'password', 'is-site-admin'],
} as const;

const policyAttrs = {
  kind: 'resource',
  type: 'policies',
  attributes: ['name', 'description', 'kind', 'enforcement-level', 'enforce', 'query'],
} as const;
const policySetAttrs = {
  kind: 'resource',
  type: 'policy-sets',
  attributes: [
    'name',
    'description',
    'global',
    'kind',
    'overridable',
    'agent-enabled',
    'policy-tool-version',
    'vcs-repo',
    'policies-path',
  ],
  relationships: ['projects', 'workspaces', 'workspace-exclusions', 'policies'],
  nested: {
    'vcs-repo': [
      'branch',
      'identifier',
      'oauth-token-id',
      'vcs-app-installation-id',
      'github-app-installation-id',
      'ingress-submodules',
    ],
  },
} as const;
const reservedTagKeyAttrs = {
  kind: 'resource',
  type: 'reserved-tag-keys',
  attributes: ['key', 'disable-overrides'],
} as const;
const PROVIDER = 'organizations/:org/registry-providers/:registry_name/:namespace/:name';
const MODULE = 'organizations/:org/registry-modules/:registry_name/:namespace/:name/:provider';
const moduleVersionBody = {
  kind: 'resource',
  type: 'registry-module-versions',
  attributes: ['version', 'commit-sha'],
} as const;

const varAttrs = {
  kind: 'resource',
  type: 'vars',
  attributes: ['key', 'value', 'description', 'category', 'hcl', 'sensitive'],
} as const;
const varSample = (f: FuzzFixtures) => ({ key: f.unique('k').replace(/-/g, '_'), category: 'terraform' });
const parameterAttrs = {
  kind: 'resource',
  type: 'vars',
  attributes: ['key', 'value', 'category', 'sensitive'],
} as const;
const varsetAttrs = {
  kind: 'resource',
  type: 'varsets',
  attributes: ['name', 'description', 'global', 'priority'],
  relationships: ['parent', 'workspaces', 'projects'],
} as const;

export const FUZZ_ROUTES: readonly FuzzRoute[] = [
  // organizations
  { method: 'GET', path: '/api/v2/organizations', query: PAGE },
  {
    method: 'POST',
    path: '/api/v2/organizations',
    body: orgAttrs,
    sample: (f) => ({ name: f.unique('org'), email: 'o@example.com' }),
  },
  { method: 'GET', path: '/api/v2/organizations/:name', params: org },
  { method: 'PATCH', path: '/api/v2/organizations/:name', params: org, body: orgAttrs, destructive: true },
  { method: 'DELETE', path: '/api/v2/organizations/:name', params: org, destructive: true },
  // projects
  {
    method: 'GET',
    path: '/api/v2/organizations/:org/projects',
    params: org,
    query: [
      ...PAGE,
      'search[name]',
      'q',
      'filter[names]',
      'filter[tagged][0][key]',
      'filter[tagged][0][value]',
      'include',
    ],
  },
  {
    method: 'POST',
    path: '/api/v2/organizations/:org/projects',
    params: org,
    body: projectAttrs,
    sample: (f) => ({ name: f.unique('prj') }),
  },
  { method: 'GET', path: '/api/v2/projects/:id', params: (f) => ({ id: f.projectId }) },
  { method: 'PATCH', path: '/api/v2/projects/:id', params: (f) => ({ id: f.projectId }), body: projectAttrs },
  { method: 'DELETE', path: '/api/v2/projects/:id', params: (f) => ({ id: f.projectId }), destructive: true },
  // workspaces
  {
    method: 'GET',
    path: '/api/v2/organizations/:org/workspaces',
    params: org,
    query: [
      ...PAGE,
      'search[name]',
      'filter[project][id]',
      'filter[tagged][0][key]',
      'filter[tagged][0][value]',
      'include',
    ],
  },
  {
    method: 'POST',
    path: '/api/v2/organizations/:org/workspaces',
    params: org,
    body: workspaceAttrs,
    sample: (f) => ({ name: f.unique('ws') }),
  },
  {
    method: 'GET',
    path: '/api/v2/organizations/:org/workspaces/:name',
    params: (f) => ({ org: f.org, name: f.workspaceName }),
  },
  {
    method: 'PATCH',
    path: '/api/v2/organizations/:org/workspaces/:name',
    params: (f) => ({ org: f.org, name: f.workspaceName }),
    body: workspaceAttrs,
    destructive: true,
  },
  {
    method: 'DELETE',
    path: '/api/v2/organizations/:org/workspaces/:name',
    params: (f) => ({ org: f.org, name: f.workspaceName }),
    destructive: true,
  },
  { method: 'GET', path: '/api/v2/workspaces/:id', params: (f) => ({ id: f.workspaceId }) },
  {
    method: 'PATCH',
    path: '/api/v2/workspaces/:id',
    params: (f) => ({ id: f.workspaceId }),
    body: workspaceAttrs,
    destructive: true,
  },
  {
    method: 'DELETE',
    path: '/api/v2/workspaces/:id',
    params: (f) => ({ id: f.workspaceId }),
    destructive: true,
  },
  // configuration versions, runs, plans and applies, workspace lock, executor jobs
  {
    method: 'POST',
    path: '/api/v2/workspaces/:id/configuration-versions',
    params: ws,
    body: {
      kind: 'resource',
      type: 'configuration-versions',
      attributes: ['auto-queue-runs', 'speculative'],
    },
  },
  { method: 'GET', path: '/api/v2/workspaces/:id/configuration-versions', params: ws, query: PAGE },
  { method: 'GET', path: '/api/v2/configuration-versions/:id' },
  { method: 'GET', path: '/api/v2/configuration-versions/:id/download' },
  {
    method: 'POST',
    path: '/api/v2/runs',
    body: {
      kind: 'resource',
      type: 'runs',
      attributes: [
        'message',
        'is-destroy',
        'plan-only',
        'auto-apply',
        'refresh',
        'refresh-only',
        'target-addrs',
        'replace-addrs',
        'allow-empty-apply',
        'allow-config-generation',
        'save-plan',
        'terraform-version',
      ],
      relationships: ['workspace', 'configuration-version'],
    },
  },
  { method: 'GET', path: '/api/v2/runs/:id', query: ['include'] },
  {
    method: 'GET',
    path: '/api/v2/workspaces/:id/runs',
    params: ws,
    query: [...PAGE, 'include', 'filter[status]'],
  },
  ...(['apply', 'discard', 'cancel', 'force-cancel'] as const).map((action): FuzzRoute => ({
    method: 'POST',
    path: `/api/v2/runs/:id/actions/${action}`,
    body: { kind: 'object', fields: ['comment'] },
  })),
  { method: 'GET', path: '/api/v2/runs/:id/comments', query: PAGE },
  { method: 'GET', path: '/api/v2/runs/:id/run-events', query: PAGE },
  {
    method: 'GET',
    path: '/api/v2/organizations/:org/runs',
    params: org,
    query: [...PAGE, 'include', 'filter[status]', 'filter[workspace_names]'],
  },
  { method: 'GET', path: '/api/v2/organizations/:org/runs/queue', params: org, query: PAGE },
  { method: 'GET', path: '/api/v2/organizations/:org/capacity', params: org },
  {
    method: 'POST',
    path: '/api/v2/runs/:id/comments',
    body: { kind: 'resource', type: 'comments', attributes: ['body'] },
  },
  { method: 'GET', path: '/api/v2/comments/:id' },
  { method: 'GET', path: '/api/v2/plans/:id' },
  { method: 'GET', path: '/api/v2/plans/:id/json-output' },
  { method: 'GET', path: '/api/v2/plans/:id/json-output-redacted' },
  { method: 'GET', path: '/api/v2/applies/:id' },
  {
    method: 'POST',
    path: '/api/v2/workspaces/:id/actions/lock',
    params: ws,
    body: { kind: 'object', fields: ['reason'] },
    destructive: true,
  },
  { method: 'POST', path: '/api/v2/workspaces/:id/actions/unlock', params: ws, destructive: true },
  { method: 'POST', path: '/api/v2/workspaces/:id/actions/force-unlock', destructive: true },
  { method: 'POST', path: '/api/v2/workspaces/:id/actions/safe-delete', destructive: true },
  {
    method: 'POST',
    path: '/api/v2/organizations/:org/workspaces/:name/actions/safe-delete',
    destructive: true,
  },
  // state versions and their outputs
  {
    method: 'POST',
    path: '/api/v2/workspaces/:id/state-versions',
    params: ws,
    body: {
      kind: 'resource',
      type: 'state-versions',
      attributes: ['serial', 'md5', 'lineage', 'state', 'json-state', 'json-state-outputs', 'force'],
      relationships: ['run'],
    },
  },
  {
    method: 'PATCH',
    path: '/api/v2/workspaces/:id/state-versions',
    params: ws,
    body: {
      kind: 'resource',
      type: 'state-versions',
      attributes: [],
      relationships: ['rollback-state-version'],
    },
  },
  {
    method: 'GET',
    path: '/api/v2/state-versions',
    query: [...PAGE, 'include', 'filter[workspace][name]', 'filter[organization][name]', 'filter[status]'],
  },
  { method: 'GET', path: '/api/v2/state-versions/:id', query: ['include'] },
  { method: 'GET', path: '/api/v2/state-versions/:id/outputs', query: PAGE },
  { method: 'GET', path: '/api/v2/state-versions/:id/download' },
  { method: 'GET', path: '/api/v2/state-versions/:id/json-download' },
  { method: 'GET', path: '/api/v2/state-version-outputs/:id' },
  { method: 'GET', path: '/api/v2/workspaces/:id/current-state-version', params: ws, query: ['include'] },
  { method: 'GET', path: '/api/v2/workspaces/:id/current-state-version-outputs', params: ws, query: PAGE },
  { method: 'POST', path: '/api/v2/agent/jobs/claim', auth: 'none' },
  { method: 'POST', path: '/api/v2/agent/jobs/:id/heartbeat', auth: 'none' },
  {
    method: 'POST',
    path: '/api/v2/agent/jobs/:id/finish',
    auth: 'none',
    query: ['next'],
    body: {
      kind: 'object',
      fields: ['status', 'error-message', 'has-changes', 'resource-additions', 'results'],
    },
  },
  // policy checks of runs
  { method: 'GET', path: '/api/v2/runs/:id/policy-checks', query: [...PAGE, 'include'] },
  { method: 'GET', path: '/api/v2/policy-checks/:id', query: ['include'] },
  { method: 'POST', path: '/api/v2/policy-checks/:id/actions/override' },
  { method: 'GET', path: '/api/v2/policy-checks/:id/output' },
  { method: 'GET', path: '/api/v2/policy-checks/:id/policy-evaluations', query: PAGE },
  { method: 'GET', path: '/api/v2/policy-evaluations/:id' },
  { method: 'GET', path: '/api/v2/policy-evaluations/:id/policy-set-outcomes', query: PAGE },
  { method: 'GET', path: '/api/v2/policy-set-outcomes/:id' },
  // agent pools, agent tokens, agents, executor registration
  {
    method: 'GET',
    path: '/api/v2/organizations/:org/agent-pools',
    params: org,
    query: [...PAGE, 'q', 'sort', 'filter[allowed_workspaces][name]', 'include'],
  },
  { method: 'POST', path: '/api/v2/organizations/:org/agent-pools', params: org, body: poolAttrs },
  { method: 'GET', path: '/api/v2/agent-pools/:id', params: pool, query: ['include'] },
  { method: 'PATCH', path: '/api/v2/agent-pools/:id', params: pool, body: poolAttrs, destructive: true },
  { method: 'DELETE', path: '/api/v2/agent-pools/:id', params: pool, destructive: true },
  { method: 'GET', path: '/api/v2/agent-pools/:id/authentication-tokens', params: pool, query: PAGE },
  {
    method: 'POST',
    path: '/api/v2/agent-pools/:id/authentication-tokens',
    params: pool,
    body: { kind: 'resource', type: 'agent-tokens', attributes: ['description'] },
  },
  {
    method: 'GET',
    path: '/api/v2/agent-pools/:id/agents',
    params: pool,
    query: [...PAGE, 'filter[last-ping-since]'],
  },
  { method: 'GET', path: '/api/v2/agents/:id' },
  { method: 'DELETE', path: '/api/v2/agents/:id', destructive: true },
  {
    method: 'POST',
    path: '/api/v2/agent/register',
    auth: 'none',
    body: { kind: 'object', fields: ['name'] },
  },
  // teams
  { method: 'GET', path: '/api/v2/organizations/:org/teams', params: org, query: PAGE },
  {
    method: 'POST',
    path: '/api/v2/organizations/:org/teams',
    params: org,
    body: teamAttrs,
    sample: (f) => ({ name: f.unique('team') }),
  },
  { method: 'GET', path: '/api/v2/teams/:id', params: (f) => ({ id: f.teamId }) },
  { method: 'PATCH', path: '/api/v2/teams/:id', params: (f) => ({ id: f.teamId }), body: teamAttrs },
  { method: 'DELETE', path: '/api/v2/teams/:id', params: (f) => ({ id: f.teamId }), destructive: true },
  {
    method: 'POST',
    path: '/api/v2/teams/:id/relationships/users',
    params: (f) => ({ id: f.teamId }),
    body: { kind: 'identifiers', type: 'users' },
  },
  {
    method: 'DELETE',
    path: '/api/v2/teams/:id/relationships/users',
    params: (f) => ({ id: f.teamId }),
    body: { kind: 'identifiers', type: 'users' },
    destructive: true,
  },
  // team-workspaces
  { method: 'GET', path: '/api/v2/team-workspaces', query: [...PAGE, 'filter[workspace][id]'] },
  { method: 'POST', path: '/api/v2/team-workspaces', body: teamWorkspaceAttrs },
  { method: 'GET', path: '/api/v2/team-workspaces/:id', params: (f) => ({ id: f.teamWorkspaceId }) },
  {
    method: 'PATCH',
    path: '/api/v2/team-workspaces/:id',
    params: (f) => ({ id: f.teamWorkspaceId }),
    body: teamWorkspaceAttrs,
  },
  {
    method: 'DELETE',
    path: '/api/v2/team-workspaces/:id',
    params: (f) => ({ id: f.teamWorkspaceId }),
    destructive: true,
  },
  // tokens
  {
    method: 'POST',
    path: '/api/v2/users/:id/authentication-tokens',
    params: (f) => ({ id: f.userId }),
    body: tokenAttrs,
  },
  {
    method: 'POST',
    path: '/api/v2/admin/users/:id/authentication-tokens',
    params: (f) => ({ id: f.userId }),
    body: tokenAttrs,
  },
  {
    method: 'GET',
    path: '/api/v2/users/:id/authentication-tokens',
    params: (f) => ({ id: f.userId }),
    query: PAGE,
  },
  { method: 'GET', path: '/api/v2/authentication-tokens/:id', params: (f) => ({ id: f.tokenId }) },
  {
    method: 'DELETE',
    path: '/api/v2/authentication-tokens/:id',
    params: (f) => ({ id: f.tokenId }),
    destructive: true,
  },
  {
    method: 'POST',
    path: '/api/v2/teams/:id/authentication-token',
    params: (f) => ({ id: f.teamId }),
    body: tokenAttrs,
  },
  {
    method: 'DELETE',
    path: '/api/v2/teams/:id/authentication-token',
    params: (f) => ({ id: f.teamId }),
    destructive: true,
  },
  { method: 'POST', path: '/api/v2/organizations/:org/authentication-token', params: org, body: tokenAttrs },
  { method: 'GET', path: '/api/v2/organizations/:org/authentication-token', params: org },
  { method: 'GET', path: '/api/v2/teams/:id/authentication-token', params: (f) => ({ id: f.teamId }) },
  {
    method: 'POST',
    path: '/api/v2/teams/:id/authentication-tokens',
    params: (f) => ({ id: f.teamId }),
    body: tokenAttrs,
    sample: (f) => ({ description: f.unique('ci') }),
  },
  { method: 'GET', path: '/api/v2/organizations/:org/team-tokens', params: org, query: [...PAGE, 'q'] },
  {
    method: 'DELETE',
    path: '/api/v2/organizations/:org/authentication-token',
    params: org,
    destructive: true,
  },
  // users
  { method: 'GET', path: '/api/v2/account/details' },
  { method: 'GET', path: '/api/v2/users/:id', params: (f) => ({ id: f.userId }) },
  {
    method: 'POST',
    path: '/api/v2/admin/users',
    body: userAttrs,
    sample: (f) => {
      const username = f.unique('user');
      return { username, email: `${username}@example.com`, password: 'a-long-password' };
    },
  },
  // administration: users, token metadata, login, audit trail
  {
    method: 'GET',
    path: '/api/v2/admin/users',
    query: [...PAGE, 'q', 'search', 'filter[username]', 'filter[admin]', 'filter[suspended]'],
  },
  { method: 'GET', path: '/api/v2/admin/users/:id', params: (f) => ({ id: f.userId }) },
  // Suspending or deleting the fixture user would take its token away from later cases.
  { method: 'POST', path: '/api/v2/admin/users/:id/actions/suspend', destructive: true },
  { method: 'POST', path: '/api/v2/admin/users/:id/actions/unsuspend', params: (f) => ({ id: f.userId }) },
  { method: 'POST', path: '/api/v2/admin/users/:id/actions/grant_admin', destructive: true },
  { method: 'POST', path: '/api/v2/admin/users/:id/actions/revoke_admin', destructive: true },
  { method: 'DELETE', path: '/api/v2/admin/users/:id', destructive: true },
  {
    method: 'GET',
    path: '/api/v2/organizations/:org/authentication-tokens',
    params: org,
    query: [...PAGE, 'filter[kind]'],
  },
  { method: 'POST', path: '/api/v2/login', auth: 'none', body: loginAttrs },
  // terraform login: HTML and form-encoded bodies (raw here: no JSON attribute to sweep)
  {
    method: 'GET',
    path: '/app/oauth/authorize',
    auth: 'none',
    query: ['response_type', 'client_id', 'redirect_uri', 'state', 'code_challenge', 'code_challenge_method'],
  },
  { method: 'POST', path: '/app/oauth/authorize', auth: 'none', body: { kind: 'raw' } },
  { method: 'POST', path: '/oauth/token', auth: 'none', body: { kind: 'raw' } },
  { method: 'GET', path: '/api/v2/organizations/:org/entitlement-set', params: org },
  {
    method: 'GET',
    path: '/api/v2/organization/audit-trail',
    query: [...PAGE, 'since', 'filter[organization]'],
  },
  { method: 'GET', path: '/api/v2/admin/audit-trail', query: [...PAGE, 'since', 'filter[organization]'] },
  // bootstrap
  { method: 'GET', path: '/admin/retrieve-iact', auth: 'none' },
  {
    method: 'POST',
    path: '/admin/initial-admin-user',
    query: ['token'],
    auth: 'none',
    body: { kind: 'object', fields: ['username', 'email', 'password'] },
  },
  // signed links
  {
    method: 'PUT',
    path: '/uploads/:token',
    params: (f) => ({ token: f.uploadToken }),
    auth: 'none',
    body: { kind: 'raw' },
  },
  { method: 'GET', path: '/uploads/:token', params: (f) => ({ token: f.uploadToken }), auth: 'none' },
  { method: 'HEAD', path: '/uploads/:token', params: (f) => ({ token: f.uploadToken }), auth: 'none' },
  // policies (ids without a fixture: only hostile values)
  {
    method: 'GET',
    path: '/api/v2/organizations/:org/policies',
    params: org,
    query: [...PAGE, 'search[name]', 'filter[kind]'],
  },
  {
    method: 'POST',
    path: '/api/v2/organizations/:org/policies',
    params: org,
    body: policyAttrs,
    sample: (f) => ({ name: f.unique('pol'), kind: 'framework_a', 'enforcement-level': 'advisory' }),
  },
  { method: 'GET', path: '/api/v2/policies/:id' },
  { method: 'PATCH', path: '/api/v2/policies/:id', params: (f) => ({ id: f.policyId }), body: policyAttrs },
  { method: 'DELETE', path: '/api/v2/policies/:id', destructive: true },
  { method: 'PUT', path: '/api/v2/policies/:id/upload', body: { kind: 'raw' } },
  { method: 'GET', path: '/api/v2/policies/:id/download' },
  // policy sets
  {
    method: 'GET',
    path: '/api/v2/organizations/:org/policy-sets',
    params: org,
    query: [...PAGE, 'include', 'filter[versioned]', 'filter[kind]', 'search[name]'],
  },
  {
    method: 'POST',
    path: '/api/v2/organizations/:org/policy-sets',
    params: org,
    body: policySetAttrs,
    sample: (f) => ({ name: f.unique('set') }),
  },
  { method: 'GET', path: '/api/v2/policy-sets/:id', query: ['include'] },
  {
    method: 'PATCH',
    path: '/api/v2/policy-sets/:id',
    params: (f) => ({ id: f.policySetId }),
    body: policySetAttrs,
  },
  { method: 'DELETE', path: '/api/v2/policy-sets/:id', destructive: true },
  ...(['policies', 'projects', 'workspaces', 'workspace-exclusions'] as const).flatMap((rel) =>
    (['POST', 'DELETE'] as const).map((method): FuzzRoute => ({
      method,
      path: `/api/v2/policy-sets/:id/relationships/${rel}`,
      body: { kind: 'identifiers', type: rel === 'workspace-exclusions' ? 'workspaces' : rel },
    })),
  ),
  { method: 'POST', path: '/api/v2/policy-sets/:id/versions' },
  { method: 'GET', path: '/api/v2/policy-sets/:id/versions', query: PAGE },
  { method: 'POST', path: '/api/v2/policy-sets/:id/parameters', body: parameterAttrs },
  { method: 'GET', path: '/api/v2/policy-sets/:id/parameters', query: PAGE },
  { method: 'GET', path: '/api/v2/policy-set-versions/:id', query: ['include'] },
  {
    method: 'GET',
    path: '/api/v2/workspaces/:id/effective-policy-sets',
    params: (f) => ({ id: f.workspaceId }),
    query: PAGE,
  },
  // run triggers
  {
    method: 'POST',
    path: '/api/v2/workspaces/:workspace_id/run-triggers',
    params: (f) => ({ workspace_id: f.workspaceId }),
    body: { kind: 'resource', type: 'run-triggers', attributes: [], relationships: ['sourceable'] },
  },
  {
    method: 'GET',
    path: '/api/v2/workspaces/:workspace_id/run-triggers',
    params: (f) => ({ workspace_id: f.workspaceId }),
    query: [...PAGE, 'include', 'filter[run-trigger][type]'],
  },
  { method: 'GET', path: '/api/v2/run-triggers/:id', query: ['include'] },
  { method: 'DELETE', path: '/api/v2/run-triggers/:id', destructive: true },
  // reserved tag keys and tag bindings
  { method: 'GET', path: '/api/v2/organizations/:org/reserved-tag-keys', params: org, query: PAGE },
  {
    method: 'POST',
    path: '/api/v2/organizations/:org/reserved-tag-keys',
    params: org,
    body: reservedTagKeyAttrs,
    sample: (f) => ({ key: f.unique('key') }),
  },
  {
    method: 'PATCH',
    path: '/api/v2/reserved-tag-keys/:id',
    params: (f) => ({ id: f.reservedTagKeyId }),
    body: reservedTagKeyAttrs,
  },
  { method: 'DELETE', path: '/api/v2/reserved-tags/:id', destructive: true },
  ...(['projects', 'workspaces'] as const).flatMap((parent): FuzzRoute[] => {
    const params = (f: FuzzFixtures) => ({ id: parent === 'projects' ? f.projectId : f.workspaceId });
    return [
      { method: 'GET', path: `/api/v2/${parent}/:id/tag-bindings`, params, query: PAGE },
      { method: 'GET', path: `/api/v2/${parent}/:id/effective-tag-bindings`, params, query: PAGE },
      {
        method: 'PATCH',
        path: `/api/v2/${parent}/:id/tag-bindings`,
        params,
        body: { kind: 'identifiers', type: 'tag-bindings' },
      },
    ];
  }),
  // administrator catalogs, under the contract's names and the real service's
  ...(
    [
      ['engine-versions', 'engine-versions'],
      ['policy-engine-versions', 'policy-engine-versions'],
      ['terraform-versions', 'engine-versions'],
      ['opa-versions', 'policy-engine-versions'],
    ] as const
  ).flatMap(([route, catalog]): FuzzRoute[] => {
    const body = {
      kind: 'resource',
      type: route,
      attributes: ['version', 'url', 'sha', 'deprecated', 'deprecated-reason', 'official', 'enabled', 'beta'],
    } as const;
    return [
      {
        method: 'GET',
        path: `/api/v2/admin/${route}`,
        query: [...PAGE, 'filter[version]', 'search[version]'],
      },
      {
        method: 'POST',
        path: `/api/v2/admin/${route}`,
        body,
        sample: (f) => ({
          version: `9.${f.unique('v').replace(/\D/g, '').slice(0, 6)}.0`,
          url: 'https://example.com/tool.zip',
          sha: 'ab'.repeat(32),
        }),
      },
      { method: 'GET', path: `/api/v2/admin/${route}/:id` },
      {
        method: 'PATCH',
        path: `/api/v2/admin/${route}/:id`,
        params: (f) => ({ id: f.catalogIds[catalog] }),
        body,
      },
      { method: 'DELETE', path: `/api/v2/admin/${route}/:id`, destructive: true },
    ];
  }),
  // private registry
  { method: 'GET', path: '/.well-known/terraform.json', auth: 'none' },
  {
    method: 'GET',
    path: '/api/v2/organizations/:org/registry-providers',
    params: org,
    query: [...PAGE, 'include', 'q', 'filter[registry_name]'],
  },
  {
    method: 'POST',
    path: '/api/v2/organizations/:org/registry-providers',
    params: org,
    body: {
      kind: 'resource',
      type: 'registry-providers',
      attributes: ['name', 'namespace', 'registry-name'],
    },
    sample: (f) => ({ name: f.unique('prov'), namespace: f.org, 'registry-name': 'private' }),
  },
  { method: 'GET', path: `/api/v2/${PROVIDER}`, params: org, query: ['include'] },
  { method: 'DELETE', path: `/api/v2/${PROVIDER}`, params: org, destructive: true },
  {
    method: 'POST',
    path: `/api/v2/${PROVIDER}/versions`,
    params: org,
    body: {
      kind: 'resource',
      type: 'registry-provider-versions',
      attributes: ['version', 'key-id', 'protocols'],
    },
  },
  { method: 'GET', path: `/api/v2/${PROVIDER}/versions`, params: org, query: PAGE },
  { method: 'GET', path: `/api/v2/${PROVIDER}/versions/:version`, params: org },
  { method: 'DELETE', path: `/api/v2/${PROVIDER}/versions/:version`, params: org, destructive: true },
  {
    method: 'POST',
    path: `/api/v2/${PROVIDER}/versions/:version/platforms`,
    params: org,
    body: {
      kind: 'resource',
      type: 'registry-provider-version-platforms',
      attributes: ['os', 'arch', 'shasum', 'filename'],
    },
  },
  { method: 'GET', path: `/api/v2/${PROVIDER}/versions/:version/platforms`, params: org, query: PAGE },
  { method: 'GET', path: `/api/v2/${PROVIDER}/versions/:version/platforms/:os/:arch`, params: org },
  { method: 'GET', path: '/api/registry/v1/providers/:namespace/:name/versions' },
  { method: 'GET', path: '/api/registry/v1/providers/:namespace/:name/:version/download/:os/:arch' },
  { method: 'GET', path: '/api/registry/private/v2/gpg-keys', query: [...PAGE, 'filter[namespace]'] },
  {
    method: 'POST',
    path: '/api/registry/private/v2/gpg-keys',
    body: { kind: 'resource', type: 'gpg-keys', attributes: ['namespace', 'ascii-armor'] },
  },
  { method: 'GET', path: '/api/registry/private/v2/gpg-keys/:namespace/:key_id' },
  {
    method: 'PATCH',
    path: '/api/registry/private/v2/gpg-keys/:namespace/:key_id',
    body: { kind: 'resource', type: 'gpg-keys', attributes: ['namespace'] },
  },
  { method: 'DELETE', path: '/api/registry/private/v2/gpg-keys/:namespace/:key_id', destructive: true },
  {
    method: 'GET',
    path: '/api/v2/organizations/:org/registry-modules',
    params: org,
    query: [...PAGE, 'q', 'search[name]', 'filter[registry_name]', 'filter[provider]'],
  },
  {
    method: 'POST',
    path: '/api/v2/organizations/:org/registry-modules',
    params: org,
    body: {
      kind: 'resource',
      type: 'registry-modules',
      attributes: ['name', 'provider', 'namespace', 'registry-name', 'no-code'],
    },
    sample: (f) => ({ name: f.unique('mod'), provider: 'aws', 'registry-name': 'private' }),
  },
  { method: 'GET', path: `/api/v2/${MODULE}`, params: org },
  { method: 'DELETE', path: `/api/v2/${MODULE}`, params: org, destructive: true },
  {
    method: 'DELETE',
    path: '/api/v2/organizations/:org/registry-modules/:registry_name/:namespace/:name',
    params: org,
    destructive: true,
  },
  { method: 'POST', path: `/api/v2/${MODULE}/versions`, params: org, body: moduleVersionBody },
  {
    method: 'POST',
    path: '/api/v2/registry-modules/:org/:name/:provider/versions',
    params: org,
    body: moduleVersionBody,
  },
  { method: 'GET', path: `/api/v2/${MODULE}/version`, params: org, query: ['module_version'] },
  { method: 'DELETE', path: `/api/v2/${MODULE}/:version`, params: org, destructive: true },
  { method: 'GET', path: '/api/registry/v1/modules/:namespace/:name/:provider/versions' },
  { method: 'GET', path: '/api/registry/v1/modules/:namespace/:name/:provider/:version' },
  {
    method: 'POST',
    path: '/api/v2/registry-modules/actions/delete/:org/:name',
    params: org,
    destructive: true,
  },
  {
    method: 'POST',
    path: '/api/v2/registry-modules/actions/delete/:org/:name/:provider',
    params: org,
    destructive: true,
  },
  {
    method: 'POST',
    path: '/api/v2/registry-modules/actions/delete/:org/:name/:provider/:version',
    params: org,
    destructive: true,
  },
  { method: 'GET', path: '/api/registry/v1/modules/:namespace/:name/:provider/:version/download' },
  // variables and variable sets
  { method: 'POST', path: '/api/v2/workspaces/:id/vars', params: ws, body: varAttrs, sample: varSample },
  { method: 'GET', path: '/api/v2/workspaces/:id/vars', params: ws, query: [...PAGE, 'sort'] },
  { method: 'GET', path: '/api/v2/workspaces/:id/all-vars', params: ws, query: [...PAGE, 'sort'] },
  { method: 'GET', path: '/api/v2/workspaces/:id/vars/:var_id', params: ws },
  { method: 'PATCH', path: '/api/v2/workspaces/:id/vars/:var_id', params: ws, body: varAttrs },
  { method: 'DELETE', path: '/api/v2/workspaces/:id/vars/:var_id', params: ws, destructive: true },
  {
    method: 'GET',
    path: '/api/v2/vars',
    query: [...PAGE, 'filter[organization][name]', 'filter[workspace][name]'],
  },
  { method: 'POST', path: '/api/v2/vars', body: { ...varAttrs, relationships: ['workspace'] } },
  {
    method: 'POST',
    path: '/api/v2/organizations/:org/varsets',
    params: org,
    body: varsetAttrs,
    sample: (f) => ({ name: f.unique('set'), global: false }),
  },
  {
    method: 'GET',
    path: '/api/v2/organizations/:org/varsets',
    params: org,
    query: [...PAGE, 'q', 'include'],
  },
  { method: 'GET', path: '/api/v2/workspaces/:id/varsets', params: ws, query: [...PAGE, 'include'] },
  { method: 'GET', path: '/api/v2/varsets/:id', query: ['include'] },
  { method: 'PATCH', path: '/api/v2/varsets/:id', body: varsetAttrs },
  { method: 'DELETE', path: '/api/v2/varsets/:id', destructive: true },
  {
    method: 'POST',
    path: '/api/v2/varsets/:id/relationships/workspaces',
    body: { kind: 'identifiers', type: 'workspaces' },
  },
  { method: 'POST', path: '/api/v2/varsets/:id/relationships/vars', body: varAttrs },
  { method: 'GET', path: '/api/v2/varsets/:id/relationships/vars', query: PAGE },
  // health and probes
  { method: 'GET', path: '/api/v2/ping', auth: 'none' },
  { method: 'GET', path: '/healthz', auth: 'none' },
  { method: 'GET', path: '/readyz', auth: 'none' },
  { method: 'GET', path: '/metrics', auth: 'none' },
];
