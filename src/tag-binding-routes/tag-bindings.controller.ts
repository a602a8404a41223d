import { applyDecorators, Controller, Get, Param, Patch } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { API_V2 } from '../common/api-prefix';
import { CurrentPrincipal } from '../common/auth/current-principal.decorator';
import { Principal } from '../common/auth/principal';
import { firstPageOf, Page, pageResult } from '../common/sql/paginate';
import { CollectionDocument } from '../common/jsonapi/document';
import { ApiErrors, LIST_LINKS, PAGINATION_META, resourceSchema } from '../common/jsonapi/openapi';
import { PageParams } from '../common/jsonapi/pagination';
import { Paging } from '../common/jsonapi/query';
import { projectPath } from '../projects/projects.serializer';
import { workspacePath } from '../workspaces/workspaces.serializer';
import type { TagBindingEntity } from '../tag-bindings/entities/tag-binding.entity';
import { TagBindingAccessService } from './tag-binding-access.service';
import { TagBindingList } from './tag-binding-list.body';
import { TagBindingInput } from '../tag-bindings/tag-binding-rules';
import { TAG_BINDING_LIST_SCHEMA } from '../tag-bindings/tag-bindings.relationships';
import {
  EFFECTIVE_TAG_BINDING_DOC,
  serializeEffectiveTagBinding,
  serializeTagBinding,
  TAG_BINDING_DOC,
} from './tag-bindings.serializer';
import { EffectiveTagBinding, TagBindingsService } from '../tag-bindings/tag-bindings.service';
import { Sortable } from '../common/jsonapi/sort';
import { Endpoint } from '../http/endpoint';

/** PATCH adding or updating bindings by key; answers with every binding of the target. */
function ApiMergeTagBindings(): MethodDecorator {
  return applyDecorators(
    ApiOperation({
      summary: 'Add or change tag bindings',
      description:
        'Merges the bindings sent into the target: a sent key gets the sent value, other keys keep theirs. ' +
        'Answers every binding of the target.',
    }),
    ApiBody({
      schema: { type: 'object', required: ['data'], properties: { data: TAG_BINDING_LIST_SCHEMA } },
    }),
    ApiResponse({
      status: 200,
      description: 'All bindings of the target after the change',
      schema: {
        type: 'object',
        required: ['data', 'links', 'meta'],
        properties: {
          data: { type: 'array', items: resourceSchema(TAG_BINDING_DOC) },
          links: LIST_LINKS,
          meta: PAGINATION_META,
        },
      },
    }),
    ApiErrors(400, 401, 404, 422),
  );
}

const bindings = (page: Page<TagBindingEntity>, target: string) =>
  new CollectionDocument(page.items.map(serializeTagBinding), pageResult(page), undefined, { target });

const effective = (page: Page<EffectiveTagBinding>, target: string) =>
  new CollectionDocument(page.items.map(serializeEffectiveTagBinding), pageResult(page), undefined, {
    target,
  });

@ApiTags('tag-bindings')
@ApiBearerAuth()
@Controller(API_V2)
export class TagBindingsController {
  constructor(
    private readonly access: TagBindingAccessService,
    private readonly tagBindings: TagBindingsService,
  ) {}

  @Get('projects/:id/tag-bindings')
  @Sortable({ key: 'key', 'created-at': 'createdAt' }, 'key')
  @Endpoint({ list: [TAG_BINDING_DOC] })
  async listProject(
    @CurrentPrincipal() p: Principal,
    @Param('id') id: string,
    @Paging() paging: PageParams,
  ): Promise<CollectionDocument> {
    const project = await this.access.readableProject(p, id);
    return bindings(await this.tagBindings.list({ projectId: project.id }, paging), projectPath(project.id));
  }

  @Patch('projects/:id/tag-bindings')
  @Endpoint({ effect: 'leaves-access-alone' })
  @ApiMergeTagBindings()
  async mergeProject(
    @CurrentPrincipal() p: Principal,
    @Param('id') id: string,
    @TagBindingList() items: TagBindingInput[],
  ): Promise<CollectionDocument> {
    const project = await this.access.writableProject(p, id);
    const all = await this.tagBindings.mergeIntoProject(
      project.id,
      items,
      this.access.projectLock(project.id),
    );
    return bindings(firstPageOf(all), projectPath(project.id));
  }

  @Get('projects/:id/effective-tag-bindings')
  @Sortable({ key: 'key', 'created-at': 'createdAt' }, 'key')
  @Endpoint({ list: [EFFECTIVE_TAG_BINDING_DOC] })
  async effectiveProject(
    @CurrentPrincipal() p: Principal,
    @Param('id') id: string,
    @Paging() paging: PageParams,
  ): Promise<CollectionDocument> {
    const project = await this.access.readableProject(p, id);
    return effective(await this.tagBindings.effectiveForProject(project.id, paging), projectPath(project.id));
  }

  @Get('workspaces/:id/tag-bindings')
  @Sortable({ key: 'key', 'created-at': 'createdAt' }, 'key')
  @Endpoint({ list: [TAG_BINDING_DOC] })
  async listWorkspace(
    @CurrentPrincipal() p: Principal,
    @Param('id') id: string,
    @Paging() paging: PageParams,
  ): Promise<CollectionDocument> {
    const ws = await this.access.readableWorkspace(p, id);
    return bindings(await this.tagBindings.list({ workspaceId: ws.id }, paging), workspacePath(ws.id));
  }

  @Patch('workspaces/:id/tag-bindings')
  @Endpoint({ effect: 'leaves-access-alone' })
  @ApiMergeTagBindings()
  async mergeWorkspace(
    @CurrentPrincipal() p: Principal,
    @Param('id') id: string,
    @TagBindingList() items: TagBindingInput[],
  ): Promise<CollectionDocument> {
    const ws = await this.access.writableWorkspace(p, id);
    const all = await this.tagBindings.mergeIntoWorkspace(ws, items, this.access.workspaceLock(ws));
    return bindings(firstPageOf(all), workspacePath(ws.id));
  }

  @Get('workspaces/:id/effective-tag-bindings')
  @Sortable({ key: 'key', 'created-at': 'createdAt' }, 'key')
  @Endpoint({ list: [EFFECTIVE_TAG_BINDING_DOC] })
  async effectiveWorkspace(
    @CurrentPrincipal() p: Principal,
    @Param('id') id: string,
    @Paging() paging: PageParams,
  ): Promise<CollectionDocument> {
    const ws = await this.access.readableWorkspace(p, id);
    return effective(await this.tagBindings.effectiveForWorkspace(ws, paging), workspacePath(ws.id));
  }
}
