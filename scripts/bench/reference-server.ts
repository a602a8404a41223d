/**
 * The bench's yardstick for Plinth's computed path (BENCH_REFERENCE=1, docs/benchmarks.md): a
 * hand-written `node:http` + mysql2 server that computes four of the bench's answers from the same
 * MySQL/MariaDB database with the fewest queries we could write by hand, and nothing else: no
 * framework, no ORM, no caches of answers. The bench checks that its answers equal Plinth's before
 * it measures either.
 *
 *   GET /api/v2/policy-sets/:id?include=current_version,newest_version          2 queries
 *   GET /api/v2/organizations/:org/policy-sets?page[size]=100&include=workspaces,projects
 *     6 queries: the organization, the page and its count, the relations, projects, workspaces
 *   GET /api/v2/workspaces/:id/run-triggers?filter[run-trigger][type]=inbound&include=sourceable
 *                                                                               1 query
 *   GET /api/registry/v1/providers/:org/:name/versions                           1 query
 *
 * Authentication is what Plinth's token cache leaves per request: the bearer token's digest is
 * looked up once and remembered. It serves the bench's user only, who owns the seeded
 * organization, so every permission it renders is the owner's (as Plinth's answers to that user).
 *
 *   node -r ts-node/register/transpile-only scripts/bench/reference-server.ts
 *   (REFERENCE_DATABASE_URL, PORT, SIGNING_SECRET: the server's, for the upload links of pending versions)
 */
import { createHash, createHmac } from 'node:crypto';
import { createServer, IncomingMessage, ServerResponse } from 'node:http';
import { createPool, Pool, RowDataPacket } from 'mysql2/promise';

const JSONAPI = 'application/vnd.api+json';
type Row = RowDataPacket & Record<string, unknown>;
type Json = Record<string, unknown>;

const iso = (d: unknown): string | null => (d ? (d as Date).toISOString() : null);
const isoOffset = (d: unknown): string | null => (d ? iso(d)!.replace(/\.\d{3}Z$/, '+00:00') : null);
const bool = (v: unknown): boolean => v === 1 || v === true || v === '1';
const one = (type: string, id: unknown) => ({ data: id === null || id === undefined ? null : { id, type } });
const many = (type: string, ids: string[]) => ({ data: ids.map((id) => ({ id, type })) });
const marks = (n: number) => Array.from({ length: n }, () => '?').join(', ');
const tagLinks = (self: string) => ({
  'tag-bindings': { links: { related: `${self}/tag-bindings` } },
  'effective-tag-bindings': { links: { related: `${self}/effective-tag-bindings` } },
});

class HttpError extends Error {
  constructor(readonly status: number) {
    super(String(status));
  }
}

export class ReferenceServer {
  private readonly users = new Map<string, string>();

  constructor(private readonly pool: Pool) {}

