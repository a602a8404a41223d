import { DataSource, EntityManager } from 'typeorm';
import { timeOf } from '../common/sql/columns';
import { readRows, readRowsWith } from '../persistence/pool-reads';
import { AuditEventCountEntity } from './entities/audit-event-count.entity';
import { AuditEventEntity } from './entities/audit-event.entity';

const HOUR_MS = 3_600_000;

/** The start of the UTC hour `at` falls in. */
export function hourOf(at: Date): Date {
  return new Date(Math.floor(at.getTime() / HOUR_MS) * HOUR_MS);
}

type Counted = Pick<AuditEventEntity, 'organizationId' | 'occurredAt'>;

/** Events per (organization, hour), in one order so that concurrent writers lock rows alike. */
function grouped(events: Counted[]): { organizationId: string; hourStart: Date; events: number }[] {
  const groups = new Map<string, { organizationId: string; hourStart: Date; events: number }>();
  for (const e of events) {
    const hourStart = hourOf(e.occurredAt);
    const key = `${e.organizationId ?? ''}\u0000${hourStart.getTime()}`;
    const group = groups.get(key);
    if (group) group.events++;
    else groups.set(key, { organizationId: e.organizationId ?? '', hourStart, events: 1 });
  }
  return [...groups.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, g]) => g);
}

/**
 * Adds (`sign` 1) or takes away (`sign` -1) these events from their hours' counts, in the
 * transaction of `manager` that inserts or deletes them; hours left at nothing go.
 */
export async function applyCounts(manager: EntityManager, events: Counted[], sign: 1 | -1): Promise<void> {
  const metadata = manager.connection.getMetadata(AuditEventCountEntity);
  const hourColumn = metadata.findColumnWithPropertyName('hourStart')!;
  const hour = (d: Date): unknown => manager.connection.driver.preparePersistentValue(d, hourColumn);
  const sqlite = manager.connection.options.type === 'better-sqlite3';
  for (const g of grouped(events)) {
    if (sign > 0) {
      await manager.query(
        sqlite
          ? 'INSERT INTO audit_event_counts (organization_id, hour_start, events) VALUES (?, ?, ?)' +
              ' ON CONFLICT (organization_id, hour_start) DO UPDATE SET events = events + excluded.events'
          : 'INSERT INTO audit_event_counts (organization_id, hour_start, events) VALUES (?, ?, ?)' +
              ' ON DUPLICATE KEY UPDATE events = events + VALUES(events)',
        [g.organizationId, hour(g.hourStart), g.events],
      );
    } else {
      const key = [g.organizationId, hour(g.hourStart)];
      await manager.query(
        'UPDATE audit_event_counts SET events = events - ? WHERE organization_id = ? AND hour_start = ?',
        [g.events, ...key],
      );
      await manager.query(
        'DELETE FROM audit_event_counts WHERE organization_id = ? AND hour_start = ? AND events <= 0',
        key,
      );
    }
  }
}

/**
 * The events of an organization (or of all, `organizationId` undefined) after `since` (or all):
 * the hours wholly after it from their counts, the rest of its own hour row by row. Reads at most
 * an hour of events however long the trail is.
 */
export async function countSince(
  ds: DataSource,
  organizationId: string | undefined,
  since: Date | undefined,
): Promise<number> {
  const edge = since ? new Date(hourOf(since).getTime() + HOUR_MS) : undefined;
  const hourConditions: string[] = [];
  const hourParams: unknown[] = [];
  if (organizationId !== undefined) {
    hourConditions.push('organization_id = ?');
    hourParams.push(organizationId);
  }
  if (edge) {
    hourConditions.push('hour_start >= ?');
    hourParams.push(timeOf(ds, AuditEventCountEntity, 'hourStart', edge));
  }
  const hours = readRows<{ n: unknown }>(
    ds,
    'SELECT SUM(events) AS n FROM audit_event_counts' +
      (hourConditions.length ? ` WHERE ${hourConditions.join(' AND ')}` : ''),
    hourParams,
  );
  const partial = async () => {
    if (!since || !edge) return 0;
    const at = (d: Date) => timeOf(ds, AuditEventEntity, 'occurredAt', d);
    const [row] = await readRows<{ n: unknown }>(
      ds,
      'SELECT COUNT(*) AS n FROM audit_events WHERE occurred_at > ? AND occurred_at < ?' +
        (organizationId !== undefined ? ' AND organization_id = ?' : ''),
      organizationId !== undefined ? [at(since), at(edge), organizationId] : [at(since), at(edge)],
    );
    return Number(row?.n ?? 0);
  };
  const [[whole], part] = await Promise.all([hours, partial()]);
  return Number(whole?.n ?? 0) + part;
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
