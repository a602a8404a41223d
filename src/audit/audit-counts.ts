import { DataSource, EntityManager, ObjectType } from 'typeorm';
import { timeOf } from '../common/sql/columns';
import { readRows, readRowsWith } from '../persistence/pool-reads';
import { AuditEventCountEntity } from './entities/audit-event-count.entity';
import { AuditEventDayCountEntity } from './entities/audit-event-day-count.entity';
import { AuditEventEntity } from './entities/audit-event.entity';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** The start of the UTC hour `at` falls in. */
export function hourOf(at: Date): Date {
  return new Date(Math.floor(at.getTime() / HOUR_MS) * HOUR_MS);
}

type Counted = Pick<AuditEventEntity, 'organizationId' | 'occurredAt'>;

interface Group {
  organizationId: string;
  start: Date;
  events: number;
}

/** Events per (organization, period of `periodMs`), in one order so that concurrent writers lock rows alike. */
function grouped(events: Counted[], periodMs: number): Group[] {
  const groups = new Map<string, Group>();
  for (const e of events) {
    const start = new Date(Math.floor(e.occurredAt.getTime() / periodMs) * periodMs);
    const key = `${e.organizationId ?? ''}\u0000${start.getTime()}`;
    const group = groups.get(key);
    if (group) group.events++;
    else groups.set(key, { organizationId: e.organizationId ?? '', start, events: 1 });
  }
  return [...groups.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, g]) => g);
}

/** The two counts kept of the events: per hour and per day, each per organization. */
const COUNTS: {
  table: string;
  column: string;
  entity: ObjectType<unknown>;
  property: string;
  periodMs: number;
}[] = [
  {
    table: 'audit_event_counts',
    column: 'hour_start',
    entity: AuditEventCountEntity,
    property: 'hourStart',
    periodMs: HOUR_MS,
  },
  {
    table: 'audit_event_day_counts',
    column: 'day_start',
    entity: AuditEventDayCountEntity,
    property: 'dayStart',
    periodMs: DAY_MS,
  },
];

/**
 * Adds (`sign` 1) or takes away (`sign` -1) these events from their hours' and days' counts, in
 * the transaction of `manager` that inserts or deletes them; hours and days left at nothing go.
 * The hours' rows are locked before the days' in every transaction, each in one order.
 */
export async function applyCounts(manager: EntityManager, events: Counted[], sign: 1 | -1): Promise<void> {
  const sqlite = manager.connection.options.type === 'better-sqlite3';
  for (const { table, column, entity, property, periodMs } of COUNTS) {
    const start = (d: Date): unknown => timeOf(manager.connection, entity, property, d);
    for (const g of grouped(events, periodMs)) {
      if (sign > 0) {
        await manager.query(
          `INSERT INTO ${table} (organization_id, ${column}, events) VALUES (?, ?, ?)` +
            (sqlite
              ? ` ON CONFLICT (organization_id, ${column}) DO UPDATE SET events = events + excluded.events`
              : ' ON DUPLICATE KEY UPDATE events = events + VALUES(events)'),
          [g.organizationId, start(g.start), g.events],
        );
      } else {
        const key = [g.organizationId, start(g.start)];
        await manager.query(
          `UPDATE ${table} SET events = events - ? WHERE organization_id = ? AND ${column} = ?`,
          [g.events, ...key],
        );
        await manager.query(
          `DELETE FROM ${table} WHERE organization_id = ? AND ${column} = ? AND events <= 0`,
          key,
        );
      }
    }
  }
}

/**
 * How a total `since` an instant is read: the days from `daysFrom` on from their counts, the hours
 * in [`hoursFrom`, `daysFrom`) from theirs (at most 23), and the events of `since`'s own hour row
 * by row from whichever half of it `since` leaves the fewer of: in its second half (`add`), those
 * after `since` and before `hoursFrom`, the next hour; in its first half (`subtract`), where
 * `hoursFrom` is its own hour, whose count includes them all, those from `hoursFrom` up to and
 * including `since`, taken away.
 */