  /** The user of a bearer token, looked up once. */
  private async authenticate(req: IncomingMessage): Promise<void> {
    const header = req.headers.authorization ?? '';
    if (!header.startsWith('Bearer ')) throw new HttpError(401);
    const digest = createHash('sha256').update(header.slice(7), 'utf8').digest('hex');
    if (this.users.has(digest)) return;
    const [rows] = await this.pool.query<Row[]>('SELECT user_id FROM tokens WHERE digest = ?', [digest]);
    if (!rows[0]?.user_id) throw new HttpError(401);
    this.users.set(digest, rows[0].user_id as string);
  }

  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    try {
      await this.authenticate(req);
      const url = new URL(req.url ?? '/', `http://${req.headers.host}`);
      const origin = `http://${req.headers.host}`;
      const path = url.pathname;
      let m: RegExpExecArray | null;
      let body: unknown;
      if ((m = /^\/api\/v2\/policy-sets\/([^/]+)$/.exec(path))) body = await this.showPolicySet(m[1], origin);
      else if ((m = /^\/api\/v2\/organizations\/([^/]+)\/policy-sets$/.exec(path)))
        body = await this.listPolicySets(decodeURIComponent(m[1]), url, origin);
      else if ((m = /^\/api\/v2\/workspaces\/([^/]+)\/run-triggers$/.exec(path)))
        body = await this.inboundTriggers(m[1], url, origin);
      else if ((m = /^\/api\/registry\/v1\/providers\/([^/]+)\/([^/]+)\/versions$/.exec(path)))
        body = await this.providerVersions(decodeURIComponent(m[1]), decodeURIComponent(m[2]));
      else throw new HttpError(404);
      const text = JSON.stringify(body);
      res.writeHead(200, {
        'content-type': path.startsWith('/api/registry/') ? 'application/json' : JSONAPI,
        'content-length': Buffer.byteLength(text),
      });
      res.end(text);
    } catch (err) {
      const status = err instanceof HttpError ? err.status : 500;
      if (status === 500) process.stderr.write(`${(err as Error).stack}\n`);
      res.writeHead(status, { 'content-type': JSONAPI });
      res.end(JSON.stringify({ errors: [{ status: String(status) }] }));
    }
  }

  private async showPolicySet(id: string, origin: string): Promise<unknown> {
    const [sets] = await this.pool.query<Row[]>(
      `SELECT s.*, o.name AS org_name FROM policy_sets s JOIN organizations o ON o.id = s.organization_id
        WHERE s.id = ?`,
      [id],
    );
    if (!sets.length) throw new HttpError(404);
    const rel = await this.relations(sets);
    const included: Json[] = [];
    const seen = new Set<string>();
    for (const v of [rel.newest.get(id), rel.current.get(id)]) {
      if (v && !seen.has(v.id as string)) {
        seen.add(v.id as string);
        included.push(policySetVersion(v, origin));
      }
    }
    return { data: policySet(sets[0], sets[0].org_name as string, rel), included };
  }

  private async listPolicySets(orgName: string, url: URL, origin: string): Promise<unknown> {
    const size = Number(url.searchParams.get('page[size]') ?? '20');
    const number = Number(url.searchParams.get('page[number]') ?? '1');
    const [orgs] = await this.pool.query<Row[]>('SELECT id FROM organizations WHERE name = ?', [orgName]);
    if (!orgs.length) throw new HttpError(404);
    const orgId = orgs[0].id as string;
    const [[sets], [counted]] = await Promise.all([
      this.pool.query<Row[]>(
        'SELECT * FROM policy_sets WHERE organization_id = ? ORDER BY name, id LIMIT ? OFFSET ?',
        [orgId, size, (number - 1) * size],
      ),
      this.pool.query<Row[]>('SELECT COUNT(*) AS n FROM policy_sets WHERE organization_id = ?', [orgId]),
    ]);
    const rel = await this.relations(sets);
    const data = sets.map((s) => policySet(s, orgName, rel));
    const wsIds = [
      ...new Set(
        sets.flatMap((s) => (bool(s.global) ? [] : (rel.members.workspaces.get(s.id as string) ?? []))),
      ),
    ];
    const projectIds = [
      ...new Set(
        sets.flatMap((s) => (bool(s.global) ? [] : (rel.members.projects.get(s.id as string) ?? []))),
      ),
    ];
    const [[projects], [workspaces]] = await Promise.all([
      projectIds.length
        ? this.pool.query<Row[]>(
            `SELECT p.*, (SELECT COUNT(*) FROM workspaces w WHERE w.project_id = p.id) AS workspace_count
               FROM projects p WHERE p.id IN (${marks(projectIds.length)})`,
            projectIds,
          )
        : [[] as Row[]],
      wsIds.length
        ? this.pool.query<Row[]>(`SELECT * FROM workspaces WHERE id IN (${marks(wsIds.length)})`, wsIds)
        : [[] as Row[]],
    ]);
    // Projects in the order the sets name them, workspaces in the order the database returned
    // them: as Plinth's includes are.
    const projectById = new Map(projects.map((p) => [p.id as string, p]));
    const included = [
      ...projectIds.flatMap((id) => (projectById.has(id) ? [project(projectById.get(id)!, orgName)] : [])),
      ...workspaces.map((w) => workspace(w, orgName)),
    ];
    const total = Number(counted[0].n);
    return {
      data,
      included,
      links: pageLinks(origin, url, number, size, total),
      meta: { pagination: pageMeta(number, size, total) },
    };
  }

  private async inboundTriggers(workspaceId: string, url: URL, origin: string): Promise<unknown> {
    const size = Number(url.searchParams.get('page[size]') ?? '20');
    const number = Number(url.searchParams.get('page[number]') ?? '1');
    const [rows] = await this.pool.query<Row[]>(
      {
        sql: `SELECT rt.id, rt.created_at, w.id AS w_id, w.name AS w_name, s.*, o.name AS org_name,
                     COUNT(*) OVER () AS total
                FROM run_triggers rt
                JOIN workspaces w ON w.id = rt.workspace_id
                JOIN workspaces s ON s.id = rt.sourceable_id
                JOIN organizations o ON o.id = s.organization_id
               WHERE rt.workspace_id = ?
               ORDER BY rt.created_at, rt.id LIMIT ? OFFSET ?`,
        nestTables: '_',
      },
      [workspaceId, size, (number - 1) * size],
    );
    const data = rows.map((r) => ({
      id: r.rt_id,
      type: 'run-triggers',
      attributes: {
        'workspace-name': r.w_w_name,
        'sourceable-name': r.s_name,
        'created-at': iso(r.rt_created_at),
      },
      relationships: { workspace: one('workspaces', r.w_w_id), sourceable: one('workspaces', r.s_id) },
      links: { self: `/api/v2/run-triggers/${r.rt_id}` },
    }));
    const included: Json[] = [];
    const seen = new Set<string>();
    for (const r of rows) {
      if (seen.has(r.s_id as string)) continue;
      seen.add(r.s_id as string);
      const s = Object.fromEntries(
        Object.entries(r)
          .filter(([k]) => k.startsWith('s_'))
          .map(([k, v]) => [k.slice(2), v]),
      ) as Row;
      included.push(workspace(s, r.o_org_name as string));
    }
    const total = rows.length ? Number(rows[0]._total ?? rows[0].total) : 0;
    return {
      data,
      included,
      links: pageLinks(origin, url, number, size, total),
      meta: { pagination: pageMeta(number, size, total) },
    };
  }

  private async providerVersions(orgName: string, name: string): Promise<unknown> {
    const [rows] = await this.pool.query<Row[]>(
      `SELECT v.id AS version_id, v.version, v.protocols, pl.os, pl.arch
         FROM organizations o
         JOIN registry_providers p ON p.organization_id = o.id AND p.registry_name = 'private'
                                  AND p.namespace = '' AND p.name = ?
         LEFT JOIN registry_provider_versions v ON v.provider_id = p.id AND v.usable = 1
         LEFT JOIN registry_provider_platforms pl ON pl.version_id = v.id AND pl.ready = 1
        WHERE o.name = ?
        ORDER BY v.created_at, v.id, pl.os, pl.arch`,
      [name, orgName],
    );
    if (!rows.length) throw new HttpError(404);
    const versions = new Map<string, { version: string; protocols: string[]; platforms: Json[] }>();
    for (const r of rows) {
      if (r.version_id === null || r.os === null) continue;
      let v = versions.get(r.version_id as string);
      if (!v) {
        v = {
          version: r.version as string,
          protocols: r.protocols ? (r.protocols as string).split(',') : [],
          platforms: [],
        };
        versions.set(r.version_id as string, v);
      }
      v.platforms.push({ os: r.os, arch: r.arch });
    }
    return { versions: [...versions.values()] };
  }

  /** Members of the four relationships (in the order added) and the newest and current versions. */
  private async relations(sets: Row[]): Promise<Relations> {
    const ids = sets.map((s) => s.id as string);
    const out: Relations = {
      members: { policies: new Map(), projects: new Map(), workspaces: new Map(), exclusions: new Map() },
      newest: new Map(),
      current: new Map(),
    };
    if (!ids.length) return out;
    const m = marks(ids.length);
    const member = (rel: string, table: string, column: string) =>
      `SELECT '${rel}' AS rel, policy_set_id AS set_id, ${column} AS member_id, created_at,
              NULL AS source, NULL AS status, NULL AS error, NULL AS ingressing_at, NULL AS ready_at,
              NULL AS errored_at, NULL AS updated_at
         FROM ${table} WHERE policy_set_id IN (${m})`;
    const version = (rel: string, ready: boolean) =>
      `SELECT '${rel}', v.policy_set_id, v.id, v.created_at, v.source, v.status, v.error, v.ingressing_at,
              v.ready_at, v.errored_at, v.updated_at
         FROM policy_set_versions v
        WHERE v.policy_set_id IN (${m}) ${ready ? "AND v.status = 'ready'" : ''}
          AND v.created_at = (SELECT MAX(v2.created_at) FROM policy_set_versions v2
                               WHERE v2.policy_set_id = v.policy_set_id ${ready ? "AND v2.status = 'ready'" : ''})`;
    const [rows] = await this.pool.query<Row[]>(
      [
        member('policies', 'policy_set_policies', 'policy_id'),
        member('projects', 'policy_set_projects', 'project_id'),
        member('workspaces', 'policy_set_workspaces', 'workspace_id'),
        member('exclusions', 'policy_set_workspace_exclusions', 'workspace_id'),
        version('newest', false),
        version('current', true),
      ].join(' UNION ALL '),
      Array.from({ length: 6 }, () => ids).flat(),
    );
    const added: Record<keyof Relations['members'], Map<string, Row[]>> = {
      policies: new Map(),
      projects: new Map(),
      workspaces: new Map(),
      exclusions: new Map(),
    };
    for (const r of rows) {
      const rel = r.rel as string;
      const setId = r.set_id as string;
      if (rel === 'newest' || rel === 'current') {
        out[rel].set(setId, { ...r, id: r.member_id, policy_set_id: setId });
        continue;
      }
      const map = added[rel as keyof Relations['members']];
      const list = map.get(setId);
      if (list) list.push(r);
      else map.set(setId, [r]);
    }
    // Oldest first, then by id: sorted here, not by the database (a sort over a UNION needs a
    // temporary table).
    for (const [rel, bySet] of Object.entries(added)) {
      for (const [setId, list] of bySet) {
        list.sort(
          (a, b) =>
            (a.created_at as Date).getTime() - (b.created_at as Date).getTime() ||
            (a.member_id < b.member_id ? -1 : a.member_id > b.member_id ? 1 : 0),
        );
        out.members[rel as keyof Relations['members']].set(
          setId,
          list.map((r) => r.member_id as string),
        );
      }
    }
    return out;
  }
}

