import autocannon from 'autocannon';
import { PacedRequest, pacedLoad } from './paced';
import { Seeded } from './seed';

const JSONAPI = 'application/vnd.api+json';

/**
 * `single`: one resource or a small list (p99 target 25 ms); `list100`: the page of 100 (250 ms);
 * `mixed`: reads measured while writes run beside them (no target).
 */
export type ScenarioClass = 'single' | 'list100' | 'write' | 'scaling' | 'mixed';

export interface Scenario {
  name: string;
  title: string;
  cls: ScenarioClass;
  /** Minimum req/s from issue #8 (MySQL, 2 cores), if the scenario has one. */
  target?: number;
  requests: autocannon.Request[];
  /**
   * Requests driven at the same time on connections of their own (taken from the total); the
   * scenario's req/s and latencies are its own requests', CPU and statements per request count both.
   */
  alongside?: { connections: number; requests: autocannon.Request[] };
  /**
   * Traffic of its own kind driven beside the requests for the whole scenario (executors running
   * runs): counted like `alongside`.
   */
  load?: SideLoad;
}

/** A load that runs until stopped and counts what it sent. */
export interface SideLoad {
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Requests answered so far, and those that failed; `units`: bigger units done (runs), if it counts them. */
  counts(): { requests: number; errors: number; units?: number };
}

const get = (path: string): autocannon.Request[] => [{ method: 'GET', path }];

/** The read and write scenarios over the seeded organization. */
export function scenarios(seed: Seeded): Scenario[] {
  const org = seed.org;
  let next = 0;
  const attach = () => {
    const k = next++;
    const setId = seed.attachableSetIds[k % seed.attachableSetIds.length];
    // Workspaces from the middle of the list, away from what the seed attached.
    const ws = seed.workspaceIds[Math.floor(seed.workspaceIds.length / 2) + (k % 97)];
    return { setId, body: JSON.stringify({ data: [{ type: 'workspaces', id: ws }] }) };
  };
  return [
    {
      name: 'ping',
      title: 'GET /api/v2/ping: no database, for calibration (the stack alone)',
      cls: 'single',
      requests: get('/api/v2/ping'),
    },
    {
      name: 'show-policy-set',
      title: 'show policy set, include=current_version,newest_version',
      cls: 'single',
      target: 2500,
      requests: get(`/api/v2/policy-sets/${seed.versionedSetId}?include=current_version,newest_version`),
    },
    {
      name: 'list-policy-sets',
      title: 'list policy sets, page[size]=100, include=workspaces,projects',
      cls: 'list100',
      target: 180,
      requests: get(
        `/api/v2/organizations/${org}/policy-sets?page%5Bsize%5D=100&include=workspaces,projects`,
      ),
    },
    {
      name: 'effective-policy-sets',
      title: 'effective policy sets of a workspace',
      cls: 'single',
      requests: get(`/api/v2/workspaces/${seed.effectiveWorkspaceId}/effective-policy-sets`),
    },
    {
      name: 'inbound-run-triggers',
      title: 'inbound run triggers, include=sourceable',
      cls: 'single',
      target: 2200,
      requests: get(
        `/api/v2/workspaces/${seed.inboundWorkspaceId}/run-triggers?filter%5Brun-trigger%5D%5Btype%5D=inbound&include=sourceable`,
      ),
    },
    {
      name: 'provider-versions',
      title: 'consumer versions list of a provider',
      cls: 'single',
      target: 2600,
      requests: get(`/api/registry/v1/providers/${org}/${seed.providerName}/versions`),
    },
    {
      name: 'provider-download',
      title: 'consumer download JSON',
      cls: 'single',
      requests: get(
        `/api/registry/v1/providers/${org}/${seed.providerName}/${seed.providerVersion}/download/linux/amd64`,
      ),
    },
    {
      name: 'module-versions',
      title: 'consumer versions list of a module',
      cls: 'single',
      requests: get(`/api/registry/v1/modules/${org}/${seed.moduleName}/${seed.moduleProvider}/versions`),
    },
    {
      name: 'module-download',
      title: 'consumer module download (204 with X-Terraform-Get)',
      cls: 'single',
      requests: get(
        `/api/registry/v1/modules/${org}/${seed.moduleName}/${seed.moduleProvider}/${seed.moduleVersion}/download`,
      ),
    },
    {
      name: 'state-read',
      title: 'current-state-version, then the download of its 1 MB state (as `terraform state pull`)',
      cls: 'single',
      requests: [
        { method: 'GET', path: `/api/v2/workspaces/${seed.stateWorkspaceId}/current-state-version` },
        { method: 'GET', path: `/api/v2/state-versions/${seed.stateVersionId}/download` },
      ],
    },
    {
      name: 'reserved-tag-key-churn',
      title: 'create + delete a reserved tag key (alternating)',
      cls: 'write',
      requests: reservedTagKeyChurn(org),
    },
    {
      name: 'policy-set-workspaces',
      title: 'POST/DELETE /policy-sets/:id/relationships/workspaces (alternating)',
      cls: 'write',
      requests: [
        {
          method: 'POST',
          headers: { 'content-type': JSONAPI },
          setupRequest: (req, context) => {
            const { setId, body } = attach();
            context.setId = setId;
            context.body = body;
            return { ...req, path: `/api/v2/policy-sets/${setId}/relationships/workspaces`, body };
          },
        },
        {
          method: 'DELETE',
          headers: { 'content-type': JSONAPI },
          setupRequest: (req, context) => ({
            ...req,
            path: `/api/v2/policy-sets/${String(context.setId)}/relationships/workspaces`,
            body: String(context.body),
          }),
        },
      ],
    },
  ];
}

