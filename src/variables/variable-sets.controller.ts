import { Controller, Delete, Get, Param, Patch, Post, Put } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { API_V2 } from '../common/api-prefix';
import { CurrentPrincipal } from '../common/auth/current-principal.decorator';
import { Principal } from '../common/auth/principal';
import { IdentifierArray, JsonApiBody, ParsedBody } from '../common/jsonapi/body';
import { CollectionDocument, ResourceDocument, ResourceIdentifier } from '../common/jsonapi/document';
import { PageParams } from '../common/jsonapi/pagination';
import { Includes, Paging, QueryValue } from '../common/jsonapi/query';
import { Sortable } from '../common/jsonapi/sort';
import { Page, pageResult } from '../common/sql/paginate';
import { VariableSetAttributes } from './dto/variable-set-attributes.dto';
import { serializeVariableSet, VARSET_DOC, VariableSetView } from './variable-sets.serializer';
import { AttachmentKind, VARSET_INCLUDES, VariableSetsService, VarsetInclude } from './variable-sets.service';
import { VARIABLE_DOC } from './variables.serializer';
import { Endpoint } from '../http/endpoint';

const TYPE = { types: ['varsets'] };
const WRITABLE = ['name', 'description', 'global', 'priority'];
const BODY = { writable: WRITABLE, relationships: ['parent', 'workspaces', 'projects', 'vars'] };
const SORT = { name: 'name', 'updated-at': 'updatedAt' };
const INCLUDED = { includes: VARSET_INCLUDES, includedDocs: [VARIABLE_DOC] };

@ApiTags('variable sets')
@ApiBearerAuth()
@Controller(API_V2)
export class VariableSetsController {
  constructor(private readonly sets: VariableSetsService) {}

  @Post('organizations/:org/varsets')
  @Endpoint({ effect: 'leaves-access-alone', create: [VARSET_DOC, BODY] })
  async create(
    @CurrentPrincipal() p: Principal,
    @Param('org') org: string,
    @JsonApiBody(VariableSetAttributes, TYPE) body: ParsedBody<VariableSetAttributes>,
  ): Promise<ResourceDocument> {
    return new ResourceDocument(serializeVariableSet(await this.sets.create(p, org, body)));
  }

  @Get('organizations/:org/varsets')
  @Sortable(SORT, 'name')
  @Endpoint({
    list: [VARSET_DOC, { ...INCLUDED, query: { q: 'Only sets whose name contains this text (any case)' } }],
  })
  async list(
    @CurrentPrincipal() p: Principal,
    @Param('org') org: string,
    @QueryValue('q') q: string | undefined,
    @Paging() paging: PageParams,
    @Includes(VARSET_INCLUDES) includes: VarsetInclude[],
  ): Promise<CollectionDocument> {
    return this.collection(p, await this.sets.list(p, org, q, paging), includes);
  }

  @Get('workspaces/:workspace_id/varsets')
  @Sortable(SORT, 'name')
  @Endpoint({ list: [VARSET_DOC, INCLUDED] })
  @ApiOperation({
    summary: 'List the variable sets reaching a workspace',
    description: 'Global sets, sets attached to it and to its project.',
  })
  async listForWorkspace(
    @CurrentPrincipal() p: Principal,
    @Param('workspace_id') workspaceId: string,
    @Paging() paging: PageParams,
    @Includes(VARSET_INCLUDES) includes: VarsetInclude[],
  ): Promise<CollectionDocument> {
    return this.collection(p, await this.sets.listForWorkspace(p, workspaceId, paging), includes);
  }

  @Get('projects/:project_id/varsets')
  @Sortable(SORT, 'name')
  @Endpoint({ list: [VARSET_DOC, INCLUDED] })
  @ApiOperation({
    summary: 'List the variable sets reaching a project',
    description: 'Global sets and sets attached to it.',
  })
  async listForProject(
    @CurrentPrincipal() p: Principal,
    @Param('project_id') projectId: string,
    @Paging() paging: PageParams,
    @Includes(VARSET_INCLUDES) includes: VarsetInclude[],
  ): Promise<CollectionDocument> {
    return this.collection(p, await this.sets.listForProject(p, projectId, paging), includes);
  }