interface Relations {
  members: Record<'policies' | 'projects' | 'workspaces' | 'exclusions', Map<string, string[]>>;
  newest: Map<string, Row>;
  current: Map<string, Row>;
}

function policySet(s: Row, orgName: string, rel: Relations): Json {
  const id = s.id as string;
  const ids = (k: keyof Relations['members']) => rel.members[k].get(id) ?? [];
  const global = bool(s.global);
  const relationships: Json = { organization: one('organizations', orgName) };
  if (!global) {
    relationships.projects = many('projects', ids('projects'));
    relationships.workspaces = many('workspaces', ids('workspaces'));
  }
  relationships['workspace-exclusions'] = many('workspaces', ids('exclusions'));
  relationships.policies = many('policies', ids('policies'));
  relationships['current-version'] = one('policy-set-versions', rel.current.get(id)?.id ?? null);
  relationships['newest-version'] = one('policy-set-versions', rel.newest.get(id)?.id ?? null);
  return {
    id,
    type: 'policy-sets',
    attributes: {
      name: s.name,
      description: s.description,
      global,
      kind: s.kind,
      overridable: bool(s.overridable),
      'agent-enabled': bool(s.agent_enabled),
      'policy-tool-version': s.policy_tool_version,
      'policy-count': ids('policies').length,
      'workspace-count': ids('workspaces').length,
      'project-count': ids('projects').length,
      'policies-path': s.policies_path,
      versioned: s.vcs_identifier !== null || bool(s.upload_versioned),
      'vcs-repo':
        s.vcs_identifier === null
          ? null
          : {
              branch: s.vcs_branch,
              identifier: s.vcs_identifier,
              'oauth-token-id': s.vcs_oauth_token_id,
              'vcs-app-installation-id': s.vcs_app_installation_id,
              'ingress-submodules': bool(s.vcs_ingress_submodules),
            },
      'created-at': iso(s.created_at),
      'updated-at': iso(s.updated_at),
    },
    relationships,
    links: { self: `/api/v2/policy-sets/${id}` },
  };
}