let churnKeys = 0;

/** A new reserved tag key's document, a key no other request of this bench used. */
function churnKeyBody(): string {
  return JSON.stringify({
    data: {
      type: 'reserved-tag-keys',
      attributes: { key: `bench.churn-${process.pid}-${churnKeys++}`, 'disable-overrides': false },
    },
  });
}

/** POST a reserved tag key, then DELETE it: the smallest complete write, over and over. */
function reservedTagKeyChurn(org: string): autocannon.Request[] {
  return [
    {
      method: 'POST',
      path: `/api/v2/organizations/${org}/reserved-tag-keys`,
      headers: { 'content-type': JSONAPI },
      setupRequest: (req) => ({ ...req, body: churnKeyBody() }),
      onResponse: (status, body, context) => {
        context.id = status === 201 ? (JSON.parse(body) as { data: { id: string } }).data.id : 'missing';
      },
    },
    {
      method: 'DELETE',
      setupRequest: (req, context) => ({
        ...req,
        path: `/api/v2/reserved-tag-keys/${String(context.id)}`,
      }),
    },
  ];
}

/** Connections of a `mixed` scenario that write; the others read. */
export const WRITING_CONNECTIONS = 4;
/**
 * Connections a paced side load may hold at once: enough that the rate holds while the reads keep
 * every answer waiting (50 requests/s at up to 1.3 s each). The reads keep all their connections.
 */
export const PACED_CONNECTIONS = 64;

/** The reads a `…-while-writing` scenario measures. */
export type ReadWhileWriting = 'show' | 'list' | 'versions';

/**
 * What runs beside the reads of a `…-while-writing` scenario: `writes` churn reserved tag keys;
 * `reads` (the control) ask for pages of them that were never asked before, so each is computed
 * with its queries and writes nothing; `ping` (the floor) asks for the cheapest answer the server
 * gives, with no database and no credentials, so what it costs the reads is what any request beside
 * them costs at the least. `rate`: requests per second in all, evenly spaced (paced.ts); without it
 * each connection sends its next request as soon as its last answer is in.
 */
export interface BesideReads {
  kind: 'writes' | 'reads' | 'ping';
  rate?: number;
}

/**
 * A read of many clients (a request per token in turn) while other connections keep creating and
 * deleting reserved tag keys: a write ends only the remembered answers that read the table it
 * wrote, so the reads stay answered from memory; each token's principal and rights are kept across
 * writes that cannot change them.
 */
