import { applyDecorators, Controller, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { API_V2 } from '../common/api-prefix';
import { ApiBearerAuth, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal } from '../common/auth/current-principal.decorator';
import { Principal } from '../common/auth/principal';
import { pageResult } from '../common/sql/paginate';
import { JsonApiBody, ParsedBody } from '../common/jsonapi/body';
import { CollectionDocument, ResourceDocument } from '../common/jsonapi/document';
import { ApiErrors, idParam } from '../common/jsonapi/openapi';
import { PageParams } from '../common/jsonapi/pagination';
import {
  Includes,
  Paging,
  QueryValue,
  TAG_FILTER_QUERY_DOCS,
  TagFilter,
  TagFilters,
} from '../common/jsonapi/query';
import { TAG_BINDINGS_RELATIONSHIP_BODY } from '../tag-bindings/tag-bindings.relationships';
import { CreateWorkspaceAttributes, UpdateWorkspaceAttributes } from './dto/workspace-attributes.dto';
import { ORGANIZATION_DOC } from '../organizations/organizations.serializer';
import { PROJECT_DOC } from '../projects/projects.serializer';
import { EFFECTIVE_TAG_BINDING_DOC } from '../tag-bindings/effective-tag-bindings.serializer';
import { WORKSPACE_INCLUDES, WorkspaceIncludesService } from './workspace-includes.service';
import { WorkspacesService, WorkspaceView } from './workspaces.service';
import { WorkspaceListing } from './workspace-listing.service';
import { serializeWorkspace, WORKSPACE_DOC, WORKSPACE_OUTPUT_DOC } from './workspaces.serializer';
import { LinkOrigin } from '../storage/link-origin.decorator';
import { Sortable } from '../common/jsonapi/sort';
import { Endpoint } from '../http/endpoint';

const TYPE = { types: ['workspaces'] };
const INCLUDED_DOCS = [PROJECT_DOC, ORGANIZATION_DOC, EFFECTIVE_TAG_BINDING_DOC, WORKSPACE_OUTPUT_DOC];
const WRITABLE = {
  writable: [
    'name',
    'description',
    'engine-version',
    'terraform-version',
    'execution-mode',
    'agent-pool-id',
    'auto-apply',
    'auto-apply-run-trigger',
  ],
  relationships: ['project', 'agent-pool', 'tag-bindings'],
  relationshipData: TAG_BINDINGS_RELATIONSHIP_BODY,
  requestOnly: {
    'agent-pool-id': {
      ...idParam('apool', 'The agent pool (null clears it); the same as the agent-pool relationship'),
      nullable: true,
    },
  },
};
/** Safe delete, as the real service words it (its clients tell the 409s apart by these words). */
function ApiSafeDelete(): MethodDecorator {
  return applyDecorators(
    HttpCode(204),
    ApiOperation({
      summary: 'Delete the workspace unless its state still manages resources (needs admin)',
      description:
        '409 "Workspace is currently locked. Workspace must be unlocked before it can be safely deleted" ' +
        'while it is locked; 409 "workspace cannot be safely deleted because it is still managing resources" ' +
        'while its current state version has managed resources. `DELETE` deletes it whatever its state holds.',
    }),
    ApiResponse({ status: 204, description: 'Deleted; no body' }),
    ApiErrors(401, 404, 409),
  );
}

const toResource = (v: WorkspaceView) =>
  serializeWorkspace(v.workspace, v.organization.name, v.level, v.currentRunId, v.writesState);

@ApiTags('workspaces')
@ApiBearerAuth()
@Controller(API_V2)
export class WorkspacesController {
  constructor(
    private readonly workspaces: WorkspacesService,
    private readonly listing: WorkspaceListing,
    private readonly includes: WorkspaceIncludesService,
  ) {}

  private async one(
    p: Principal,
    view: WorkspaceView,
    include: string[],
    origin: string,
  ): Promise<ResourceDocument> {
    const resource = toResource(view);
    return new ResourceDocument(
      resource,
      await this.includes.resolve(p, [view], include, [resource], origin),
    );
  }

  @Get('organizations/:org/workspaces')
  @Sortable({ name: 'name', 'created-at': 'createdAt' }, 'name')
  @Endpoint({
    list: [
      WORKSPACE_DOC,
      {
        includes: WORKSPACE_INCLUDES,
        includedDocs: INCLUDED_DOCS,
        query: {
          'search[name]': 'substring of the name',
          'filter[project][id]': {
            description: 'only the workspaces of this project',
            schema: idParam('prj'),
          },
          ...TAG_FILTER_QUERY_DOCS,
        },
      },
    ],
  })
  async list(
    @CurrentPrincipal() p: Principal,
    @Param('org') org: string,
    @Paging() paging: PageParams,
    @Includes(WORKSPACE_INCLUDES) include: string[],
    @LinkOrigin() origin: string,
    @QueryValue('search[name]') search?: string,
    @QueryValue('filter[project][id]') projectId?: string,
    @TagFilters([/^filter\[project\]\[id\]$/]) tagged?: TagFilter[],
  ): Promise<CollectionDocument> {
    const page = await this.listing.list(p, org, { search, projectId, tagged }, paging);
    const resources = page.items.map(toResource);
    const included = await this.includes.resolve(p, page.items, include, resources, origin);
    return new CollectionDocument(resources, pageResult(page), included);
  }

  @Post('organizations/:org/workspaces')
  @Endpoint({ effect: 'leaves-access-alone', create: [WORKSPACE_DOC, WRITABLE] })
  async create(
    @CurrentPrincipal() p: Principal,
    @Param('org') org: string,
    @JsonApiBody(CreateWorkspaceAttributes, TYPE) body: ParsedBody<CreateWorkspaceAttributes>,
  ): Promise<ResourceDocument> {
    return new ResourceDocument(toResource(await this.workspaces.create(p, org, body)));
  }

  @Get('organizations/:org/workspaces/:name')
  @Endpoint({ show: [WORKSPACE_DOC, WORKSPACE_INCLUDES, INCLUDED_DOCS] })
  async showByName(
    @CurrentPrincipal() p: Principal,
    @Param('org') org: string,
    @Param('name') name: string,
    @Includes(WORKSPACE_INCLUDES) include: string[],
    @LinkOrigin() origin: string,
  ): Promise<ResourceDocument> {
    const ws = await this.workspaces.requireByName(p, org, name);
    return this.one(p, await this.workspaces.view(p, ws), include, origin);
  }

  @Patch('organizations/:org/workspaces/:name')
  @Endpoint({ effect: 'leaves-access-alone', update: [WORKSPACE_DOC, WRITABLE] })
  async updateByName(
    @CurrentPrincipal() p: Principal,
    @Param('org') org: string,
    @Param('name') name: string,
    @JsonApiBody(UpdateWorkspaceAttributes, { ...TYPE, urlId: false })
    body: ParsedBody<UpdateWorkspaceAttributes>,
  ): Promise<ResourceDocument> {
    const ws = await this.workspaces.requireByName(p, org, name);
    return new ResourceDocument(toResource(await this.workspaces.update(p, ws, body)));
  }

  @Delete('organizations/:org/workspaces/:name')
  @Endpoint({ effect: 'leaves-access-alone', delete: true })
  async removeByName(
    @CurrentPrincipal() p: Principal,
    @Param('org') org: string,
    @Param('name') name: string,
  ): Promise<void> {
    await this.workspaces.delete(p, await this.workspaces.requireByName(p, org, name));
  }

  @Post('organizations/:org/workspaces/:name/actions/safe-delete')
  @Endpoint({ effect: 'leaves-access-alone' })
  @ApiSafeDelete()
  async safeDeleteByName(
    @CurrentPrincipal() p: Principal,
    @Param('org') org: string,
    @Param('name') name: string,
  ): Promise<void> {
    await this.workspaces.delete(p, await this.workspaces.requireByName(p, org, name), 'safe');
  }

  @Get('workspaces/:id')
  @Endpoint({ show: [WORKSPACE_DOC, WORKSPACE_INCLUDES, INCLUDED_DOCS] })
  async show(
    @CurrentPrincipal() p: Principal,
    @Param('id') id: string,
    @Includes(WORKSPACE_INCLUDES) include: string[],
    @LinkOrigin() origin: string,
  ): Promise<ResourceDocument> {
    const ws = await this.workspaces.requireAccess(p, id);
    return this.one(p, await this.workspaces.view(p, ws), include, origin);
  }

  @Patch('workspaces/:id')
  @Endpoint({ effect: 'leaves-access-alone', update: [WORKSPACE_DOC, WRITABLE] })
  async update(
    @CurrentPrincipal() p: Principal,
    @Param('id') id: string,
    @JsonApiBody(UpdateWorkspaceAttributes, TYPE) body: ParsedBody<UpdateWorkspaceAttributes>,
  ): Promise<ResourceDocument> {
    const ws = await this.workspaces.requireAccess(p, id);
    return new ResourceDocument(toResource(await this.workspaces.update(p, ws, body)));
  }

  @Delete('workspaces/:id')
  @Endpoint({ effect: 'leaves-access-alone', delete: true })
  async remove(@CurrentPrincipal() p: Principal, @Param('id') id: string): Promise<void> {
    await this.workspaces.delete(p, await this.workspaces.requireAccess(p, id));
  }

  @Post('workspaces/:id/actions/safe-delete')
  @Endpoint({ effect: 'leaves-access-alone' })
  @ApiSafeDelete()
  async safeDelete(@CurrentPrincipal() p: Principal, @Param('id') id: string): Promise<void> {
    await this.workspaces.delete(p, await this.workspaces.requireAccess(p, id), 'safe');
  }
}
