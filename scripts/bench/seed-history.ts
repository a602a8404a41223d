/**
 * A year of history by direct multi-row INSERTs: runs with their plan, apply and jobs, comments,
 * state versions and audit events, in an organization created through the API. The API would take
 * days for a million runs. Rows are spread evenly over the year before `now`, ids count up (so each
 * batch appends to the primary key, as rows written over a year do), and the table statistics are
 * refreshed afterwards, as a DBA would.
 *
 * `seedHistory` is called twice by the `history` scenario: first with 1,000 rows of each kind in
 * ten workspaces (the lists it reads), then with the large counts in workspaces of their own, so the
 * lists read are the same rows both times and only the tables around them have grown.
 */
import Database from 'better-sqlite3';
import { Connection, createConnection } from 'mysql2/promise';
import { announceBulkChange, mysqlRun, sqliteRun } from './bulk-change';
import { BenchDatabase } from './server';

export interface HistorySize {
  workspaces: number;
  runs: number;
  stateVersions: number;
  auditEvents: number;
  comments: number;
  /** Runs that carry the comments (the first ones); 0: every run. */
  commentedRuns: number;
}

/** The year of a busy installation; BENCH_HISTORY_SCALE multiplies it. */
export function historySize(scale: number): HistorySize {
  const n = (full: number) => Math.max(1, Math.round(full * scale));
  return {
    workspaces: n(10_000),
    runs: n(1_000_000),
    stateVersions: n(200_000),
    auditEvents: n(10_000_000),
    comments: n(1_000_000),
    commentedRuns: 0,
  };
}

/** What the small seed is: 1,000 of each in ten workspaces, 20 comments on each of 50 runs. */
export const SMALL_HISTORY: HistorySize = {
  workspaces: 10,
  runs: 1_000,
  stateVersions: 1_000,
  auditEvents: 1_000,
  comments: 1_000,
  commentedRuns: 50,
};

export interface HistoryTarget {
  organizationId: string;
  projectId: string;
  /** Prefix of the workspace names and of every id this call makes (one letter per call). */
  tag: string;
  now: Date;
}

export interface SeededHistory {
  workspaceIds: string[];
  workspaceNames: string[];
  runIds: string[];
  seconds: number;
}

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const YEAR_MS = 365 * 24 * 3600 * 1000;
const BATCH = 1_000;
// Digits and lower case only: MariaDB's collation compares ids without case.
const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';
/** Run statuses of a year of history: most applied, some of every other end. */
const RUN_ENDS = [
  'applied',
  'applied',
  'applied',
  'applied',
  'planned_and_finished',
  'applied',
  'errored',
  'applied',
  'discarded',
  'applied',
  'canceled',
  'applied',
  'applied',
  'applied',
  'planned_and_finished',
  'applied',
  'applied',
  'applied',
  'applied',
  'errored',
] as const;

/** `prefix-` and 16 characters that count up: `tag`, then `n` in base 36, zero-padded. */
function countingId(prefix: string, tag: string, n: number): string {
  let digits = '';
  for (let v = n; v > 0; v = Math.floor(v / 36)) digits = ALPHABET[v % 36] + digits;
  return `${prefix}-${tag}${digits.padStart(15, '0')}`;
}

/** `00000000-…` UUIDs that count up with the event's time. */
function countingUuid(tag: string, n: number): string {
  const hex = n.toString(16).padStart(12, '0');
  return `${tag.charCodeAt(0).toString(16).padStart(8, '0')}-0000-4000-8000-${hex}`;
}

const sqlTime = (d: Date) => d.toISOString().replace('T', ' ').replace('Z', '');

interface Inserter {
  /**
   * `upsert`: the ON DUPLICATE KEY / ON CONFLICT clause that adds to an existing row's `events`
   * (a count table's, whose key is its first two columns).
   */
  insert(table: string, columns: string[], rows: unknown[][], upsert?: boolean): Promise<void>;
  analyze(tables: string[]): Promise<void>;
  close(): Promise<void>;
}