export function readWhileWriting(
  seed: Seeded,
  tokens: string[],
  read: ReadWhileWriting = 'show',
  beside: BesideReads = { kind: 'writes' },
  paced?: { origin: string; token: string },
): Scenario {
  let next = 0;
  const reads: Record<ReadWhileWriting, { name: string; what: string; path: string; cls: ScenarioClass }> = {
    show: {
      name: 'show-while-writing',
      what: 'show policy set',
      path: `/api/v2/policy-sets/${seed.versionedSetId}?include=current_version,newest_version`,
      cls: 'mixed',
    },
    list: {
      name: 'list-while-writing',
      what: 'list of 100 policy sets with includes',
      path: `/api/v2/organizations/${seed.org}/policy-sets?page%5Bsize%5D=100&include=workspaces,projects`,
      cls: 'mixed',
    },
    versions: {
      name: 'versions-while-writing',
      what: 'consumer versions list',
      path: `/api/registry/v1/providers/${seed.org}/${seed.providerName}/versions`,
      cls: 'mixed',
    },
  };
  const r = reads[read];
  return {
    name: r.name,
    title:
      `${r.what} as ${tokens.length} tokens in turn, while ` +
      (beside.rate ? `up to ${PACED_CONNECTIONS}` : `${WRITING_CONNECTIONS}`) +
      ` connections ${BESIDE_TITLE[beside.kind]}` +
      (beside.rate ? ` at ${beside.rate} requests/s in all` : ' as fast as they are answered'),
    cls: r.cls,
    requests: [
      {
        method: 'GET',
        path: r.path,
        setupRequest: (req) => ({
          ...req,
          headers: { ...req.headers, authorization: `Bearer ${tokens[next++ % tokens.length]}` },
        }),
      },
    ],
    ...(beside.rate && paced
      ? {
          load: pacedLoad(
            paced.origin,
            paced.token,
            beside.rate,
            PACED_CONNECTIONS,
            PACED_SIDE[beside.kind](seed.org),
          ),
        }
      : {
          alongside: { connections: WRITING_CONNECTIONS, requests: CLOSED_LOOP_SIDE[beside.kind](seed.org) },
        }),
  };
}

/** Each side load as a paced load's requests, and as autocannon's (each sent once the last is answered). */
const PACED_SIDE: Record<BesideReads['kind'], (org: string) => () => PacedRequest> = {
  writes: (org) => pacedChurn(org),
  reads: (org) => pacedPages(org),
  ping: () => pacedPings(),
};
const CLOSED_LOOP_SIDE: Record<BesideReads['kind'], (org: string) => autocannon.Request[]> = {
  writes: (org) => reservedTagKeyChurn(org),
  reads: (org) => unaskedPages(org),
  ping: () => get(PING_PATH),
};

const BESIDE_TITLE: Record<BesideReads['kind'], string> = {
  writes: 'churn reserved tag keys',
  reads: 'read pages of reserved tag keys never asked before',
  ping: 'ask for /api/v2/ping',
};

const PING_PATH = '/api/v2/ping';

/** The floor's pings as a paced load's requests. */
export function pacedPings(): () => PacedRequest {
  return () => ({ method: 'GET', path: PING_PATH, ok: 204 });
}

let unaskedPage = 0;

/** A page of the organization's reserved tag keys no earlier request asked for: computed, not remembered. */
function unaskedPagePath(org: string): string {
  return `/api/v2/organizations/${org}/reserved-tag-keys?page%5Bsize%5D=5&page%5Bnumber%5D=${++unaskedPage}`;
}

/** The churn as a paced load's requests: delete a key created earlier if there is one, else create one. */
function pacedChurn(org: string): () => PacedRequest {
  const created: string[] = [];
  return () => {
    const id = created.shift();
    if (id) return { method: 'DELETE', path: `/api/v2/reserved-tag-keys/${id}`, ok: 204 };
    return {
      method: 'POST',
      path: `/api/v2/organizations/${org}/reserved-tag-keys`,
      body: churnKeyBody(),
      ok: 201,
      answered: (text) => created.push((JSON.parse(text) as { data: { id: string } }).data.id),
    };
  };
}

/** The control's pages as a paced load's requests. */
function pacedPages(org: string): () => PacedRequest {
  return () => ({ method: 'GET', path: unaskedPagePath(org), ok: 200 });
}

/** The control's pages as autocannon's requests. */
function unaskedPages(org: string): autocannon.Request[] {
  return [{ method: 'GET', setupRequest: (req) => ({ ...req, path: unaskedPagePath(org) }) }];
}

/** The workspace list of the scaling organization, first page and last page. */
export function scalingScenarios(org: string, workspaces: number, label: string): Scenario[] {
  const size = 20;
  const last = Math.ceil(workspaces / size);
  const path = (page: number) =>
    `/api/v2/organizations/${org}/workspaces?page%5Bnumber%5D=${page}&page%5Bsize%5D=${size}`;
  return [
    {
      name: `workspaces-page1@${label}`,
      title: `workspace list, page 1 of ${last}, ${label} workspaces`,
      cls: 'scaling',
      requests: get(path(1)),
    },
    {
      name: `workspaces-last@${label}`,
      title: `workspace list, page ${last} of ${last}, ${label} workspaces`,
      cls: 'scaling',
      requests: get(path(last)),
    },
  ];
}

