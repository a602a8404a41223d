import { Controller, Delete, Get, Param, Patch, Post } from '@nestjs/common';
import { API_V2 } from '../common/api-prefix';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal } from '../common/auth/current-principal.decorator';
import { Principal } from '../common/auth/principal';
import { pageResult } from '../common/sql/paginate';
import { JsonApiBody, ParsedBody } from '../common/jsonapi/body';
import { CollectionDocument, ResourceDocument } from '../common/jsonapi/document';
import { ApiCreate, ApiDelete, ApiList, ApiShow, ApiUpdate } from '../common/jsonapi/openapi';
import { PageParams } from '../common/jsonapi/pagination';
import { Paging, QueryValue } from '../common/jsonapi/query';
import { TAG_BINDINGS_RELATIONSHIP_BODY } from '../tag-bindings/tag-bindings.relationships';
import { CreateProjectAttributes, UpdateProjectAttributes } from './dto/project-attributes.dto';
import { ProjectsService, ProjectView } from './projects.service';
import { PROJECT_DOC, serializeProject } from './projects.serializer';
import { LeavesAccessAlone } from '../http/write-effects';
import { Sortable } from '../common/jsonapi/sort';

const TYPE = { types: ['projects'] };
const WRITABLE = {
  writable: ['name', 'description'],
  relationships: ['tag-bindings'],
  relationshipData: TAG_BINDINGS_RELATIONSHIP_BODY,
};
const toResource = (v: ProjectView) => serializeProject(v.project, v.organization.name, v.workspaceCount);

@ApiTags('projects')
@ApiBearerAuth()
@LeavesAccessAlone()
@Controller(API_V2)
export class ProjectsController {
  constructor(private readonly projects: ProjectsService) {}

  @Get('organizations/:org/projects')
  @Sortable({ name: 'name', 'created-at': 'createdAt' }, 'name')
  @ApiList(PROJECT_DOC, { query: { 'search[name]': 'substring of the project name' } })
  async list(
    @CurrentPrincipal() p: Principal,
    @Param('org') org: string,
    @Paging() paging: PageParams,
    @QueryValue('search[name]') search?: string,
  ): Promise<CollectionDocument> {
    const page = await this.projects.list(p, org, paging, search);
    return new CollectionDocument(page.items.map(toResource), pageResult(page));
  }

  @Post('organizations/:org/projects')
  @ApiCreate(PROJECT_DOC, WRITABLE)
  async create(
    @CurrentPrincipal() p: Principal,
    @Param('org') org: string,
    @JsonApiBody(CreateProjectAttributes, TYPE) body: ParsedBody<CreateProjectAttributes>,
  ): Promise<ResourceDocument> {
    return new ResourceDocument(toResource(await this.projects.create(p, org, body)));
  }

  @Get('projects/:id')
  @ApiShow(PROJECT_DOC)
  async show(@CurrentPrincipal() p: Principal, @Param('id') id: string): Promise<ResourceDocument> {
    const project = await this.projects.requireReadable(p, id);
    return new ResourceDocument(toResource(await this.projects.view(project)));
  }

  @Patch('projects/:id')
  @ApiUpdate(PROJECT_DOC, WRITABLE)
  async update(
    @CurrentPrincipal() p: Principal,
    @Param('id') id: string,
    @JsonApiBody(UpdateProjectAttributes, TYPE) body: ParsedBody<UpdateProjectAttributes>,
  ): Promise<ResourceDocument> {
    return new ResourceDocument(toResource(await this.projects.update(p, id, body)));
  }

  @Delete('projects/:id')
  @ApiDelete([422])
  async remove(@CurrentPrincipal() p: Principal, @Param('id') id: string): Promise<void> {
    await this.projects.delete(p, id);
  }
}
