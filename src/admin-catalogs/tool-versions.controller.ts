import { Controller, Delete, Get, Param, Patch, Post, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { API_V2 } from '../common/api-prefix';
import { pageResult } from '../common/sql/paginate';
import { JsonApiBody, ParsedBody } from '../common/jsonapi/body';
import { CollectionDocument, ResourceDocument } from '../common/jsonapi/document';
import { PageParams } from '../common/jsonapi/pagination';
import { Paging, QueryValue } from '../common/jsonapi/query';
import { CATALOG_ROUTES, CatalogRoute } from './catalogs';
import {
  CreateToolVersionAttributes,
  UpdateToolVersionAttributes,
  WRITABLE_ATTRIBUTES,
} from './dto/tool-version-attributes.dto';
import { SiteAdminGuard } from './site-admin.guard';
import { serializeToolVersion, toolVersionDoc } from './tool-versions.serializer';
import { ToolVersionsService, ToolVersionView } from './tool-versions.service';
import { SelfHostedOnlyDocs } from '../http/self-hosted-only';
import { Sortable } from '../common/jsonapi/sort';
import { Endpoint } from '../http/endpoint';

/**
 * The routes of one catalog under one name; every catalog and every name it is served under (the
 * contract's and the real service's) share this one implementation. Bodies may carry either type.
 */
function catalogController(route: CatalogRoute) {
  const { catalog, name } = route;
  const doc = toolVersionDoc(route);
  const body = { types: [...new Set([name, catalog])] };
  const writable = { writable: WRITABLE_ATTRIBUTES };
  const show = (view: ToolVersionView) => serializeToolVersion(view, name);

  @ApiTags('admin catalogs')
  @ApiBearerAuth()
  @UseGuards(SiteAdminGuard)
  @SelfHostedOnlyDocs()
  @Controller(`${API_V2}/admin/${name}`)
  class CatalogController {
    constructor(readonly versions: ToolVersionsService) {}

    @Get()
    @Sortable({ version: 'version', 'created-at': 'createdAt' }, 'version')
    @Endpoint({
      list: [
        doc,
        {
          query: {
            'filter[version]': 'exact version; takes precedence over search[version]',
            'search[version]': 'substring of the version',
          },
        },
      ],
    })
    async list(
      @Paging() paging: PageParams,
      @QueryValue('filter[version]') version?: string,
      @QueryValue('search[version]') search?: string,
    ): Promise<CollectionDocument> {
      const page = await this.versions.list(catalog, { version, search }, paging);
      return new CollectionDocument(page.items.map(show), pageResult(page));
    }

    @Post()
    @Endpoint({ effect: 'leaves-access-alone', create: [doc, writable] })
    async create(
      @JsonApiBody(CreateToolVersionAttributes, body) req: ParsedBody<CreateToolVersionAttributes>,
    ): Promise<ResourceDocument> {
      return new ResourceDocument(show(await this.versions.create(catalog, req.attributes)));
    }

    @Get(':id')
    @Endpoint({ show: [doc] })
    async show(@Param('id') id: string): Promise<ResourceDocument> {
      return new ResourceDocument(show(await this.versions.show(catalog, id)));
    }

    @Patch(':id')
    @Endpoint({ effect: 'leaves-access-alone', update: [doc, writable] })
    async update(
      @Param('id') id: string,
      @JsonApiBody(UpdateToolVersionAttributes, body) req: ParsedBody<UpdateToolVersionAttributes>,
    ): Promise<ResourceDocument> {
      return new ResourceDocument(show(await this.versions.update(catalog, id, req.attributes)));
    }

    @Delete(':id')
    @Endpoint({ effect: 'leaves-access-alone', delete: [422] })
    async remove(@Param('id') id: string): Promise<void> {
      await this.versions.delete(catalog, id);
    }
  }
  return CatalogController;
}

/** /api/v2/admin/engine-versions */
export class EngineVersionsController extends catalogController(CATALOG_ROUTES.engineVersions) {}

/** /api/v2/admin/policy-engine-versions */
export class PolicyEngineVersionsController extends catalogController(CATALOG_ROUTES.policyEngineVersions) {}

/** /api/v2/admin/terraform-versions: the engine catalog under the real service's name. */
export class TerraformVersionsController extends catalogController(CATALOG_ROUTES.terraformVersions) {}

/** /api/v2/admin/opa-versions: the policy-engine catalog under the real service's name. */
export class OpaVersionsController extends catalogController(CATALOG_ROUTES.opaVersions) {}

/** Every catalog route, for the module's controllers and its self-hosted-only middleware. */
export const CATALOG_CONTROLLERS = [
  EngineVersionsController,
  PolicyEngineVersionsController,
  TerraformVersionsController,
  OpaVersionsController,
];
