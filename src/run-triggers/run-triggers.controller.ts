import { Controller, Delete, Get, Param, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiParam, ApiQuery, ApiTags } from '@nestjs/swagger';
import { API_V2 } from '../common/api-prefix';
import { CurrentPrincipal } from '../common/auth/current-principal.decorator';
import { Principal } from '../common/auth/principal';
import { pageResult } from '../common/sql/paginate';
import { badRequest } from '../common/errors/domain-error';
import { JsonApiBody, ParsedBody } from '../common/jsonapi/body';
import { CollectionDocument, ResourceDocument } from '../common/jsonapi/document';
import { ApiErrors } from '../common/jsonapi/openapi';
import { PageParams } from '../common/jsonapi/pagination';
import { Includes, Paging, QueryValue } from '../common/jsonapi/query';
import { RunTriggerAttributes } from './dto/run-trigger-attributes.dto';
import { TriggerDirection } from './run-triggers.repository';
import { RUN_TRIGGER_DOC, serializeRunTrigger } from './run-triggers.serializer';
import { RUN_TRIGGER_INCLUDES, RunTriggerInclude, RunTriggersService } from './run-triggers.service';
import { Sortable } from '../common/jsonapi/sort';
import { Endpoint } from '../http/endpoint';

/** Official clients send `run-triggers`; the documented sample sends no type at all. */
const TYPE = { types: ['run-triggers'], typeRequired: false };
const FILTER_TYPE = 'filter[run-trigger][type]';
const DIRECTIONS: readonly TriggerDirection[] = ['inbound', 'outbound'];

function direction(raw: string | undefined): TriggerDirection {
  const found = DIRECTIONS.find((d) => d === raw);
  if (!found) throw badRequest(`${FILTER_TYPE} is required and must be inbound or outbound`, FILTER_TYPE);
  return found;
}

@ApiTags('run triggers')
@ApiBearerAuth()
@Controller(API_V2)
export class RunTriggersController {
  constructor(private readonly runTriggers: RunTriggersService) {}

  @Post('workspaces/:workspace_id/run-triggers')
  @ApiParam({ name: 'workspace_id', description: 'the destination workspace (admin access needed)' })
  @Endpoint({
    effect: 'leaves-access-alone',
    create: [
      RUN_TRIGGER_DOC,
      {
        writable: [],
        relationships: ['sourceable'],
        requiredRelationships: ['sourceable'],
      },
    ],
  })
  async create(
    @CurrentPrincipal() p: Principal,
    @Param('workspace_id') workspaceId: string,
    @JsonApiBody(RunTriggerAttributes, TYPE) body: ParsedBody<RunTriggerAttributes>,
  ): Promise<ResourceDocument> {
    return new ResourceDocument(serializeRunTrigger(await this.runTriggers.create(p, workspaceId, body)));
  }

  @Get('workspaces/:workspace_id/run-triggers')
  @ApiQuery({
    name: FILTER_TYPE,
    required: true,
    enum: DIRECTIONS,
    description: 'inbound: triggers that queue runs in this workspace; outbound: triggers it fires',
  })
  @Sortable({ 'created-at': 'createdAt' }, 'created-at')
  @Endpoint({ list: [RUN_TRIGGER_DOC, { includes: RUN_TRIGGER_INCLUDES }] })
  async list(
    @CurrentPrincipal() p: Principal,
    @Param('workspace_id') workspaceId: string,
    @QueryValue(FILTER_TYPE) filter: string | undefined,
    @Paging() paging: PageParams,
    @Includes(RUN_TRIGGER_INCLUDES) includes: RunTriggerInclude[],
  ): Promise<CollectionDocument> {
    const page = await this.runTriggers.list(p, workspaceId, direction(filter), paging);
    const included = includes.length ? await this.runTriggers.included(p, page.items, includes) : undefined;
    return new CollectionDocument(page.items.map(serializeRunTrigger), pageResult(page), included);
  }

  @Get('run-triggers/:id')
  @Endpoint({ show: [RUN_TRIGGER_DOC, RUN_TRIGGER_INCLUDES] })
  @ApiErrors(400)
  async show(
    @CurrentPrincipal() p: Principal,
    @Param('id') id: string,
    @Includes(RUN_TRIGGER_INCLUDES) includes: RunTriggerInclude[],
  ): Promise<ResourceDocument> {
    const view = await this.runTriggers.show(p, id);
    const included = includes.length ? await this.runTriggers.included(p, [view], includes) : undefined;
    return new ResourceDocument(serializeRunTrigger(view), included);
  }

  @Delete('run-triggers/:id')
  @Endpoint({ effect: 'leaves-access-alone', delete: true })
  async remove(@CurrentPrincipal() p: Principal, @Param('id') id: string): Promise<void> {
    await this.runTriggers.delete(p, id);
  }
}
