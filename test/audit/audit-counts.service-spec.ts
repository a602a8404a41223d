import { MigrationInterface } from 'typeorm';
import { countSince } from '../../src/audit/audit-counts';
import { AuditRepository } from '../../src/audit/audit.repository';
import { AuditEventEntity } from '../../src/audit/entities/audit-event.entity';
import { AuditEventDayCounts1795838985219 } from '../../src/persistence/migrations/mysql/1795838985219-AuditEventDayCounts';
import { AuditEventDayCounts1795838928156 } from '../../src/persistence/migrations/sqlite/1795838928156-AuditEventDayCounts';
import { auditEventAt } from '../helpers/audit-events';
import { ServiceApp, startServices } from '../helpers/service-app';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** A midnight (UTC) two days back, so every seeded event is in the past and inside the retention. */
const BASE = Math.floor(Date.now() / DAY) * DAY - 2 * DAY;
const ORGS = ['org-counts-a', 'org-counts-b', null] as const;

/** A small deterministic generator (mulberry32): the same instants on every run and dialect. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Midnights and hours of the seeded span, each itself and a millisecond either side. */
function edges(): number[] {
  const out: number[] = [];
  for (let t = BASE - HOUR; t <= BASE + 2 * DAY + HOUR; t += HOUR) out.push(t - 1, t, t + 1);
  return out;
}

const event = auditEventAt;

describe('the audit trail’s total from its daily and hourly counts', () => {
  let app: ServiceApp;
  let repo: AuditRepository;
  const next = random(41);

  beforeAll(async () => {
    app = await startServices({ AUDIT_RETENTION_DAYS: '30' });
    repo = app.get(AuditRepository);
    const times = [
      ...edges().filter((t) => t >= BASE && t < BASE + 2 * DAY),
      ...Array.from({ length: 1_500 }, () => BASE + Math.floor(next() * 2 * DAY)),
    ];
    // A few events share an instant, as a batch of requests in one millisecond does.
    times.push(BASE + 5 * HOUR + 123, BASE + 5 * HOUR + 123, BASE + DAY, BASE + DAY);
    await repo.insertMany(times.map((t, i) => event(ORGS[i % ORGS.length], t)));
  });
  afterAll(() => app.close());

  /** What a COUNT(*) over the events says. */
  const counted = async (organizationId: string | undefined, since: Date | undefined) => {
    const where: string[] = [];
    const params: unknown[] = [];
    if (organizationId !== undefined) {
      where.push('organization_id = ?');
      params.push(organizationId);
    }
    if (since) {
      where.push('occurred_at > ?');
      params.push(app.ds.driver.preparePersistentValue(since, occurredAt()));
    }
    const [row] = await app.ds.query<{ n: unknown }[]>(
      `SELECT COUNT(*) AS n FROM audit_events${where.length ? ` WHERE ${where.join(' AND ')}` : ''}`,
      params,
    );
    return Number(row.n);
  };
  const occurredAt = () => app.ds.getMetadata(AuditEventEntity).findColumnWithPropertyName('occurredAt')!;

  /** Every since of `sinces` for each organization and for all of them: [since, total, count] that differ. */
  const mismatches = async (sinces: (Date | undefined)[]) => {
    const wrong: unknown[] = [];
    for (const organizationId of ['org-counts-a', 'org-counts-b', undefined]) {
      for (const since of sinces) {
        const [total, count] = await Promise.all([
          countSince(app.ds, organizationId, since),
          counted(organizationId, since),
        ]);
        if (total !== count) wrong.push({ organizationId, since: since?.toISOString(), total, count });
      }
    }
    return wrong;
  };

  const sinces = () => [
    undefined,
    ...edges().map((t) => new Date(t)),
    new Date(BASE + 5 * HOUR + 122),
    new Date(BASE + 5 * HOUR + 123),
    ...Array.from({ length: 150 }, () => new Date(BASE - HOUR + Math.floor(next() * (2 * DAY + 2 * HOUR)))),
  ];

  it('equals a COUNT of the events after since at random instants and on every hour and midnight', async () => {
    expect(await counted(undefined, undefined)).toBeGreaterThan(1_500);
    expect(await mismatches(sinces())).toEqual([]);
  });

  /** The day counts kept, and the sums of the hour counts per organization and day. */
  const days = async () =>
    (
      await app.ds.query<{ organization_id: string; day_start: Date | string; events: unknown }[]>(
        'SELECT organization_id, day_start, events FROM audit_event_day_counts ORDER BY organization_id, day_start',
      )
    ).map((r) => ({
      organization: r.organization_id,
      day: new Date(
        r.day_start instanceof Date ? r.day_start : `${r.day_start.replace(' ', 'T')}Z`,
      ).toISOString(),
      events: Number(r.events),
    }));
  const daysFromHours = async () => {
    const hours = await app.ds.query<
      { organization_id: string; hour_start: Date | string; events: unknown }[]
    >('SELECT organization_id, hour_start, events FROM audit_event_counts');
    const sums = new Map<string, number>();
    for (const h of hours) {
      const hour =
        h.hour_start instanceof Date ? h.hour_start : new Date(`${h.hour_start.replace(' ', 'T')}Z`);
      const day = new Date(Math.floor(hour.getTime() / DAY) * DAY).toISOString();
      const key = `${h.organization_id}|${day}`;
      sums.set(key, (sums.get(key) ?? 0) + Number(h.events));
    }
    return [...sums]
      .map(([key, events]) => {
        const [organization, day] = key.split('|');
        return { organization, day, events };
      })
      .sort((a, b) => (a.organization + a.day < b.organization + b.day ? -1 : 1));
  };

  it('has each day count equal to the sum of its hours, and the migration fills the days from the hours', async () => {
    const expected = await daysFromHours();
    const kept = await days();
    expect(kept.length).toBeGreaterThan(3);
    expect(kept).toEqual(expected);

    const migration: MigrationInterface =
      app.ds.options.type === 'better-sqlite3'
        ? new AuditEventDayCounts1795838928156()
        : new AuditEventDayCounts1795838985219();
    const runner = app.ds.createQueryRunner();
    try {
      await runner.query('DROP TABLE audit_event_day_counts');
      await migration.up(runner);
    } finally {
      await runner.release();
    }
    expect(await days()).toEqual(expected);
    expect(await mismatches(sinces())).toEqual([]);
  });

  it('stays exact after prunes that end inside an hour and on a midnight, and keeps no empty counts', async () => {
    expect(await repo.pruneBefore(new Date(BASE + 7 * HOUR + 1_234_567), 0)).toBeGreaterThan(0);
    expect(await mismatches(sinces())).toEqual([]);
    expect(await repo.pruneBefore(new Date(BASE + DAY), 0)).toBeGreaterThan(0);
    expect(await mismatches(sinces())).toEqual([]);
    const [empty] = await app.ds.query<{ n: unknown }[]>(
      'SELECT (SELECT COUNT(*) FROM audit_event_counts WHERE events <= 0)' +
        ' + (SELECT COUNT(*) FROM audit_event_day_counts WHERE events <= 0) AS n',
    );
    expect(Number(empty.n)).toBe(0);
    expect(await days()).toEqual(await daysFromHours());
  });
});
