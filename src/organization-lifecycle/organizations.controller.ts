import { Controller, Delete, Get, Param, Patch, Post } from '@nestjs/common';
import { API_V2 } from '../common/api-prefix';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal } from '../common/auth/current-principal.decorator';
import { Principal } from '../common/auth/principal';
import { pageResult } from '../common/sql/paginate';
import { JsonApiBody, ParsedBody } from '../common/jsonapi/body';
import { CollectionDocument, ResourceDocument, ResourceObject } from '../common/jsonapi/document';
import { PageParams } from '../common/jsonapi/pagination';
import { Includes, Paging } from '../common/jsonapi/query';
import { ProjectsService } from '../projects/projects.service';
import { PROJECT_DOC } from '../projects/projects.serializer';
import {
  CreateOrganizationAttributes,
  UpdateOrganizationAttributes,
} from './dto/organization-attributes.dto';
import { OrganizationsService } from '../organizations/organizations.service';
import { OrganizationLifecycleService } from './organization-lifecycle.service';
import { ORGANIZATION_DOC } from '../organizations/organizations.serializer';
import type { OrganizationEntity } from '../organizations/entities/organization.entity';
import { Sortable } from '../common/jsonapi/sort';
import { Endpoint } from '../http/endpoint';

const TYPE = { types: ['organizations'] };
/** The relationship's name (`default_project` is accepted as well, see parseInclude). */
const INCLUDES = ['default-project'];

@ApiTags('organizations')
@ApiBearerAuth()
@Controller(`${API_V2}/organizations`)
export class OrganizationsController {
  constructor(
    private readonly organizations: OrganizationsService,
    private readonly lifecycle: OrganizationLifecycleService,
    private readonly projects: ProjectsService,
  ) {}

  private async one(
    p: Principal,
    org: OrganizationEntity,
    include: string[] = [],
  ): Promise<ResourceDocument> {
    const [data] = await this.organizations.resourcesOf([
      { org, owner: await this.organizations.isOwner(p, org.id) },
    ]);
    return new ResourceDocument(data, await this.included(p, [data], include));
  }

  /** The Default Projects the caller may read, when `include=default-project` asks for them. */
  private async included(p: Principal, data: ResourceObject[], include: string[]) {
    if (!include.includes('default-project')) return undefined;
    const ids = data.flatMap((o) => {
      const linkage = o.relationships?.['default-project']?.data;
      return linkage && !Array.isArray(linkage) ? [linkage.id] : [];
    });
    return this.projects.readableResources(p, ids);
  }

  @Get()
  @Sortable({ name: 'name', 'created-at': 'createdAt' }, 'name')
  @Endpoint({ list: [ORGANIZATION_DOC, { includes: INCLUDES, includedDocs: [PROJECT_DOC] }] })
  async list(
    @CurrentPrincipal() p: Principal,
    @Paging() paging: PageParams,
    @Includes(INCLUDES) include: string[],
  ): Promise<CollectionDocument> {
    const page = await this.lifecycle.list(p, paging);
    const owned = await this.organizations.ownedAmong(p, page.items);
    const data = await this.organizations.resourcesOf(
      page.items.map((org) => ({ org, owner: owned.has(org.id) })),
    );
    return new CollectionDocument(data, pageResult(page), await this.included(p, data, include));
  }

  @Post()
  @Endpoint({
    effect: 'changes-access',
    create: [ORGANIZATION_DOC, { writable: ['name', 'email', 'edition'] }],
  })
  async create(
    @CurrentPrincipal() p: Principal,
    @JsonApiBody(CreateOrganizationAttributes, TYPE) body: ParsedBody<CreateOrganizationAttributes>,
  ): Promise<ResourceDocument> {
    return this.one(p, await this.lifecycle.create(p, body));
  }

  @Get(':name')
  @Endpoint({ show: [ORGANIZATION_DOC, INCLUDES, [PROJECT_DOC]] })
  async show(
    @CurrentPrincipal() p: Principal,
    @Param('name') name: string,
    @Includes(INCLUDES) include: string[],
  ): Promise<ResourceDocument> {
    return this.one(p, await this.organizations.requireVisible(p, name), include);
  }

  @Patch(':name')
  @Endpoint({
    effect: 'changes-access',
    update: [ORGANIZATION_DOC, { writable: ['name', 'email', 'edition'] }],
  })
  async update(
    @CurrentPrincipal() p: Principal,
    @Param('name') name: string,
    @JsonApiBody(UpdateOrganizationAttributes, TYPE) body: ParsedBody<UpdateOrganizationAttributes>,
  ): Promise<ResourceDocument> {
    return this.one(p, await this.lifecycle.update(p, name, body));
  }

  @Delete(':name')
  @Endpoint({ effect: 'changes-access', delete: true })
  async remove(@CurrentPrincipal() p: Principal, @Param('name') name: string): Promise<void> {
    await this.lifecycle.delete(p, name);
  }
}
