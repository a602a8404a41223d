import { Controller, Delete, Get, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { API_V2 } from '../../common/api-prefix';
import { CurrentPrincipal } from '../../common/auth/current-principal.decorator';
import { Principal } from '../../common/auth/principal';
import { pageResult } from '../../common/sql/paginate';
import { JsonApiBody, ParsedBody } from '../../common/jsonapi/body';
import { CollectionDocument, ResourceDocument } from '../../common/jsonapi/document';
import { ApiErrors } from '../../common/jsonapi/openapi';
import { PageParams } from '../../common/jsonapi/pagination';
import { Paging } from '../../common/jsonapi/query';
import { LinkOrigin } from '../../storage/link-origin.decorator';
import { ProviderPath } from '../providers/registry-providers.service';
import { ApiRegistryParams, PROVIDER_ROUTE, RegistryPath } from '../route-params';
import { CreateProviderVersionAttributes } from './provider-version-attributes.dto';
import { PROVIDER_VERSION_DOC } from './provider-versions.serializer';
import { ProviderVersionsService, VersionContext, VersionPath } from './provider-versions.service';
import { Sortable } from '../../common/jsonapi/sort';
import { Endpoint } from '../../http/endpoint';

/** Official clients send no `type` here; an empty or missing one is accepted. */
const BODY = { types: ['registry-provider-versions'], typeRequired: false };

/**
 * Versions of a private provider. The list answers with and without a trailing slash (the
 * reference documents `/versions/`; Express routes are not strict about it).
 */
@ApiTags('registry-provider-versions')
@ApiBearerAuth()
@Controller(API_V2)
export class ProviderVersionsController {
  constructor(private readonly versions: ProviderVersionsService) {}

  private async one(origin: string, ctx: VersionContext): Promise<ResourceDocument> {
    const [resource] = await this.versions.resources(origin, [{ ctx, versions: [ctx.version] }]);
    return new ResourceDocument(resource);
  }

  @Post(`${PROVIDER_ROUTE}/versions`)
  @ApiOperation({ summary: 'Create a version; upload SHA256SUMS and its signature to the returned links' })
  @ApiRegistryParams('provider')
  @Endpoint({
    effect: 'leaves-access-alone',
    create: [PROVIDER_VERSION_DOC, { writable: ['version', 'key-id', 'protocols'] }],
  })
  @ApiErrors(403)
  async create(
    @CurrentPrincipal() p: Principal,
    @RegistryPath() path: ProviderPath,
    @JsonApiBody(CreateProviderVersionAttributes, BODY) body: ParsedBody<CreateProviderVersionAttributes>,
    @LinkOrigin() origin: string,
  ): Promise<ResourceDocument> {
    return this.one(origin, await this.versions.create(p, path, body));
  }

  @Get(`${PROVIDER_ROUTE}/versions`)
  @ApiRegistryParams('provider')
  @Sortable({ 'created-at': 'createdAt' }, 'created-at')
  @Endpoint({ list: [PROVIDER_VERSION_DOC] })
  @ApiErrors(403)
  async list(
    @CurrentPrincipal() p: Principal,
    @RegistryPath() path: ProviderPath,
    @Paging() paging: PageParams,
    @LinkOrigin() origin: string,
  ): Promise<CollectionDocument> {
    const { ctx, page } = await this.versions.list(p, path, paging);
    const data = await this.versions.resources(origin, [{ ctx, versions: page.items }]);
    return new CollectionDocument(data, pageResult(page));
  }

  @Get(`${PROVIDER_ROUTE}/versions/:version`)
  @ApiRegistryParams('version')
  @Endpoint({ show: [PROVIDER_VERSION_DOC] })
  @ApiErrors(403)
  async show(
    @CurrentPrincipal() p: Principal,
    @RegistryPath() path: VersionPath,
    @LinkOrigin() origin: string,
  ): Promise<ResourceDocument> {
    return this.one(origin, await this.versions.resolve(p, path, 'read'));
  }

  @Delete(`${PROVIDER_ROUTE}/versions/:version`)
  @ApiOperation({ summary: 'Delete a version, its platforms and every uploaded file' })
  @ApiRegistryParams('version')
  @Endpoint({ effect: 'leaves-access-alone', delete: [403] })
  async remove(@CurrentPrincipal() p: Principal, @RegistryPath() path: VersionPath): Promise<void> {
    await this.versions.delete(p, path);
  }
}
