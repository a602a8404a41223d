import { Controller, Delete, Get, Param, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { API_V2 } from '../../common/api-prefix';
import { CurrentPrincipal } from '../../common/auth/current-principal.decorator';
import { Principal } from '../../common/auth/principal';
import { pageResult } from '../../common/sql/paginate';
import { JsonApiBody, ParsedBody } from '../../common/jsonapi/body';
import { CollectionDocument, Included, ResourceDocument } from '../../common/jsonapi/document';
import { enumOf } from '../../common/jsonapi/openapi';
import { PageParams } from '../../common/jsonapi/pagination';
import { Includes, Paging, QueryValue } from '../../common/jsonapi/query';
import { LinkOrigin } from '../../storage/link-origin.decorator';
import { ApiRegistryParams, PROVIDER_ROUTE, RegistryPath } from '../route-params';
import { ProviderVersionsService } from '../versions/provider-versions.service';
import { CreateRegistryProviderAttributes } from './registry-provider-attributes.dto';
import { REGISTRY_PROVIDER_DOC, serializeProvider } from './registry-providers.serializer';
import { ProviderPath, ProviderView, RegistryProvidersService } from './registry-providers.service';
import { Sortable } from '../../common/jsonapi/sort';
import { Endpoint } from '../../http/endpoint';

const INCLUDES = ['registry-provider-versions'];

const toResource = (v: ProviderView) =>
  serializeProvider(
    v.provider,
    v.organization.name,
    v.canManage,
    v.versions.map((x) => x.id),
  );

@ApiTags('registry-providers')
@ApiBearerAuth()
@Controller(API_V2)
export class RegistryProvidersController {
  constructor(
    private readonly providers: RegistryProvidersService,
    private readonly versions: ProviderVersionsService,
  ) {}

  private async included(origin: string, views: ProviderView[], include: string[]) {
    if (!include.includes('registry-provider-versions')) return undefined;
    const resources = await this.versions.resources(
      origin,
      views.map((ctx) => ({ ctx, versions: ctx.versions })),
    );
    return new Included().add(...resources).toArray();
  }

  @Get('organizations/:org/registry-providers')
  @Sortable({ name: 'name', 'created-at': 'createdAt' }, 'name, then registry-name and namespace')
  @Endpoint({
    list: [
      REGISTRY_PROVIDER_DOC,
      {
        includes: INCLUDES,
        query: {
          q: 'substring of the provider name or namespace',
          'filter[registry_name]': {
            description: 'only providers of this registry',
            schema: enumOf(['private', 'public']),
          },
        },
      },
    ],
  })
  async list(
    @CurrentPrincipal() p: Principal,
    @Param('org') org: string,
    @Paging() paging: PageParams,
    @Includes(INCLUDES) include: string[],
    @LinkOrigin() origin: string,
    @QueryValue('q') search?: string,
    @QueryValue('filter[registry_name]') registryName?: string,
  ): Promise<CollectionDocument> {
    const page = await this.providers.list(p, org, { search, registryName }, paging);
    return new CollectionDocument(
      page.items.map(toResource),
      pageResult(page),
      await this.included(origin, page.items, include),
    );
  }

  @Post('organizations/:org/registry-providers')
  @Endpoint({
    effect: 'leaves-access-alone',
    create: [REGISTRY_PROVIDER_DOC, { writable: ['name', 'namespace', 'registry-name'] }],
  })
  async create(
    @CurrentPrincipal() p: Principal,
    @Param('org') org: string,
    @JsonApiBody(CreateRegistryProviderAttributes, { types: ['registry-providers'] })
    body: ParsedBody<CreateRegistryProviderAttributes>,
  ): Promise<ResourceDocument> {
    return new ResourceDocument(toResource(await this.providers.create(p, org, body)));
  }

  @Get(PROVIDER_ROUTE)
  @ApiRegistryParams('provider')
  @Endpoint({ show: [REGISTRY_PROVIDER_DOC, INCLUDES] })
  async show(
    @CurrentPrincipal() p: Principal,
    @RegistryPath() path: ProviderPath,
    @Includes(INCLUDES) include: string[],
    @LinkOrigin() origin: string,
  ): Promise<ResourceDocument> {
    const view = await this.providers.show(p, path);
    return new ResourceDocument(toResource(view), await this.included(origin, [view], include));
  }

  @Delete(PROVIDER_ROUTE)
  @ApiRegistryParams('provider')
  @Endpoint({ effect: 'leaves-access-alone', delete: true })
  async remove(@CurrentPrincipal() p: Principal, @RegistryPath() path: ProviderPath): Promise<void> {
    await this.providers.delete(p, path);
  }
}
