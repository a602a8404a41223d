import { Controller, Delete, Get, Param, Patch, Post } from '@nestjs/common';
import { API_V2 } from '../common/api-prefix';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal } from '../common/auth/current-principal.decorator';
import { Principal } from '../common/auth/principal';
import { pageResult } from '../common/sql/paginate';
import { JsonApiBody, ParsedBody } from '../common/jsonapi/body';
import {
  CollectionDocument,
  Included,
  ResourceDocument,
  ResourceObject,
  toMany,
} from '../common/jsonapi/document';
import { PageParams } from '../common/jsonapi/pagination';
import {
  Includes,
  Paging,
  QueryValue,
  TAG_FILTER_QUERY_DOCS,
  TagFilter,
  TagFilters,
} from '../common/jsonapi/query';
import {
  EFFECTIVE_TAG_BINDING_DOC,
  serializeEffectiveTagBinding,
} from '../tag-bindings/effective-tag-bindings.serializer';
import { TAG_BINDINGS_RELATIONSHIP_BODY } from '../tag-bindings/tag-bindings.relationships';
import { CreateProjectAttributes, UpdateProjectAttributes } from './dto/project-attributes.dto';
import { ProjectsService, ProjectView } from './projects.service';
import { PROJECT_DOC, serializeProject } from './projects.serializer';
import { Sortable } from '../common/jsonapi/sort';
import { Endpoint } from '../http/endpoint';

const TYPE = { types: ['projects'] };
/** What `include` may name on project show and list (`effective_tag_bindings` matches too). */
const PROJECT_INCLUDES = ['effective-tag-bindings'] as const;
const WRITABLE = {
  writable: ['name', 'description'],
  relationships: ['tag-bindings'],
  relationshipData: TAG_BINDINGS_RELATIONSHIP_BODY,
};
const toResource = (v: ProjectView) => serializeProject(v.project, v.organization.name, v.workspaceCount);

@ApiTags('projects')
@ApiBearerAuth()
@Controller(API_V2)
export class ProjectsController {
  constructor(private readonly projects: ProjectsService) {}

  @Get('organizations/:org/projects')
  @Sortable({ name: 'name', 'created-at': 'createdAt' }, 'name')
  @Endpoint({
    list: [
      PROJECT_DOC,
      {
        includes: PROJECT_INCLUDES,
        includedDocs: [EFFECTIVE_TAG_BINDING_DOC],
        query: {
          'search[name]': 'substring of the project name',
          q: 'substring of the project name (the real service’s spelling)',
          'filter[names]': 'comma-separated exact project names; projects with any of them',
          ...TAG_FILTER_QUERY_DOCS,
        },
      },
    ],
  })
  async list(
    @CurrentPrincipal() p: Principal,
    @Param('org') org: string,
    @Paging() paging: PageParams,
    @Includes(PROJECT_INCLUDES) include: string[],
    @TagFilters([/^filter\[names\]$/]) tagged: TagFilter[],
    @QueryValue('search[name]') search?: string,
    @QueryValue('q') q?: string,
    @QueryValue('filter[names]') names?: string,
  ): Promise<CollectionDocument> {
    const page = await this.projects.list(p, org, paging, {
      search,
      q,
      names:
        names === undefined
          ? undefined
          : names
              .split(',')
              .map((n) => n.trim())
              .filter(Boolean),
      tagged,
    });
    const resources = page.items.map(toResource);
    return new CollectionDocument(
      resources,
      pageResult(page),
      await this.included(page.items, include, resources),
    );
  }

  /** `include=effective_tag_bindings`: the bindings, and their linkage on each project. */
  private async included(
    views: readonly ProjectView[],
    include: readonly string[],
    resources: readonly ResourceObject[],
  ): Promise<ResourceObject[] | undefined> {
    if (!include.length) return undefined;
    const effective = await this.projects.effectiveTagBindings(views.map((v) => v.project.id));
    const included = new Included();
    views.forEach((v, i) => {
      const bindings = effective.get(v.project.id) ?? [];
      included.add(...bindings.map(serializeEffectiveTagBinding));
      resources[i].relationships = {
        ...resources[i].relationships,
        'effective-tag-bindings': {
          ...resources[i].relationships?.['effective-tag-bindings'],
          ...toMany(
            'effective-tag-bindings',
            bindings.map((b) => b.binding.id),
          ),
        },
      };
    });
    return included.toArray();
  }

  @Post('organizations/:org/projects')
  @Endpoint({ effect: 'leaves-access-alone', create: [PROJECT_DOC, WRITABLE] })
  async create(
    @CurrentPrincipal() p: Principal,
    @Param('org') org: string,
    @JsonApiBody(CreateProjectAttributes, TYPE) body: ParsedBody<CreateProjectAttributes>,
  ): Promise<ResourceDocument> {
    return new ResourceDocument(toResource(await this.projects.create(p, org, body)));
  }

  @Get('projects/:id')
  @Endpoint({ show: [PROJECT_DOC, PROJECT_INCLUDES, [EFFECTIVE_TAG_BINDING_DOC]] })
  async show(
    @CurrentPrincipal() p: Principal,
    @Param('id') id: string,
    @Includes(PROJECT_INCLUDES) include: string[],
  ): Promise<ResourceDocument> {
    const view = await this.projects.view(await this.projects.requireReadable(p, id));
    const resource = toResource(view);
    return new ResourceDocument(resource, await this.included([view], include, [resource]));
  }

  @Patch('projects/:id')
  @Endpoint({ effect: 'leaves-access-alone', update: [PROJECT_DOC, WRITABLE] })
  async update(
    @CurrentPrincipal() p: Principal,
    @Param('id') id: string,
    @JsonApiBody(UpdateProjectAttributes, TYPE) body: ParsedBody<UpdateProjectAttributes>,
  ): Promise<ResourceDocument> {
    return new ResourceDocument(toResource(await this.projects.update(p, id, body)));
  }

  @Delete('projects/:id')
  @Endpoint({ effect: 'leaves-access-alone', delete: [422] })
  async remove(@CurrentPrincipal() p: Principal, @Param('id') id: string): Promise<void> {
    await this.projects.delete(p, id);
  }
}
