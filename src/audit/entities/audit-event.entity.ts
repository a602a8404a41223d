import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { TimestampColumn } from '../../common/sql/columns';

export type AuditActorType = 'user' | 'team' | 'organization' | 'agent' | 'anonymous';
export type AuditOutcome = 'success' | 'failure';

/**
 * One write request as the audit trail keeps it: who, what, when, from where and how it ended.
 * Never a body, a query string or a secret: only the route template, the ids it named, the status
 * and, for a coded refusal, its code.
 */
@Entity('audit_events')
@Index('ix_audit_events_occurred_at', ['occurredAt'])
@Index('ix_audit_events_organization', ['organizationId', 'occurredAt'])
export class AuditEventEntity {
  /** A UUID, as the real service's audit trail has. */
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  @TimestampColumn()
  occurredAt: Date;

  /** Internal id of the organization the request acted in, when it acted in one as a member. */
  @Column({ type: 'varchar', length: 32, nullable: true })
  organizationId: string | null;

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
