import { Controller, Delete, Get, Param, Patch, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { API_V2 } from '../common/api-prefix';
import { CurrentPrincipal } from '../common/auth/current-principal.decorator';
import { Principal } from '../common/auth/principal';
import { JsonApiBody, ParsedBody } from '../common/jsonapi/body';
import { CollectionDocument, ResourceDocument } from '../common/jsonapi/document';
import { PageParams } from '../common/jsonapi/pagination';
import { Paging } from '../common/jsonapi/query';
import { Sortable } from '../common/jsonapi/sort';
import { pageResult } from '../common/sql/paginate';
import { VariableAttributes } from './dto/variable-attributes.dto';
import { EffectiveVariablesService } from './effective-variables.service';
import { serializeVariable, VARIABLE_DOC } from './variables.serializer';
import { VarsetVariablesService } from './varset-variables.service';
import { Endpoint } from '../http/endpoint';

const TYPE = { types: ['vars'] };
const SORT = { key: 'key', 'created-at': 'createdAt' };

@ApiTags('variable sets')
@ApiBearerAuth()
@Controller(API_V2)
export class VarsetVariablesController {
  constructor(
    private readonly variables: VarsetVariablesService,
    private readonly effective: EffectiveVariablesService,
  ) {}

  @Post('varsets/:id/relationships/vars')
  @Endpoint({
    effect: 'leaves-access-alone',
    create: [VARIABLE_DOC, { writable: ['key', 'value', 'description', 'category', 'hcl', 'sensitive'] }],
  })
  @ApiOperation({ summary: 'Add a variable to a variable set' })
  async create(
    @CurrentPrincipal() p: Principal,
    @Param('id') id: string,
    @JsonApiBody(VariableAttributes, TYPE) body: ParsedBody<VariableAttributes>,
  ): Promise<ResourceDocument> {
    return new ResourceDocument(serializeVariable(await this.variables.create(p, id, body)));
  }

  @Get('varsets/:id/relationships/vars')
  @Sortable(SORT, 'created-at')
  @Endpoint({ list: [VARIABLE_DOC] })
  @ApiOperation({ summary: 'List the variables of a variable set' })
  async list(
    @CurrentPrincipal() p: Principal,
    @Param('id') id: string,
    @Paging() paging: PageParams,
  ): Promise<CollectionDocument> {
    const page = await this.variables.list(p, id, paging);
    return new CollectionDocument(page.items.map(serializeVariable), pageResult(page));
  }

  @Get('varsets/:id/relationships/vars/:var_id')
  @Endpoint({ show: [VARIABLE_DOC] })
  async show(
    @CurrentPrincipal() p: Principal,
    @Param('id') id: string,
    @Param('var_id') varId: string,
  ): Promise<ResourceDocument> {
    return new ResourceDocument(serializeVariable(await this.variables.show(p, id, varId)));
  }

  @Patch('varsets/:id/relationships/vars/:var_id')
  @Endpoint({
    effect: 'leaves-access-alone',
    update: [VARIABLE_DOC, { writable: ['key', 'value', 'description', 'hcl', 'sensitive'] }],
  })
  @ApiOperation({
    summary: 'Update a variable of a variable set',
    description: 'The category cannot change.',
  })
  async update(
    @CurrentPrincipal() p: Principal,
    @Param('id') id: string,
    @Param('var_id') varId: string,
    @JsonApiBody(VariableAttributes, TYPE) body: ParsedBody<VariableAttributes>,
  ): Promise<ResourceDocument> {
    return new ResourceDocument(serializeVariable(await this.variables.update(p, id, varId, body)));
  }

  @Delete('varsets/:id/relationships/vars/:var_id')
  @Endpoint({ effect: 'leaves-access-alone', delete: true })
  async remove(
    @CurrentPrincipal() p: Principal,
    @Param('id') id: string,
    @Param('var_id') varId: string,
  ): Promise<void> {
    await this.variables.delete(p, id, varId);
  }

  @Get('workspaces/:workspace_id/all-vars')
  @Sortable(SORT, 'category, then key')
  @Endpoint({ list: [VARIABLE_DOC] })
  @ApiOperation({
    summary: 'List the variables that reach a workspace after precedence',
    description:
      'One variable per category and key: the workspace’s own (relationship `configurable`) or a ' +
      'variable set’s (relationship `varset`), whichever wins by the precedence in docs/variables.md.',
  })
  async allVars(
    @CurrentPrincipal() p: Principal,
    @Param('workspace_id') workspaceId: string,
    @Paging() paging: PageParams,
  ): Promise<CollectionDocument> {
    const page = await this.effective.list(p, workspaceId, paging);
    return new CollectionDocument(page.items.map(serializeVariable), pageResult(page));
  }
}