/** The upload link of a version still waiting for its archive: signed as Plinth signs it, valid 1 h. */
function uploadLink(v: Row, origin: string): string {
  const claims = {
    p: 'policy-set-version-upload',
    r: v.id,
    e: Math.floor((v.created_at as Date).getTime() / 1000) + 3600,
  };
  const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
  const mac = createHmac('sha256', process.env.SIGNING_SECRET ?? '')
    .update(payload)
    .digest('base64url');
  return `${origin}/uploads/${payload}.${mac}`;
}

function policySetVersion(v: Row, origin: string): Json {
  const stamps: Json = {};
  for (const [key, column] of [
    ['ingressing-at', 'ingressing_at'],
    ['ready-at', 'ready_at'],
    ['errored-at', 'errored_at'],
  ]) {
    if (v[column]) stamps[key] = isoOffset(v[column]);
  }
  return {
    id: v.id,
    type: 'policy-set-versions',
    attributes: {
      source: v.source,
      status: v.status,
      'status-timestamps': stamps,
      error: v.error,
      'created-at': iso(v.created_at),
      'updated-at': iso(v.updated_at),
    },
    relationships: { 'policy-set': one('policy-sets', v.policy_set_id) },
    links: {
      self: `/api/v2/policy-set-versions/${v.id}`,
      ...(v.status === 'pending' ? { upload: uploadLink(v, origin) } : {}),
    },
  };
}

