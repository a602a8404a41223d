/**
 * What each part of src/ is, for the generated layout of docs/architecture.md, and which layer each
 * top-level folder belongs to, for the check. Every file directly under src/ and every top-level
 * folder needs an entry (the check names what is missing or no longer there); a subfolder may have
 * one. A new module adds one line here, then `npm run docs:architecture` rewrites the doc.
 */

/**
 * `platform`: what every module stands on; it imports no domain module and no program.
 * `domain`: one module per area; imports the platform and the modules it needs, never in a cycle.
 * `program`: a process of its own beside the server, started from an entry file; nothing in the
 * server imports it.
 */
export type Layer = 'platform' | 'domain' | 'program';

export interface Folder {
  layer: Layer;
  text: string;
}

/** The files directly under src/: how a process starts and what it wires. */
export const ENTRY_FILES: Record<string, string> = {
  'main.ts': 'the server process: cluster.ts, then start-server.ts in each worker',
  'cluster.ts': 'workers: started, replaced when they die, stopped; shared rate limits and metrics',
  'start-server.ts': 'the app factory, listen, graceful shutdown',
  'app.module.ts': 'every module, wired once',
  'cli.ts': 'the operator commands (`npm run admin`, `node dist/cli.js`), in cli/',
};

export const FOLDERS: Record<string, Folder> = {
  common: { layer: 'platform', text: 'shared by every module: ids, the clock, the API prefix' },
  config: {
    layer: 'platform',
    text: 'typed, validated configuration (fails fast at boot); the Node.js lines supported',
  },
  http: {
    layer: 'platform',
    text:
      'the request pipeline: middleware order (pipeline.ts), global guards and filter in order ' +
      '(http-pipeline.module.ts), the document writer, the response cache, the change-epoch guard ' +
      'and write-effect marks, the route table, client errors, connection draining',
  },
  observability: { layer: 'platform', text: 'structured logs, request ids and access log, metrics' },
  persistence: {
    layer: 'platform',
    text:
      'data-source options, the MySQL pool, reads and writes beside TypeORM’s runners, statement ' +
      'tracking, naming, migrations (one set per dialect)',
  },

  'admin-catalogs': {
    layer: 'domain',
    text: 'the engine and policy-engine version catalogs, and who pins their versions',
  },
  'admin-users': { layer: 'domain', text: '/admin/users: list, show, suspend, admin flag, delete' },
  'cli-login': {
    layer: 'domain',
    text: '`terraform login` (`login.v1`): the HTML sign-in page, one-time codes bound to PKCE, the token exchange',
  },
  audit: {
    layer: 'domain',
    text: 'the audit trail: a request watcher records each write, refused before routing or not; serves the trail',
  },
  bootstrap: {
    layer: 'domain',
    text: 'the initial admin creation token and the first site administrator (direct clients only)',
  },
  health: { layer: 'domain', text: '/healthz, /readyz and /api/v2/ping' },
  notifications: {
    layer: 'domain',
    text:
      'notification configurations of workspaces, the outbox written with each run move, the ' +
      'delivery worker (claims, retries), the outbound guard against private addresses',
  },
  'organization-lifecycle': {
    layer: 'domain',
    text: '/organizations routes: create, rename, delete with everything in it',
  },
  organizations: { layer: 'domain', text: 'organization lookups and locks' },
  policies: { layer: 'domain', text: 'policies and their uploaded code' },
  'policy-sets': {
    layer: 'domain',
    text: 'policy sets, their relationships and versions, the effective sets of a workspace',
  },
  projects: { layer: 'domain', text: 'projects and their workspace counts' },
  registry: {
    layer: 'domain',
    text: 'the private registry of providers and modules, its signed links and consumer protocols',
  },
  'reserved-tag-keys': { layer: 'domain', text: 'reserved tag keys of an organization' },
  'run-triggers': { layer: 'domain', text: 'run triggers between workspaces' },
  runs: {
    layer: 'domain',
    text:
      'the run control plane: configuration versions, runs and their phases, the queue, timeouts, ' +
      'comments, run triggers fired; the executor protocol, agent pools and policy checks beside them',
  },
  secrets: {
    layer: 'domain',
    text:
      'encryption at rest, the one mechanism: envelope encryption under the master key, the key ' +
      'ring, the holders of wrapped keys and their rotation; the sealed values of sensitive ' +
      'key/value rows (variables, policy-set parameters) and their rules',
  },
  'state-versions': {
    layer: 'domain',
    text:
      'state versions and their outputs: writes under the workspace lock, uploads, downloads, ' +
      'rollback; what an unlock and a workspace deletion mean for state',
  },
  storage: {
    layer: 'domain',
    text: 'BlobStore (fs, s3), signed links, /uploads routes, bounded archive inspection',
  },
  'tag-binding-routes': { layer: 'domain', text: '/projects/:id and /workspaces/:id tag-binding routes' },
  'tag-bindings': { layer: 'domain', text: 'tag bindings and their rules, used by projects and workspaces' },
  teams: { layer: 'domain', text: 'teams, memberships, organization access, workspace access' },
  tokens: { layer: 'domain', text: 'user, team and organization tokens; login' },
  users: { layer: 'domain', text: 'users and their accounts' },
  variables: {
    layer: 'domain',
    text: 'workspace variables, variable sets, and the variables that reach a workspace after precedence',
  },
  workspaces: {
    layer: 'domain',
    text: 'workspaces, their settings, their caches by id and of lists, and the row locks other modules take in their transactions (WorkspaceLocks)',
  },

  cli: { layer: 'program', text: 'the operator commands: migrations, catalog import, key rotation, help' },
  executor: {
    layer: 'program',
    text: 'the reference executor (`npm run agent`): claims jobs over the protocol, runs the tools',
  },
};

/** Subfolders worth a line of their own; the others are listed by name under their folder. */
export const SUBFOLDERS: Record<string, string> = {
  'common/auth':
    'authentication guard, passport strategies, auth kinds, Principal, PermissionService, AccessRepository, token use',
  'common/cache': 'the shared change epoch, read sets, TTL memo',
  'common/errors': 'DomainError and Violations, DB-error mapping, the exception filter',
  'common/jsonapi': 'documents, query parsing, body pipe, the request guard, OpenAPI helpers',
  'common/rate-limit': 'per-principal limits',
  'common/sql': 'pagination, transactions and row locks, RowReader, RowWriter, column types',
  'registry/gpg-keys': 'signing keys of a namespace',
  'registry/modules': 'modules, their versions and archives',
  'registry/protocol': 'service discovery, providers.v1 and modules.v1 for the tools',
  'registry/providers': 'private providers',
  'registry/uploads': 'checksums, signatures and binaries through signed links; readiness',
  'registry/versions': 'provider versions and their platforms',
  'runs/policy-checks': 'policy checks of runs: evaluations, outcomes, overrides; the gate a run waits on',
  'runs/pools': 'agent pools, agent tokens and agents; the lookup behind executor authentication',
  'runs/protocol':
    'the executor protocol: registration, job claims and long-poll waits, heartbeats, reports; ' +
    'its wire shape; the agent-token passport strategy, which authenticates executors',
};

/** Subfolders that are a module's own plumbing, never listed. */
export const UNLISTED_SUBFOLDERS = new Set(['entities', 'dto', 'migrations']);