export interface CountPlan {
  daysFrom: Date;
  hoursFrom: Date;
  partial: 'add' | 'subtract';
}

export function countPlan(since: Date): CountPlan {
  const hour = hourOf(since);
  const subtract = since.getTime() - hour.getTime() < HOUR_MS / 2;
  const hoursFrom = subtract ? hour : new Date(hour.getTime() + HOUR_MS);
  const daysFrom = new Date(Math.ceil(hoursFrom.getTime() / DAY_MS) * DAY_MS);
  return { daysFrom, hoursFrom, partial: subtract ? 'subtract' : 'add' };
}

/**
 * The events of an organization (or of all, `organizationId` undefined) after `since` (or all),
 * from the counts (countPlan) in one statement, so that its parts read one snapshot: about 60 day
 * rows, 23 hour rows and half an hour of events for a trail two months back, however long it is.
 */
export async function countSince(
  ds: DataSource,
  organizationId: string | undefined,
  since: Date | undefined,
): Promise<number> {
  const byOrg = organizationId !== undefined ? 'organization_id = ? AND ' : '';
  const org = organizationId !== undefined ? [organizationId] : [];
  const day = (d: Date) => timeOf(ds, AuditEventDayCountEntity, 'dayStart', d);
  if (!since) {
    const [row] = await readRows<{ n: unknown }>(
      ds,
      'SELECT COALESCE(SUM(events), 0) AS n FROM audit_event_day_counts' +
        (organizationId !== undefined ? ' WHERE organization_id = ?' : ''),
      org,
    );
    return Number(row?.n ?? 0);
  }
  const { daysFrom, hoursFrom, partial } = countPlan(since);
  const hour = (d: Date) => timeOf(ds, AuditEventCountEntity, 'hourStart', d);
  const at = (d: Date) => timeOf(ds, AuditEventEntity, 'occurredAt', d);
  const add = partial === 'add';
  const [row] = await readRows<{ n: unknown }>(
    ds,
    `SELECT (SELECT COALESCE(SUM(events), 0) FROM audit_event_day_counts WHERE ${byOrg}day_start >= ?)` +
      ` + (SELECT COALESCE(SUM(events), 0) FROM audit_event_counts WHERE ${byOrg}hour_start >= ? AND hour_start < ?)` +
      ` ${add ? '+' : '-'} (SELECT COUNT(*) FROM audit_events WHERE ${byOrg}` +
      `${add ? 'occurred_at > ? AND occurred_at < ?' : 'occurred_at >= ? AND occurred_at <= ?'}) AS n`,
    [
      ...org,
      day(daysFrom),
      ...org,
      hour(hoursFrom),
      hour(daysFrom),
      ...org,
      ...(add ? [at(since), at(hoursFrom)] : [at(hoursFrom), at(since)]),
    ],
  );
  return Number(row?.n ?? 0);
}

/**
 * Locks the events among `ids` that are still there and reads what their counts need: another
 * process pruning the same rows meanwhile waits, then finds them gone, and takes nothing away twice.
 */
export function lockForDelete(manager: EntityManager, ids: string[]): Promise<Counted[]> {
  const lock = manager.connection.options.type === 'better-sqlite3' ? '' : ' FOR UPDATE';
  return readRowsWith<{ organization_id: string | null; occurred_at: Date | string }>(
    manager,
    `SELECT id, organization_id, occurred_at FROM audit_events WHERE id IN (${ids.map(() => '?').join(', ')})${lock}`,
    ids,
  ).then((rows) =>
    rows.map((r) => ({
      organizationId: r.organization_id,
      occurredAt:
        r.occurred_at instanceof Date ? r.occurred_at : new Date(`${r.occurred_at.replace(' ', 'T')}Z`),
    })),
  );
}
