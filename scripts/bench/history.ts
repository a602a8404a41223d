/**
 * The `history` scenario: the lists users read, first over 1,000 rows of each kind, then with a
 * year of a busy installation around them (seed-history.ts: BENCH_HISTORY_SCALE of 1,000,000 runs,
 * 10,000,000 audit events, …), each list compared with itself by CPU per request and latency.
 * The lists read are the same rows both times: the large seed goes into workspaces of its own and
 * the same organization's audit trail.
 */
import { Agent } from 'node:http';
import Database from 'better-sqlite3';
import { createConnection } from 'mysql2/promise';
import { Api, issueAgentToken, registerExecutor } from './http';
import { Measured, Scenario } from './scenarios';
import { historySize, seedHistory, SeededHistory, SMALL_HISTORY } from './seed-history';
import { BenchDatabase } from './server';

export const HISTORY_ORG = 'bench-history';
const DAY_MS = 24 * 3600 * 1000;

/** The ids the history seed needs from the organization created through the API. */
async function organizationIds(
  db: BenchDatabase,
  org: string,
): Promise<{ organizationId: string; projectId: string }> {
  const sql = `SELECT w.organization_id AS organizationId, w.project_id AS projectId
    FROM workspaces w JOIN organizations o ON o.id = w.organization_id WHERE o.name = ? LIMIT 1`;
  if (db.dialect === 'sqlite') {
    const sqlite = new Database(db.sqlitePath, { readonly: true });
    try {
      return sqlite.prepare(sql).get(org) as { organizationId: string; projectId: string };
    } finally {
      sqlite.close();
    }
  }
  const c = await createConnection({
    uri: `${(db.mysqlServerUrl as string).replace(/^mariadb:/, 'mysql:')}/${db.mysqlDatabase}`,
  });
  try {
    const [rows] = await c.query(sql, [org]);
    return (rows as { organizationId: string; projectId: string }[])[0];
  } finally {
    await c.end();
  }
}

export interface HistorySetup {
  small: SeededHistory;
  /** An agent's token and id in the organization's pool, for the claim. */
  agentToken: string;
  agentId: string;
  now: Date;
  /** Seeds the large history around the small one; resolves with it. */
  grow(scale: number): Promise<SeededHistory>;
}

/** A workspace made through the API, whose rows the seed copies (a variable: `name: '…'` reads as a scenario). */
const TEMPLATE_WORKSPACE = 'history-template';

export async function setUpHistory(
  api: Api,
  origin: string,
  db: BenchDatabase,
  log: (line: string) => void,
): Promise<HistorySetup> {
  await api.post('/api/v2/organizations', {
    data: { type: 'organizations', attributes: { name: HISTORY_ORG, email: 'ops@bench-history.example' } },
  });
  await api.post(`/api/v2/organizations/${HISTORY_ORG}/workspaces`, {
    data: { type: 'workspaces', attributes: { name: TEMPLATE_WORKSPACE } },
  });
  const ids = await organizationIds(db, HISTORY_ORG);
  const now = new Date();
  log(`seeding the small history: ${JSON.stringify(SMALL_HISTORY)}`);
  const small = await seedHistory(db, { ...ids, tag: 'a', now }, SMALL_HISTORY, log);
  const pool = await api.post<{ data: { id: string } }>(`/api/v2/organizations/${HISTORY_ORG}/agent-pools`, {
    data: { type: 'agent-pools', attributes: { name: 'history' } },
  });
  const agentToken = await issueAgentToken(api, pool.data.id, 'history');
  const agent = new Agent({ keepAlive: false });
  const agentId = await registerExecutor(agent, new URL(origin), agentToken, 'history').finally(() =>
    agent.destroy(),
  );
  return {
    small,
    agentToken,
    agentId,
    now,
    grow: async (scale) => {
      const size = historySize(scale);
      log(`seeding the large history (BENCH_HISTORY_SCALE ${scale}): ${JSON.stringify(size)}`);
      const large = await seedHistory(db, { ...ids, tag: 'b', now }, size, log);
      log(`  seeded the large history in ${large.seconds.toFixed(0)} s`);
      return large;
    },
  };
}

