import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { API_V2 } from '../common/api-prefix';
import { CurrentPrincipal } from '../common/auth/current-principal.decorator';
import { Principal } from '../common/auth/principal';
import { CollectionDocument, ResourceDocument } from '../common/jsonapi/document';
import { badRequest } from '../common/errors/domain-error';
import { int, ResourceDoc, str, timestamp } from '../common/jsonapi/openapi';
import { PageParams } from '../common/jsonapi/pagination';
import { Includes, Paging, QueryValue, refuseUnknownFilters } from '../common/jsonapi/query';
import { LinkOrigin } from '../storage/link-origin.decorator';
import { Sortable } from '../common/jsonapi/sort';
import { pageResult } from '../common/sql/paginate';
import { MAX_WORKSPACE_NAMES, OrganizationRunsService } from './organization-runs.service';
import { RUN_INCLUDED_DOCS, STATUS_FILTER_DOC, statusFilter } from './runs.controller';
import { RUN_INCLUDES, RunsPresenter } from './runs.presenter';
import { RUN_DOC } from './runs.serializer';
import { Endpoint } from '../http/endpoint';

const CAPACITY_DOC: ResourceDoc = {
  type: 'organization-capacity',
  attributes: {
    pending: int('Runs waiting for an executor to claim their plan or apply'),
    running: int('Runs an executor is planning, checking against policies or applying'),
  },
  links: [],
};

const RUN_EVENT_DOC: ResourceDoc = {
  type: 'run-events',
  attributes: { action: str(), description: str(), 'created-at': timestamp() },
  relationships: { actor: { type: 'users' } },
  links: [],
};

const LIST_FILTERS = [/^filter\[status\]$/, /^filter\[workspace_names\]$/];

/** `filter[workspace_names]`: a comma list of workspace names. */
function workspaceNames(raw: string | undefined): string[] | undefined {
  if (raw === undefined || raw.trim() === '') return undefined;
  const names = [...new Set(raw.split(',').map((n) => n.trim()))].filter((n) => n !== '');
  if (names.length > MAX_WORKSPACE_NAMES) {
    throw badRequest(
      `filter[workspace_names] names at most ${MAX_WORKSPACE_NAMES} workspaces`,
      'filter[workspace_names]',
    );
  }
  return names;
}

@ApiTags('runs')
@ApiBearerAuth()
@Controller(API_V2)
export class OrganizationRunsController {
  constructor(
    private readonly service: OrganizationRunsService,
    private readonly presenter: RunsPresenter,
  ) {}

  @Get('organizations/:org/runs')
  @ApiOperation({
    summary: "The organization's runs, newest first",
    description:
      'Over the workspaces the caller may read; 404 for a non-member. Any other `filter[…]` is a 400.',
  })
  @Sortable({ 'created-at': 'createdAt' }, '-created-at')
  @Endpoint({
    list: [
      RUN_DOC,
      {
        includes: RUN_INCLUDES,
        includedDocs: RUN_INCLUDED_DOCS,
        query: {
          ...STATUS_FILTER_DOC,
          'filter[workspace_names]': `comma list of workspace names (at most ${MAX_WORKSPACE_NAMES})`,
        },
      },
    ],
  })
  async list(
    @CurrentPrincipal() p: Principal,
    @Param('org') org: string,
    @Paging() paging: PageParams,
    @Includes(RUN_INCLUDES) includes: string[],
    @LinkOrigin() origin: string,
    @Query() query: Record<string, unknown>,
    @QueryValue('filter[status]') status?: string,
    @QueryValue('filter[workspace_names]') names?: string,
  ): Promise<CollectionDocument> {
    refuseUnknownFilters(query, LIST_FILTERS);
    const page = await this.service.list(
      p,
      org,
      { statuses: statusFilter(status), workspaceNames: workspaceNames(names) },
      paging,
    );
    return new CollectionDocument(
      await this.presenter.resources(p, page.items),
      pageResult(page),
      await this.presenter.included(p, page.items, includes, origin),
    );
  }

  @Get('organizations/:org/runs/queue')
  @ApiOperation({
    summary: "The organization's runs that still hold their workspace's queue, oldest first",
    description: 'Only runs of workspaces the caller may read; 404 for a non-member.',
  })
  @Sortable({ 'created-at': 'createdAt' }, 'created-at')
  @Endpoint({ list: [RUN_DOC] })
  async queue(
    @CurrentPrincipal() p: Principal,
    @Param('org') org: string,
    @Paging() paging: PageParams,
  ): Promise<CollectionDocument> {
    const page = await this.service.queue(p, org, paging);
    return new CollectionDocument(await this.presenter.resources(p, page.items), pageResult(page));
  }

  @Get('organizations/:org/capacity')
  @ApiOperation({
    summary: 'How many runs wait for an executor and how many are being worked on',
    description: 'Counted over the workspaces the caller may read; 404 for a non-member.',
  })
  @Endpoint({ show: [CAPACITY_DOC] })
  async capacity(@CurrentPrincipal() p: Principal, @Param('org') org: string): Promise<ResourceDocument> {
    const c = await this.service.capacity(p, org);
    return new ResourceDocument({
      id: c.organizationName,
      type: 'organization-capacity',
      attributes: { pending: c.pending, running: c.running },
    });
  }

  @Get('runs/:id/run-events')
  @ApiOperation({
    summary: "A run's events: always empty (the run's status timestamps and comments carry its history)",
  })
  @Sortable({ 'created-at': 'createdAt' }, 'created-at')
  @Endpoint({ list: [RUN_EVENT_DOC] })
  async events(
    @CurrentPrincipal() p: Principal,
    @Param('id') id: string,
    @Paging() paging: PageParams,
  ): Promise<CollectionDocument> {
    return new CollectionDocument([], pageResult(await this.service.events(p, id, paging)));
  }
}
