import { randomUUID } from 'node:crypto';
import { AuditEventEntity } from '../../src/audit/entities/audit-event.entity';

/** An answered PATCH of a workspace as the audit trail keeps it, at `at`, for inserting directly. */
export function auditEventAt(organizationId: string | null, at: number | Date): AuditEventEntity {
  return Object.assign(new AuditEventEntity(), {
    id: randomUUID(),
    occurredAt: new Date(at),
    organizationId,
    actorType: 'user' as const,
    actorId: null,
    actorName: 'someone',
    tokenId: null,
    clientAddress: '127.0.0.1',
    requestId: null,
    method: 'PATCH',
    route: '/api/v2/workspaces/:id',
    resourceType: 'workspaces',
    resourceId: null,
    action: 'update',
    status: 200,
    outcome: 'success' as const,
    errorCode: null,
  });
}
