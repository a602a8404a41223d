import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * How many audit events an organization has in one UTC day, kept beside the hourly counts
 * (audit-event-count.entity.ts) in the same transactions: a total `since` a date two months back
 * sums about 60 of these instead of 1,440 hours.
 */
@Entity('audit_event_day_counts')
@Index('ix_audit_event_day_counts_day', ['dayStart'])
export class AuditEventDayCountEntity {
  /** The events' organization id; '' for events of no organization. */
  @PrimaryColumn({ type: 'varchar', length: 32 })
  organizationId: string;

  @PrimaryColumn({ type: 'datetime', precision: 3 })
  dayStart: Date;

  @Column({ type: 'int' })
  events: number;
}
