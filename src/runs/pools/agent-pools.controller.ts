import { Controller, Delete, Get, Param, Patch, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { API_V2 } from '../../common/api-prefix';
import { CurrentPrincipal } from '../../common/auth/current-principal.decorator';
import { Principal } from '../../common/auth/principal';
import { pageResult } from '../../common/sql/paginate';
import { JsonApiBody, ParsedBody } from '../../common/jsonapi/body';
import { CollectionDocument, ResourceDocument } from '../../common/jsonapi/document';
import { PageParams } from '../../common/jsonapi/pagination';
import { Includes, Paging, QueryValue } from '../../common/jsonapi/query';
import { Sortable } from '../../common/jsonapi/sort';
import { WORKSPACE_DOC } from '../../workspaces/workspaces.serializer';
import { AgentPoolsService, AgentPoolView } from './agent-pools.service';
import { AGENT_POOL_DOC, serializeAgentPool } from './agent-pools.serializer';
import { CreateAgentPoolAttributes, UpdateAgentPoolAttributes } from './dto/agent-pool-attributes.dto';
import { Endpoint } from '../../http/endpoint';

const TYPE = { types: ['agent-pools'] };
const INCLUDES = ['workspaces'] as const;
const WRITABLE = {
  writable: ['name', 'organization-scoped'],
  relationships: ['allowed-workspaces'],
};

@ApiTags('agent pools')
@ApiBearerAuth()
@Controller(API_V2)
export class AgentPoolsController {
  constructor(private readonly pools: AgentPoolsService) {}

  private async one(p: Principal, view: AgentPoolView, include: string[]): Promise<ResourceDocument> {
    const included = include.length ? await this.pools.includedWorkspaces(p, [view]) : undefined;
    return new ResourceDocument(serializeAgentPool(view), included);
  }

  @Get('organizations/:org/agent-pools')
  @Endpoint({
    list: [
      AGENT_POOL_DOC,
      {
        includes: INCLUDES,
        includedDocs: [WORKSPACE_DOC],
        query: {
          q: 'substring of the name, any case',
          'filter[allowed_workspaces][name]': 'only pools the workspace of this name may use',
        },
      },
    ],
  })
  @Sortable({ name: 'name', 'created-at': 'createdAt' }, 'created-at')
  async list(
    @CurrentPrincipal() p: Principal,
    @Param('org') org: string,
    @Paging() paging: PageParams,
    @Includes(INCLUDES) include: string[],
    @QueryValue('q') q?: string,
    @QueryValue('filter[allowed_workspaces][name]') allowedWorkspaceName?: string,
  ): Promise<CollectionDocument> {
    const page = await this.pools.list(p, org, { q, allowedWorkspaceName }, paging);
    const included = include.length ? await this.pools.includedWorkspaces(p, page.items) : undefined;
    return new CollectionDocument(page.items.map(serializeAgentPool), pageResult(page), included, undefined, {
      'status-counts': { total: page.organizationTotal, matching: page.totalCount },
    });
  }

  @Post('organizations/:org/agent-pools')
  @Endpoint({ effect: 'leaves-access-alone', create: [AGENT_POOL_DOC, WRITABLE] })
  async create(
    @CurrentPrincipal() p: Principal,
    @Param('org') org: string,
    @JsonApiBody(CreateAgentPoolAttributes, TYPE) body: ParsedBody<CreateAgentPoolAttributes>,
  ): Promise<ResourceDocument> {
    return new ResourceDocument(serializeAgentPool(await this.pools.create(p, org, body)));
  }

  @Get('agent-pools/:id')
  @Endpoint({ show: [AGENT_POOL_DOC, INCLUDES, [WORKSPACE_DOC]] })
  async show(
    @CurrentPrincipal() p: Principal,
    @Param('id') id: string,
    @Includes(INCLUDES) include: string[],
  ): Promise<ResourceDocument> {
    return this.one(p, await this.pools.show(p, id), include);
  }

  /** Changes what the pool's agent tokens stand for (its scope): advances the access epoch. */
  @Patch('agent-pools/:id')
  @Endpoint({ effect: 'changes-access', update: [AGENT_POOL_DOC, WRITABLE] })
  async update(
    @CurrentPrincipal() p: Principal,
    @Param('id') id: string,
    @JsonApiBody(UpdateAgentPoolAttributes, TYPE) body: ParsedBody<UpdateAgentPoolAttributes>,
  ): Promise<ResourceDocument> {
    return new ResourceDocument(serializeAgentPool(await this.pools.update(p, id, body)));
  }

  /** Revokes the pool's agent tokens with it: advances the access epoch. */
  @Delete('agent-pools/:id')
  @Endpoint({ effect: 'changes-access', delete: [422] })
  async remove(@CurrentPrincipal() p: Principal, @Param('id') id: string): Promise<void> {
    await this.pools.delete(p, id);
  }
}
