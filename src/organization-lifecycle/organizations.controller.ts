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
import { Paging } from '../common/jsonapi/query';
import {
  CreateOrganizationAttributes,
  UpdateOrganizationAttributes,
} from './dto/organization-attributes.dto';
import { OrganizationsService } from '../organizations/organizations.service';
import { OrganizationLifecycleService } from './organization-lifecycle.service';
import { ORGANIZATION_DOC, serializeOrganization } from '../organizations/organizations.serializer';
import type { OrganizationEntity } from '../organizations/entities/organization.entity';
import { ChangesAccess } from '../http/write-effects';
import { Sortable } from '../common/jsonapi/sort';

const TYPE = { types: ['organizations'] };

@ApiTags('organizations')
@ApiBearerAuth()
@ChangesAccess()
@Controller(`${API_V2}/organizations`)
export class OrganizationsController {
  constructor(
    private readonly organizations: OrganizationsService,
    private readonly lifecycle: OrganizationLifecycleService,
  ) {}

  private async one(p: Principal, org: OrganizationEntity): Promise<ResourceDocument> {
    return new ResourceDocument(serializeOrganization(org, await this.organizations.isOwner(p, org.id)));
  }

  @Get()
  @Sortable({ name: 'name', 'created-at': 'createdAt' }, 'name')
  @ApiList(ORGANIZATION_DOC)
  async list(@CurrentPrincipal() p: Principal, @Paging() paging: PageParams): Promise<CollectionDocument> {
    const page = await this.lifecycle.list(p, paging);
    const owned = await this.organizations.ownedAmong(p, page.items);
    const data = page.items.map((o) => serializeOrganization(o, owned.has(o.id)));
    return new CollectionDocument(data, pageResult(page));
  }

  @Post()
  @ApiCreate(ORGANIZATION_DOC, { writable: ['name', 'email', 'edition'] })
  async create(
    @CurrentPrincipal() p: Principal,
    @JsonApiBody(CreateOrganizationAttributes, TYPE) body: ParsedBody<CreateOrganizationAttributes>,
  ): Promise<ResourceDocument> {
    return this.one(p, await this.lifecycle.create(p, body));
  }

  @Get(':name')
  @ApiShow(ORGANIZATION_DOC)
  async show(@CurrentPrincipal() p: Principal, @Param('name') name: string): Promise<ResourceDocument> {
    return this.one(p, await this.organizations.requireVisible(p, name));
  }

  @Patch(':name')
  @ApiUpdate(ORGANIZATION_DOC, { writable: ['name', 'email', 'edition'] })
  async update(
    @CurrentPrincipal() p: Principal,
    @Param('name') name: string,
    @JsonApiBody(UpdateOrganizationAttributes, TYPE) body: ParsedBody<UpdateOrganizationAttributes>,
  ): Promise<ResourceDocument> {
    return this.one(p, await this.lifecycle.update(p, name, body));
  }

  @Delete(':name')
  @ApiDelete()
  async remove(@CurrentPrincipal() p: Principal, @Param('name') name: string): Promise<void> {
    await this.lifecycle.delete(p, name);
  }
}
