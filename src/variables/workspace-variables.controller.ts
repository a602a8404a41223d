import { Controller, Delete, Get, Param, Patch, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { API_V2 } from '../common/api-prefix';
import { CurrentPrincipal } from '../common/auth/current-principal.decorator';
import { Principal } from '../common/auth/principal';
import { JsonApiBody, ParsedBody } from '../common/jsonapi/body';
import { CollectionDocument, ResourceDocument } from '../common/jsonapi/document';
import { PageParams } from '../common/jsonapi/pagination';
import { Paging, QueryValue } from '../common/jsonapi/query';
import { Sortable } from '../common/jsonapi/sort';
import { pageResult } from '../common/sql/paginate';
import { VariableAttributes } from './dto/variable-attributes.dto';
import { serializeVariable, VARIABLE_DOC } from './variables.serializer';
import { WorkspaceVariablesService } from './workspace-variables.service';
import { Endpoint } from '../http/endpoint';

const TYPE = { types: ['vars'] };
const WRITABLE = ['key', 'value', 'description', 'category', 'hcl', 'sensitive'];
const SORT = { key: 'key', 'created-at': 'createdAt' };
const ORG_FILTER = 'filter[organization][name]';
const WS_FILTER = 'filter[workspace][name]';

@ApiTags('variables')
@ApiBearerAuth()
@Controller(API_V2)
export class WorkspaceVariablesController {
  constructor(private readonly variables: WorkspaceVariablesService) {}

  @Post('workspaces/:workspace_id/vars')
  @Endpoint({ effect: 'leaves-access-alone', create: [VARIABLE_DOC, { writable: WRITABLE }] })
  async create(
    @CurrentPrincipal() p: Principal,
    @Param('workspace_id') workspaceId: string,
    @JsonApiBody(VariableAttributes, TYPE) body: ParsedBody<VariableAttributes>,
  ): Promise<ResourceDocument> {
    return new ResourceDocument(serializeVariable(await this.variables.create(p, workspaceId, body)));
  }

  @Get('workspaces/:workspace_id/vars')
  @Sortable(SORT, 'created-at')
  @Endpoint({ list: [VARIABLE_DOC] })
  @ApiOperation({
    summary: 'List the variables of a workspace',
    description: 'Without the variables of sets.',
  })
  async list(
    @CurrentPrincipal() p: Principal,
    @Param('workspace_id') workspaceId: string,
    @Paging() paging: PageParams,
  ): Promise<CollectionDocument> {
    const page = await this.variables.list(p, workspaceId, paging);
    return new CollectionDocument(page.items.map(serializeVariable), pageResult(page));
  }

  @Get('workspaces/:workspace_id/vars/:id')
  @Endpoint({ show: [VARIABLE_DOC] })
  async show(
    @CurrentPrincipal() p: Principal,
    @Param('workspace_id') workspaceId: string,
    @Param('id') id: string,
  ): Promise<ResourceDocument> {
    return new ResourceDocument(serializeVariable(await this.variables.show(p, workspaceId, id)));
  }

  @Patch('workspaces/:workspace_id/vars/:id')
  @Endpoint({ effect: 'leaves-access-alone', update: [VARIABLE_DOC, { writable: WRITABLE }] })
  async update(
    @CurrentPrincipal() p: Principal,
    @Param('workspace_id') workspaceId: string,
    @Param('id') id: string,
    @JsonApiBody(VariableAttributes, TYPE) body: ParsedBody<VariableAttributes>,
  ): Promise<ResourceDocument> {
    return new ResourceDocument(serializeVariable(await this.variables.update(p, workspaceId, id, body)));
  }

  @Delete('workspaces/:workspace_id/vars/:id')
  @Endpoint({ effect: 'leaves-access-alone', delete: true })
  async remove(
    @CurrentPrincipal() p: Principal,
    @Param('workspace_id') workspaceId: string,
    @Param('id') id: string,
  ): Promise<void> {
    await this.variables.delete(p, workspaceId, id);
  }

  @Post('vars')
  @Endpoint({
    effect: 'leaves-access-alone',
    create: [
      VARIABLE_DOC,
      {
        writable: WRITABLE,
        relationships: ['workspace'],
        requiredRelationships: ['workspace'],
      },
    ],
  })
  @ApiOperation({
    summary: 'Create a variable (deprecated route)',
    description: 'The workspace is `relationships.workspace`.',
  })
  async createLegacy(
    @CurrentPrincipal() p: Principal,
    @JsonApiBody(VariableAttributes, TYPE) body: ParsedBody<VariableAttributes>,
  ): Promise<ResourceDocument> {
    return new ResourceDocument(serializeVariable(await this.variables.createLegacy(p, body)));
  }

  @Get('vars')
  @Sortable(SORT, 'created-at')
  @Endpoint({
    list: [
      VARIABLE_DOC,
      {
        query: {
          [ORG_FILTER]: 'The workspace’s organization (required)',
          [WS_FILTER]: 'The workspace’s name (required)',
        },
      },
    ],
  })
  @ApiOperation({ summary: 'List the variables of a workspace named by filters (deprecated route)' })
  async listLegacy(
    @CurrentPrincipal() p: Principal,
    @QueryValue(ORG_FILTER) orgName: string | undefined,
    @QueryValue(WS_FILTER) workspaceName: string | undefined,
    @Paging() paging: PageParams,
  ): Promise<CollectionDocument> {
    const page = await this.variables.listByName(p, orgName, workspaceName, paging);
    return new CollectionDocument(page.items.map(serializeVariable), pageResult(page));
  }

  @Patch('vars/:id')
  @Endpoint({ effect: 'leaves-access-alone', update: [VARIABLE_DOC, { writable: WRITABLE }] })
  @ApiOperation({ summary: 'Update a variable (deprecated route)' })
  async updateLegacy(
    @CurrentPrincipal() p: Principal,
    @Param('id') id: string,
    @JsonApiBody(VariableAttributes, TYPE) body: ParsedBody<VariableAttributes>,
  ): Promise<ResourceDocument> {
    return new ResourceDocument(serializeVariable(await this.variables.update(p, undefined, id, body)));
  }

  @Delete('vars/:id')
  @Endpoint({ effect: 'leaves-access-alone', delete: true })
  @ApiOperation({ summary: 'Delete a variable (deprecated route)' })
  async removeLegacy(@CurrentPrincipal() p: Principal, @Param('id') id: string): Promise<void> {
    await this.variables.delete(p, undefined, id);
  }
}