function workspace(w: Row, orgName: string): Json {
  const self = `/api/v2/workspaces/${w.id}`;
  return {
    id: w.id,
    type: 'workspaces',
    attributes: {
      name: w.name,
      description: w.description,
      'engine-version': w.engine_version,
      'terraform-version': w.engine_version,
      locked: bool(w.locked),
      'execution-mode': w.execution_mode,
      'auto-apply': bool(w.auto_apply),
      'auto-apply-run-trigger': bool(w.auto_apply_run_trigger),
      permissions: { 'can-update': true, 'can-destroy': true, 'can-queue-run': true, 'can-read-runs': true },
      'created-at': iso(w.created_at),
      'updated-at': iso(w.updated_at),
    },
    relationships: {
      organization: one('organizations', orgName),
      project: one('projects', w.project_id),
      'locked-by': w.locked_by_type ? one(w.locked_by_type as string, w.locked_by_id) : { data: null },
      'agent-pool': one('agent-pools', w.agent_pool_id),
      ...tagLinks(self),
    },
    links: { self },
  };
}

function project(p: Row, orgName: string): Json {
  const self = `/api/v2/projects/${p.id}`;
  return {
    id: p.id,
    type: 'projects',
    attributes: {
      name: p.name,
      description: p.description,
      'workspace-count': Number(p.workspace_count),
      'created-at': iso(p.created_at),
      'updated-at': iso(p.updated_at),
    },
    relationships: { organization: one('organizations', orgName), ...tagLinks(self) },
    links: { self },
  };
}

function pageMeta(number: number, size: number, total: number): Json {
  const pages = Math.ceil(total / size);
  return {
    'current-page': number,
    'page-size': size,
    'prev-page': number > 1 ? Math.min(number - 1, Math.max(pages, 1)) : null,
    'next-page': number < pages ? number + 1 : null,
    'total-pages': pages,
    'total-count': total,
  };
}

function pageLinks(origin: string, url: URL, number: number, size: number, total: number): Json {
  const last = Math.max(Math.ceil(total / size), 1);
  const kept = [...url.searchParams].filter(([k]) => k !== 'page[number]' && k !== 'page[size]');
  const link = (n: number) => {
    const q = new URLSearchParams([['page[number]', String(n)], ['page[size]', String(size)], ...kept]);
    return `${origin}${url.pathname}?${q.toString()}`;
  };
  return {
    self: link(number),
    first: link(1),
    prev: number > 1 ? link(Math.min(number - 1, last)) : null,
    next: number < last ? link(number + 1) : null,
    last: link(last),
  };
}

if (require.main === module) {
  const url = process.env.REFERENCE_DATABASE_URL;
  if (!url) throw new Error('REFERENCE_DATABASE_URL is required');
  const pool = createPool({
    uri: url.replace(/^mariadb:/, 'mysql:'),
    connectionLimit: 10,
    timezone: 'Z',
    charset: 'utf8mb4_unicode_ci',
  });
  const app = new ReferenceServer(pool);
  const server = createServer((req, res) => void app.handle(req, res));
  server.keepAliveTimeout = 60_000;
  server.listen(Number(process.env.PORT ?? '3999'), '127.0.0.1');
  process.on('SIGTERM', () => server.close(() => void pool.end()));
}
