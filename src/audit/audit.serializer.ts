import { PageResult } from '../common/jsonapi/document';
import { paginationMeta } from '../common/jsonapi/pagination';
import { AuditEventEntity } from './entities/audit-event.entity';

/**
 * The real service's audit trail shape (not JSON:API: `data` and `pagination` with snake_case
 * keys), with what it leaves out added where a reader of that shape looks: the accessor's kind, the
 * route, the client address, the outcome and a coded refusal's code in `request`.
 */
export function serializeAuditTrail(
  events: AuditEventEntity[],
  page: PageResult,
  organizationNames: ReadonlyMap<string, string>,
): Record<string, unknown> {
  const name = (id: string | null) => (id === null ? null : (organizationNames.get(id) ?? id));
  const meta = paginationMeta(page);
  return {
    data: events.map((e) => ({
      id: e.id,
      version: '0',
      type: 'Resource',
      timestamp: e.occurredAt.toISOString(),
      auth: {
        accessor_id: e.actorType === 'organization' ? name(e.actorId) : e.actorId,
        accessor_type: e.actorType,
        description: e.actorName,
        type: e.actorType === 'anonymous' ? 'Anonymous' : 'Client',
        impersonator_id: null,
        organization_id: name(e.organizationId),
        token_id: e.tokenId,
      },
      request: {
        id: e.requestId,
        method: e.method,
        route: e.route,
        client_address: e.clientAddress,
        status: e.status,
        outcome: e.outcome,
        error_code: e.errorCode,
      },
      resource: { id: e.resourceId, type: e.resourceType, action: e.action, meta: null },
    })),
    pagination: {
      current_page: meta['current-page'],
      page_size: meta['page-size'],
      prev_page: meta['prev-page'],
      next_page: meta['next-page'],
      total_pages: meta['total-pages'],
      total_count: meta['total-count'],
    },
  };
}
