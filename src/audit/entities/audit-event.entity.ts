import { Column, Entity, Index, PrimaryColumn, ValueTransformer } from 'typeorm';

export type AuditActorType = 'user' | 'team' | 'organization' | 'agent' | 'anonymous';
export type AuditOutcome = 'success' | 'failure';

/** No organization is '' in the table (a primary key column is never NULL), null in the entity. */
const NO_ORGANIZATION: ValueTransformer = {
  to: (value: string | null | undefined) => value ?? '',
  from: (stored: string | null) => (stored === '' || stored === null ? null : stored),
};

/**
 * One write request as the audit trail keeps it: who, what, when, from where and how it ended.
 * Never a body, a query string or a secret: only the route template, the ids it named, the status
 * and, for a coded refusal, its code.
 *
 * The rows are kept in the order the trail is read in, by organization and time (the primary key
 * on MySQL/MariaDB is the clustered index): a page of 100 events is one range of the table
 * instead of 100 lookups by id scattered over a table of millions.
 */
@Entity('audit_events')
// Time then id: the order of the whole installation's trail (site administrators) and of pruning.
@Index('ix_audit_events_occurred_at', ['occurredAt', 'id'])
@Index('ux_audit_events_id', ['id'], { unique: true })
export class AuditEventEntity {
  /** Internal id of the organization the request acted in, when it acted in one as a member. */
  @PrimaryColumn({ type: 'varchar', length: 32, default: '', transformer: NO_ORGANIZATION })
  organizationId: string | null;

  @PrimaryColumn({ type: 'datetime', precision: 3 })
  occurredAt: Date;

  /** A UUID, as the real service's audit trail has. */
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  @Column({ type: 'varchar', length: 16 })
  actorType: AuditActorType;

  /** The user, team, organization or agent behind the token; null for unauthenticated requests. */
  @Column({ type: 'varchar', length: 32, nullable: true })
  actorId: string | null;

  /** The username (users) or the agent's name at the time, so the trail reads after they are gone. */
  @Column({ type: 'varchar', length: 64, nullable: true })
  actorName: string | null;

  @Column({ type: 'varchar', length: 32, nullable: true })
  tokenId: string | null;

  /** The client address as trusted (`TRUST_PROXY` decides whether forwarded headers count). */
  @Column({ type: 'varchar', length: 64, nullable: true })
  clientAddress: string | null;

  @Column({ type: 'varchar', length: 64, nullable: true })
  requestId: string | null;

  @Column({ type: 'varchar', length: 8 })
  method: string;

  /** The route template (`/api/v2/workspaces/:id`), never the concrete path or its query. */
  @Column({ type: 'varchar', length: 255 })
  route: string;

  @Column({ type: 'varchar', length: 64 })
  resourceType: string;

  @Column({ type: 'varchar', length: 64, nullable: true })
  resourceId: string | null;

  @Column({ type: 'varchar', length: 64 })
  action: string;

  @Column({ type: 'int' })
  status: number;

  @Column({ type: 'varchar', length: 16 })
  outcome: AuditOutcome;

  /** The refusal's code when the answer was a coded one (`NAME_TAKEN`, common/errors); else null. */
  @Column({ type: 'varchar', length: 64, nullable: true })
  errorCode: string | null;
}