async function mysqlInserter(db: BenchDatabase): Promise<Inserter> {
  const connect = () =>
    createConnection({
      uri: `${(db.mysqlServerUrl as string).replace(/^mariadb:/, 'mysql:')}/${db.mysqlDatabase}`,
      timezone: 'Z',
    });
  // Two connections: one inserts while the next batch is built and sent on the other.
  const conns: Connection[] = [await connect(), await connect()];
  for (const c of conns) await c.query('SET foreign_key_checks = 0');
  let turn = 0;
  let inFlight: Promise<unknown> = Promise.resolve();
  return {
    async insert(table, columns, rows, upsert) {
      const c = conns[turn++ % conns.length];
      const previous = inFlight;
      const onDuplicate = upsert ? ' ON DUPLICATE KEY UPDATE events = events + VALUES(events)' : '';
      inFlight = c.query(`INSERT INTO ${table} (${columns.join(', ')}) VALUES ?${onDuplicate}`, [rows]);
      await previous;
    },
    async analyze(tables) {
      await inFlight;
      await conns[0].query(`ANALYZE TABLE ${tables.join(', ')}`);
      await announceBulkChange(mysqlRun(conns[0]), 'mysql');
    },
    async close() {
      await inFlight;
      await Promise.all(conns.map((c) => c.end()));
    },
  };
}

function sqliteInserter(db: BenchDatabase): Inserter {
  const sqlite = new Database(db.sqlitePath, { timeout: 10_000 });
  sqlite.pragma('foreign_keys = OFF');
  const statements = new Map<string, Database.Statement>();
  return {
    insert(table, columns, rows, upsert) {
      const sql =
        `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})` +
        (upsert
          ? ` ON CONFLICT (${columns[0]}, ${columns[1]}) DO UPDATE SET events = events + excluded.events`
          : '');
      let statement = statements.get(sql);
      if (!statement) statements.set(sql, (statement = sqlite.prepare(sql)));
      const s = statement;
      sqlite.transaction(() =>
        rows.forEach((r) => s.run(...r.map((v) => (typeof v === 'boolean' ? Number(v) : v)))),
      )();
      return Promise.resolve();
    },
    async analyze() {
      sqlite.exec('ANALYZE');
      await announceBulkChange(sqliteRun(sqlite), 'sqlite');
    },
    close() {
      sqlite.close();
      return Promise.resolve();
    },
  };
}

/** Rows of one table in batches of BATCH, from `make(i)` for i in [0, count). */
async function fill(
  db: Inserter,
  table: string,
  columns: string[],
  count: number,
  make: (i: number) => unknown[] | unknown[][],
): Promise<void> {
  let rows: unknown[][] = [];
  for (let i = 0; i < count; i++) {
    const made = make(i);
    if (Array.isArray(made[0])) rows.push(...(made as unknown[][]));
    else rows.push(made);
    if (rows.length >= BATCH) {
      await db.insert(table, columns, rows);
      rows = [];
    }
  }
  if (rows.length) await db.insert(table, columns, rows);
}

