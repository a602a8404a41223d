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
import { ApiRegistryParams, PROVIDER_ROUTE, RegistryPath } from '../route-params';
import { PlatformPath, PlatformView, ProviderPlatformsService } from './provider-platforms.service';
import { CreateProviderPlatformAttributes } from './provider-version-attributes.dto';
import { PROVIDER_PLATFORM_DOC } from './provider-versions.serializer';
import { VersionPath } from './provider-versions.service';
import { Sortable } from '../../common/jsonapi/sort';
import { Endpoint } from '../../http/endpoint';

/** The field list names `registry-provider-platforms`, the reference sample the other; both (or none) go. */
const BODY = {
  types: ['registry-provider-platforms', 'registry-provider-version-platforms'],
  typeRequired: false,
};

const PLATFORMS = `${PROVIDER_ROUTE}/versions/:version/platforms`;

@ApiTags('registry-provider-platforms')
@ApiBearerAuth()
@Controller(API_V2)
export class ProviderPlatformsController {
  constructor(private readonly platforms: ProviderPlatformsService) {}

  private one(origin: string, view: PlatformView): ResourceDocument {
    return new ResourceDocument(this.platforms.resource(origin, view.ctx, view.platform));
  }

  @Post(PLATFORMS)
  @ApiOperation({ summary: 'Add a platform; upload its binary to the returned provider-binary-upload link' })
  @ApiRegistryParams('version')
  @Endpoint({
    effect: 'leaves-access-alone',
    create: [PROVIDER_PLATFORM_DOC, { writable: ['os', 'arch', 'shasum', 'filename'] }],
  })
  @ApiErrors(403)
  async create(
    @CurrentPrincipal() p: Principal,
    @RegistryPath() path: VersionPath,
    @JsonApiBody(CreateProviderPlatformAttributes, BODY) body: ParsedBody<CreateProviderPlatformAttributes>,
    @LinkOrigin() origin: string,
  ): Promise<ResourceDocument> {
    return this.one(origin, await this.platforms.create(p, path, body));
  }

  @Get(PLATFORMS)
  @ApiRegistryParams('version')
  @Sortable({ os: 'os', arch: 'arch', 'created-at': 'createdAt' }, 'created-at')
  @Endpoint({ list: [PROVIDER_PLATFORM_DOC] })
  @ApiErrors(403)
  async list(
    @CurrentPrincipal() p: Principal,
    @RegistryPath() path: VersionPath,
    @Paging() paging: PageParams,
    @LinkOrigin() origin: string,
  ): Promise<CollectionDocument> {
    const { ctx, page } = await this.platforms.list(p, path, paging);
    const data = page.items.map((x) => this.platforms.resource(origin, ctx, x));
    return new CollectionDocument(data, pageResult(page));
  }

  @Get(`${PLATFORMS}/:os/:arch`)
  @ApiRegistryParams('platform')
  @Endpoint({ show: [PROVIDER_PLATFORM_DOC] })
  @ApiErrors(403)
  async show(
    @CurrentPrincipal() p: Principal,
    @RegistryPath() path: PlatformPath,
    @LinkOrigin() origin: string,
  ): Promise<ResourceDocument> {
    return this.one(origin, await this.platforms.show(p, path));
  }

  @Delete(`${PLATFORMS}/:os/:arch`)
  @ApiOperation({ summary: 'Delete a platform and its binary' })
  @ApiRegistryParams('platform')
  @Endpoint({ effect: 'leaves-access-alone', delete: [403] })
  async remove(@CurrentPrincipal() p: Principal, @RegistryPath() path: PlatformPath): Promise<void> {
    await this.platforms.delete(p, path);
  }
}