const get = (path: string) => [{ method: 'GET' as const, path }];

/** The lists, over the small seed's rows; `label` names the size they are read at. */
export function historyScenarios(setup: HistorySetup, label: string): Scenario[] {
  const ws = setup.small.workspaceIds[0];
  const wsName = setup.small.workspaceNames[0];
  const run = setup.small.runIds[0];
  // 60 days: a full page of 100 at both sizes (164 events at 1,000 a year; 1.6 million at 10 million).
  const since = new Date(setup.now.getTime() - 60 * DAY_MS).toISOString();
  const runs = `/api/v2/workspaces/${ws}/runs?page%5Bsize%5D=20`;
  const scenario = (name: string, title: string, requests: Scenario['requests']): Scenario => ({
    name: `history-${name}@${label}`,
    title: `${title} (${label})`,
    cls: 'scaling',
    requests,
  });
  return [
    scenario('runs-page1', "a workspace's runs, page 1 of 20", get(`${runs}&page%5Bnumber%5D=1`)),
    scenario('runs-last', "a workspace's runs, the last page of 20", get(`${runs}&page%5Bnumber%5D=5`)),
    scenario(
      'runs-errored',
      "a workspace's runs, filter[status]=errored",
      get(`${runs}&filter%5Bstatus%5D=errored`),
    ),
    scenario(
      'audit-since',
      "the organization's audit trail since 60 days ago, page 1 of 100",
      get(
        `/api/v2/organization/audit-trail?filter%5Borganization%5D=${HISTORY_ORG}&page%5Bsize%5D=100&since=${encodeURIComponent(since)}`,
      ),
    ),
    scenario('comments', "a run's comments", get(`/api/v2/runs/${run}/comments`)),
    scenario(
      'state-versions',
      "a workspace's state versions, page 1 of 20",
      get(
        `/api/v2/state-versions?filter%5Bworkspace%5D%5Bname%5D=${wsName}&filter%5Borganization%5D%5Bname%5D=${HISTORY_ORG}&page%5Bsize%5D=20`,
      ),
    ),
    scenario('claim', 'an executor claim with nothing queued (204)', [
      {
        method: 'POST',
        path: '/api/v2/agent/jobs/claim',
        headers: {
          authorization: `Bearer ${setup.agentToken}`,
          'content-type': 'application/json',
          'x-plinth-agent': setup.agentId,
        },
        body: '{}',
      },
    ]),
  ];
}

/** Each list at the large size against itself at the small one: CPU per request, p50 and the ratios. */
export function historyTable(
  rows: { name: string; small: Measured; large: Measured }[],
  largeLabel: string,
): string[] {
  const cpu = (m: Measured) => m.serverCpuMs + m.databaseCpuMs;
  const out = [
    '',
    `history: each list at ${largeLabel} against the same list at 1,000 rows (target: within 1.5×)`,
    '',
    '| list | CPU ms/req at 1,000 (server + DB) | CPU ms/req large (server + DB) | CPU ratio | p50 ms at 1,000 | p50 ms large | req/s ratio |',
    '|---|---:|---:|---:|---:|---:|---:|',
  ];
  for (const { name, small, large } of rows) {
    const ratio = cpu(large) / cpu(small);
    const rps = small.rps / large.rps;
    out.push(
      `| ${name} | ${cpu(small).toFixed(2)} (${small.serverCpuMs.toFixed(2)} + ${small.databaseCpuMs.toFixed(2)}) ` +
        `| ${cpu(large).toFixed(2)} (${large.serverCpuMs.toFixed(2)} + ${large.databaseCpuMs.toFixed(2)}) ` +
        `| ${ratio.toFixed(2)}× ${ratio <= 1.5 ? '✓' : '✗'} | ${small.p50} | ${large.p50} | ${rps.toFixed(2)}× |`,
    );
  }
  return out;
}
