import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * How many audit events an organization has in one hour (UTC), kept with the events in the same
 * transactions that insert and prune them, so that the trail's total count `since` a date reads
 * at most an hour of events and one row per hour instead of every event since then.
 */
@Entity('audit_event_counts')
@Index('ix_audit_event_counts_hour', ['hourStart'])
export class AuditEventCountEntity {
  /** The events' organization id; '' for events of no organization. */
  @PrimaryColumn({ type: 'varchar', length: 32 })
  organizationId: string;

  @PrimaryColumn({ type: 'datetime', precision: 3 })
  hourStart: Date;

  @Column({ type: 'int' })
  events: number;
}