export async function seedHistory(
  bench: BenchDatabase,
  target: HistoryTarget,
  size: HistorySize,
  log: (line: string) => void,
): Promise<SeededHistory> {
  const t0 = Date.now();
  const db = bench.dialect === 'mysql' ? await mysqlInserter(bench) : sqliteInserter(bench);
  const { tag, now } = target;
  const start = now.getTime() - YEAR_MS;
  /** The time of item i of n, spread evenly over the year (the newest a minute before now). */
  const at = (i: number, n: number) => new Date(start + Math.floor(((YEAR_MS - 60_000) * i) / n));
  const step = async (label: string, work: () => Promise<void>) => {
    const started = Date.now();
    await work();
    log(`  ${label} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  };
  try {
    const workspaceIds = Array.from({ length: size.workspaces }, (_, i) => countingId('ws', tag, i));
    const workspaceNames = workspaceIds.map((_, i) => `history-${tag}-${String(i).padStart(5, '0')}`);
    const created = sqlTime(at(0, 1));
    await step(`${size.workspaces} workspaces`, () =>
      fill(
        db,
        'workspaces',
        [
          'id',
          'organization_id',
          'project_id',
          'name',
          'description',
          'engine_version',
          'created_at',
          'updated_at',
        ],
        size.workspaces,
        (i) => [
          workspaceIds[i],
          target.organizationId,
          target.projectId,
          workspaceNames[i],
          null,
          '1.9.5',
          created,
          created,
        ],
      ),
    );
    const runId = (i: number) => countingId('run', tag, i);
    const runStatus = (i: number) => RUN_ENDS[Math.floor(i / size.workspaces) % RUN_ENDS.length];
    await step(`${size.runs} runs`, () =>
      fill(
        db,
        'runs',
        [
          'id',
          'workspace_id',
          'configuration_version_id',
          'status',
          'status_timestamps',
          'message',
          'source',
          'trigger_reason',
          'plan_id',
          'apply_id',
          'has_changes',
          'created_at',
          'updated_at',
        ],
        size.runs,
        (i) => {
          const t = at(i, size.runs);
          const status = runStatus(i);
          const iso = t.toISOString().replace('Z', '+00:00');
          return [
            runId(i),
            workspaceIds[i % size.workspaces],
            countingId('cv', tag, i),
            status,
            `{"plan-queueable-at":"${iso}","${status.replace(/_/g, '-')}-at":"${iso}"}`,
            'Queued manually',
            'tfe-api',
            'manual',
            countingId('plan', tag, i),
            countingId('apply', tag, i),
            status !== 'planned_and_finished',
            sqlTime(t),
            sqlTime(t),
          ];
        },
      ),
    );
    await step(`${size.runs * 2} plans and applies`, () =>
      fill(
        db,
        'run_phases',
        [
          'id',
          'run_id',
          'kind',
          'status',
          'status_timestamps',
          'has_changes',
          'resource_additions',
          'created_at',
          'updated_at',
        ],
        size.runs,
        (i) => {
          const t = sqlTime(at(i, size.runs));
          const applied = runStatus(i) === 'applied';
          const ts = '{"queued-at":"x","started-at":"x","finished-at":"x"}'.replace(
            /x/g,
            at(i, size.runs).toISOString(),
          );
          return [
            [
              countingId('plan', tag, i),
              runId(i),
              'plan',
              runStatus(i) === 'errored' ? 'errored' : 'finished',
              ts,
              true,
              3,
              t,
              t,
            ],
            [
              countingId('apply', tag, i),
              runId(i),
              'apply',
              applied ? 'finished' : 'canceled',
              applied ? ts : '{}',
              null,
              0,
              t,
              t,
            ],
          ];
        },
      ),
    );
    await step(`${size.runs * 2} executor jobs`, () =>
      fill(
        db,
        'run_jobs',
        [
          'id',
          'phase_id',
          'run_id',
          'kind',
          'status',
          'organization_id',
          'claimed_at',
          'heartbeat_at',
          'finished_at',
          'created_at',
        ],
        size.runs,
        (i) => {
          const t = sqlTime(at(i, size.runs));
          const row = (kind: string, phase: string, n: number) => [
            countingId('job', tag, 2 * i + n),
            phase,
            runId(i),
            kind,
            'finished',
            target.organizationId,
            t,
            t,
            t,
            t,
          ];
          return [row('plan', countingId('plan', tag, i), 0), row('apply', countingId('apply', tag, i), 1)];
        },
      ),
    );
    const commentedRuns = size.commentedRuns || size.runs;
    await step(`${size.comments} comments`, () =>
      fill(
        db,
        'run_comments',
        ['id', 'run_id', 'body', 'action', 'created_by_id', 'created_at'],
        size.comments,
        (i) => [
          countingId('wsc', tag, i),
          runId(i % commentedRuns),
          `Comment ${i}: looks right to me, applying after the change window.`,
          null,
          null,
          sqlTime(at(i, size.comments)),
        ],
      ),
    );
    await step(`${size.stateVersions} state versions`, () =>
      fill(
        db,
        'state_versions',
        [
          'id',
          'workspace_id',
          'status',
          'serial',
          'lineage',
          'md5',
          'size',
          'state_format',
          'terraform_version',
          'resource_count',
          'resources_processed',
          'created_at',
          'updated_at',
        ],
        size.stateVersions,
        (i) => {
          const t = sqlTime(at(i, size.stateVersions));
          return [
            countingId('sv', tag, i),
            workspaceIds[i % size.workspaces],
            'finalized',
            Math.floor(i / size.workspaces) + 1,
            `lineage-${tag}-${i % size.workspaces}`,
            '0123456789abcdef0123456789abcdef',
            2048,
            4,
            '1.9.5',
            3,
            true,
            t,
            t,
          ];
        },
      ),
    );
    const auditActions: [string, string, string, string][] = [
      ['POST', '/api/v2/workspaces/:id/runs', 'runs', 'create'],
      ['POST', '/api/v2/runs/:id/actions/apply', 'runs', 'apply'],
      ['PATCH', '/api/v2/workspaces/:id', 'workspaces', 'update'],
      ['POST', '/api/v2/runs/:id/comments', 'comments', 'create'],
    ];
    await step(`${size.auditEvents} audit events`, () =>
      fill(
        db,
        'audit_events',
        [
          'id',
          'occurred_at',
          'organization_id',
          'actor_type',
          'actor_id',
          'actor_name',
          'client_address',
          'method',
          'route',
          'resource_type',
          'resource_id',
          'action',
          'status',
          'outcome',
        ],
        size.auditEvents,
        (i) => {
          const [method, route, type, action] = auditActions[i % auditActions.length];
          return [
            countingUuid(tag, i),
            sqlTime(at(i, size.auditEvents)),
            target.organizationId,
            'user',
            'user-benchhistory0001',
            'bench',
            '10.0.0.7',
            method,
            route,
            type,
            runId(i % size.runs),
            action,
            200,
            'success',
          ];
        },
      ),
    );
    // As the server counts them (audit-counts.ts): per organization and UTC hour, and per UTC day.
    await step("the audit trail's hourly and daily counts", async () => {
      for (const [table, column, periodMs] of [
        ['audit_event_counts', 'hour_start', HOUR_MS],
        ['audit_event_day_counts', 'day_start', DAY_MS],
      ] as const) {
        const periods = new Map<string, number>();
        for (let i = 0; i < size.auditEvents; i++) {
          const start = sqlTime(
            new Date(Math.floor(at(i, size.auditEvents).getTime() / periodMs) * periodMs),
          );
          periods.set(start, (periods.get(start) ?? 0) + 1);
        }
        const rows = [...periods].map(([start, n]) => [target.organizationId, start, n]);
        for (let i = 0; i < rows.length; i += BATCH) {
          await db.insert(table, ['organization_id', column, 'events'], rows.slice(i, i + BATCH), true);
        }
      }
    });
    await step('table statistics', () =>
      db.analyze([
        'workspaces',
        'runs',
        'run_phases',
        'run_jobs',
        'run_comments',
        'state_versions',
        'audit_events',
      ]),
    );
    return {
      workspaceIds,
      workspaceNames,
      runIds: Array.from({ length: Math.min(size.runs, 100) }, (_, i) => runId(i)),
      seconds: (Date.now() - t0) / 1000,
    };
  } finally {
    await db.close();
  }
}