  @Get('varsets/:id')
  @Endpoint({ show: [VARSET_DOC, VARSET_INCLUDES, [VARIABLE_DOC]] })
  async show(
    @CurrentPrincipal() p: Principal,
    @Param('id') id: string,
    @Includes(VARSET_INCLUDES) includes: VarsetInclude[],
  ): Promise<ResourceDocument> {
    const view = await this.sets.show(p, id);
    const included = includes.length ? await this.sets.included(p, [view], includes) : undefined;
    return new ResourceDocument(serializeVariableSet(view), included);
  }

  @Patch('varsets/:id')
  @Endpoint({ effect: 'leaves-access-alone', update: [VARSET_DOC, BODY] })
  async update(
    @CurrentPrincipal() p: Principal,
    @Param('id') id: string,
    @Includes(VARSET_INCLUDES) includes: VarsetInclude[],
    @JsonApiBody(VariableSetAttributes, TYPE) body: ParsedBody<VariableSetAttributes>,
  ): Promise<ResourceDocument> {
    const view = await this.sets.update(p, id, body);
    const included = includes.length ? await this.sets.included(p, [view], includes) : undefined;
    return new ResourceDocument(serializeVariableSet(view), included);
  }

  @Put('varsets/:id')
  @Endpoint({ effect: 'leaves-access-alone', update: [VARSET_DOC, BODY] })
  @ApiOperation({ summary: 'Update a variable set (as PATCH)' })
  async replace(
    @CurrentPrincipal() p: Principal,
    @Param('id') id: string,
    @Includes(VARSET_INCLUDES) includes: VarsetInclude[],
    @JsonApiBody(VariableSetAttributes, TYPE) body: ParsedBody<VariableSetAttributes>,
  ): Promise<ResourceDocument> {
    return this.update(p, id, includes, body);
  }

  @Delete('varsets/:id')
  @Endpoint({ effect: 'leaves-access-alone', delete: true })
  async remove(@CurrentPrincipal() p: Principal, @Param('id') id: string): Promise<void> {
    await this.sets.delete(p, id);
  }

  @Post('varsets/:id/relationships/workspaces')
  @Endpoint({ effect: 'leaves-access-alone', relationship: 'workspaces' })
  @ApiOperation({ summary: 'Apply a variable set to workspaces' })
  async addWorkspaces(
    @CurrentPrincipal() p: Principal,
    @Param('id') id: string,
    @IdentifierArray('workspaces') refs: ResourceIdentifier[],
  ): Promise<void> {
    await this.change(p, id, 'workspaces', 'add', refs);
  }

  @Delete('varsets/:id/relationships/workspaces')
  @Endpoint({ effect: 'leaves-access-alone', relationship: 'workspaces' })
  @ApiOperation({ summary: 'Remove a variable set from workspaces' })
  async removeWorkspaces(
    @CurrentPrincipal() p: Principal,
    @Param('id') id: string,
    @IdentifierArray('workspaces') refs: ResourceIdentifier[],
  ): Promise<void> {
    await this.change(p, id, 'workspaces', 'remove', refs);
  }

  @Post('varsets/:id/relationships/projects')
  @Endpoint({ effect: 'leaves-access-alone', relationship: 'projects' })
  @ApiOperation({ summary: 'Apply a variable set to projects' })
  async addProjects(
    @CurrentPrincipal() p: Principal,
    @Param('id') id: string,
    @IdentifierArray('projects') refs: ResourceIdentifier[],
  ): Promise<void> {
    await this.change(p, id, 'projects', 'add', refs);
  }

  @Delete('varsets/:id/relationships/projects')
  @Endpoint({ effect: 'leaves-access-alone', relationship: 'projects' })
  @ApiOperation({ summary: 'Remove a variable set from projects' })
  async removeProjects(
    @CurrentPrincipal() p: Principal,
    @Param('id') id: string,
    @IdentifierArray('projects') refs: ResourceIdentifier[],
  ): Promise<void> {
    await this.change(p, id, 'projects', 'remove', refs);
  }

  private change(
    p: Principal,
    id: string,
    kind: AttachmentKind,
    change: 'add' | 'remove',
    refs: ResourceIdentifier[],
  ): Promise<void> {
    return this.sets.changeAttachments(p, id, kind, change, refs);
  }

  private async collection(
    p: Principal,
    page: Page<VariableSetView>,
    includes: VarsetInclude[],
  ): Promise<CollectionDocument> {
    const included = includes.length ? await this.sets.included(p, page.items, includes) : undefined;
    return new CollectionDocument(page.items.map(serializeVariableSet), pageResult(page), included);
  }
}