export interface Measured {
  scenario: Scenario;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  bytesPerResponse: number;
  rssBytes: number;
  /** CPU milliseconds per completed request: the server's processes, and the local database server's. */
  serverCpuMs: number;
  databaseCpuMs: number;
  /** Statements the database ran per completed request (MySQL only): N+1 queries show here. */
  queriesPerRequest: number | null;
  /** Share of the scenario's own requests answered from the response cache (from /metrics). */
  fromMemory: number | null;
  /** What the requests driven alongside did, for a scenario that has them (`units`: per second). */
  alongside?: { rps: number; errors: number; units?: number };
}

/** Reads cumulative CPU seconds of the server and of the database while a scenario runs. */
export interface CpuMeters {
  server: () => number;
  database: () => number;
  /** The database's running count of statements, where it can be read. */
  statements: () => Promise<number | undefined>;
  /** The server's running count of answers given from the response cache. */
  cacheHits?: () => Promise<number | undefined>;
}

export interface DriveOptions {
  origin: string;
  token: string;
  connections: number;
  duration: number;
  warmup: number;
}

/** Runs one scenario with autocannon after a short warm-up that is not counted. */
export async function drive(
  scenario: Scenario,
  opts: DriveOptions,
  rss: () => { stop: () => number },
  cpu: CpuMeters,
): Promise<Measured> {
  const base: autocannon.Options = {
    url: opts.origin,
    connections: opts.connections,
    timeout: 10,
    headers: { authorization: `Bearer ${opts.token}`, accept: JSONAPI },
    requests: scenario.requests,
  };
  const beside = scenario.alongside;
  const side: autocannon.Options | undefined = beside && {
    ...base,
    connections: beside.connections,
    requests: beside.requests,
  };
  if (beside) base.connections = opts.connections - beside.connections;
  const run = (duration: number) =>
    Promise.all([autocannon({ ...base, duration }), side ? autocannon({ ...side, duration }) : undefined]);
  const load = scenario.load;
  await load?.start();
  if (opts.warmup > 0) await run(opts.warmup);
  const sampler = rss();
  const statements0 = await cpu.statements();
  const hits0 = await cpu.cacheHits?.();
  const [server0, database0] = [cpu.server(), cpu.database()];
  const load0 = load?.counts();
  const [result, sideResult] = await run(opts.duration);
  const load1 = load?.counts();
  const [server1, database1] = [cpu.server(), cpu.database()];
  const statements1 = await cpu.statements();
  const hits1 = await cpu.cacheHits?.();
  const rssBytes = sampler.stop();
  await load?.stop();
  const loadDone =
    load0 && load1
      ? {
          requests: load1.requests - load0.requests,
          errors: load1.errors - load0.errors,
          units: (load1.units ?? 0) - (load0.units ?? 0),
        }
      : undefined;
  const ownCompleted = result['2xx'] + result.non2xx;
  const completed =
    ownCompleted + (sideResult ? sideResult['2xx'] + sideResult.non2xx : 0) + (loadDone?.requests ?? 0);
  const perRequest = (seconds: number) => (completed ? (seconds * 1000) / completed : 0);
  return {
    scenario,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.non2xx + result.errors + result.timeouts,
    bytesPerResponse: ownCompleted ? result.throughput.total / ownCompleted : 0,
    rssBytes,
    serverCpuMs: perRequest(server1 - server0),
    databaseCpuMs: perRequest(database1 - database0),
    // Less the one statement that read the counter.
    queriesPerRequest:
      statements0 === undefined || statements1 === undefined || !completed
        ? null
        : (statements1 - statements0 - 1) / completed,
    fromMemory:
      hits0 === undefined || hits1 === undefined || !ownCompleted
        ? null
        : Math.min(1, (hits1 - hits0) / ownCompleted),
    alongside: loadDone
      ? {
          rps: loadDone.requests / opts.duration,
          errors: loadDone.errors,
          units: loadDone.units / opts.duration,
        }
      : sideResult && {
          rps: sideResult.requests.average,
          errors: sideResult.non2xx + sideResult.errors + sideResult.timeouts,
        },
  };
}
