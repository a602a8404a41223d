import { EntityManager, Repository } from 'typeorm';
import { readRowsWith } from '../persistence/pool-reads';
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
  events: Repository<AuditEventEntity>,
  organizationId: string | undefined,
  since: Date | undefined,
): Promise<number> {
  const edge = since ? new Date(hourOf(since).getTime() + HOUR_MS) : undefined;
  const hours = events.manager
    .getRepository(AuditEventCountEntity)
    .createQueryBuilder('c')
    .select('SUM(c.events)', 'n');
  if (organizationId !== undefined) hours.andWhere('c.organization_id = :organizationId', { organizationId });
  if (edge) hours.andWhere('c.hour_start >= :edge', { edge });
  const partial = async () => {
    if (!since || !edge) return 0;
    const qb = events
      .createQueryBuilder('e')
      .where('e.occurred_at > :since AND e.occurred_at < :edge', { since, edge });
    if (organizationId !== undefined) qb.andWhere('e.organization_id = :organizationId', { organizationId });
    return qb.getCount();
  };
  const [whole, part] = await Promise.all([hours.getRawOne<{ n: unknown }>(), partial()]);
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
