import { applyDecorators, Controller, Get, Header } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import { API_V2 } from '../common/api-prefix';
import { CurrentPrincipal } from '../common/auth/current-principal.decorator';
import { Principal } from '../common/auth/principal';
import { ApiErrors } from '../common/jsonapi/openapi';
import { QueryValue } from '../common/jsonapi/query';
import { AUDIT_TRAIL_SCHEMA } from './audit.openapi';
import { Sortable } from '../common/jsonapi/sort';
import { AUDIT_SORT, parseAuditPage, parseSince } from './audit-query';
import { AuditService } from './audit.service';

const QUERIES = [
  ApiQuery({ name: 'since', required: false, description: 'ISO 8601: only events after this instant' }),
  ApiQuery({ name: 'filter[organization]', required: false, description: 'an organization name' }),
  ApiQuery({ name: 'page[number]', required: false, type: Number, description: 'default 1' }),
  ApiQuery({ name: 'page[size]', required: false, type: Number, description: '1–1000, default 1000' }),
];

function ApiAuditTrail(summary: string): MethodDecorator {
  return applyDecorators(
    // Events arrive without a write of their own (batched), so no cache may keep an answer.
    Header('Cache-Control', 'no-store'),
    ApiOperation({ summary }),
    ...QUERIES,
    Sortable(AUDIT_SORT, 'timestamp, oldest first'),
    ApiResponse({
      status: 200,
      description: 'Events, oldest first unless `sort` says otherwise',
      schema: AUDIT_TRAIL_SCHEMA,
    }),
    ApiErrors(400, 401, 404, 422),
  );
}

/** The audit trail: the real service's route and shape (plain JSON, not JSON:API). */
@ApiTags('audit trail')
@ApiBearerAuth()
@Controller(API_V2)
export class AuditController {
  constructor(private readonly audit: AuditService) {}

  @Get('organization/audit-trail')
  @ApiAuditTrail(
    "An organization's write events: organization tokens and owners-team tokens read their own; users name an organization they own; site administrators naming none read everything",
  )
  organizationTrail(
    @CurrentPrincipal() p: Principal,
    @QueryValue('filter[organization]') org?: string,
    @QueryValue('since') since?: string,
    @QueryValue('page[number]') number?: string,
    @QueryValue('page[size]') size?: string,
    @QueryValue('sort') sort?: string,
  ): Promise<Record<string, unknown>> {
    const page = parseAuditPage(number, size, sort);
    return this.audit.organizationTrail(p, org || undefined, page, parseSince(since));
  }

  @Get('admin/audit-trail')
  @ApiAuditTrail('Every write event of the installation, for site administrators')
  installationTrail(
    @CurrentPrincipal() p: Principal,
    @QueryValue('filter[organization]') org?: string,
    @QueryValue('since') since?: string,
    @QueryValue('page[number]') number?: string,
    @QueryValue('page[size]') size?: string,
    @QueryValue('sort') sort?: string,
  ): Promise<Record<string, unknown>> {
    const page = parseAuditPage(number, size, sort);
    return this.audit.installationTrail(p, org || undefined, page, parseSince(since));
  }
}
