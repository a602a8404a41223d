import { Controller, Delete, Get, Param, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { API_V2 } from '../../common/api-prefix';
import { CurrentPrincipal } from '../../common/auth/current-principal.decorator';
import { Principal } from '../../common/auth/principal';
import { JsonApiBody, ParsedBody } from '../../common/jsonapi/body';
import { CollectionDocument, ResourceDocument } from '../../common/jsonapi/document';
import { enumOf } from '../../common/jsonapi/openapi';
import { PageParams } from '../../common/jsonapi/pagination';
import { Paging, QueryValue } from '../../common/jsonapi/query';
import { pageResult } from '../../common/sql/paginate';
import { CreateRegistryModuleAttributes } from './module-attributes.dto';
import {
  ApiModuleParams,
  MODULE_NAME_ROUTE,
  MODULE_PATH_PARAMS,
  MODULE_ROUTE,
  ModulePathParam,
} from './module-route-params';
import { REGISTRY_MODULE_DOC, serializeModule } from './registry-modules.serializer';
import { ModulePath, ModuleView, RegistryModulesService } from './registry-modules.service';
import { Sortable } from '../../common/jsonapi/sort';
import { Endpoint } from '../../http/endpoint';

const toResource = (v: ModuleView) => serializeModule(v.module, v.organization.name, v.canManage, v.versions);

@ApiTags('registry-modules')
@ApiBearerAuth()
@Controller(API_V2)
export class RegistryModulesController {
  constructor(private readonly modules: RegistryModulesService) {}

  @Get('organizations/:org/registry-modules')
  @Sortable({ name: 'name', 'created-at': 'createdAt' }, 'name')
  @Endpoint({
    list: [
      REGISTRY_MODULE_DOC,
      {
        query: {
          q: 'substring of the module name, namespace or provider',
          'search[name]': 'substring of the module name',
          'filter[registry_name]': {
            description: '`private` or `public`',
            schema: enumOf(['private', 'public']),
          },
          'filter[provider]': 'the provider, exactly',
        },
      },
    ],
  })
  async list(
    @CurrentPrincipal() p: Principal,
    @Param('org') org: string,
    @Paging() paging: PageParams,
    @QueryValue('q') search?: string,
    @QueryValue('search[name]') name?: string,
    @QueryValue('filter[registry_name]') registryName?: string,
    @QueryValue('filter[provider]') provider?: string,
  ): Promise<CollectionDocument> {
    const page = await this.modules.list(p, org, { search, name, registryName, provider }, paging);
    return new CollectionDocument(page.items.map(toResource), pageResult(page));
  }

  @Post('organizations/:org/registry-modules')
  @ApiOperation({ summary: 'Create a module published by upload (no VCS connection)' })
  @Endpoint({
    effect: 'leaves-access-alone',
    create: [
      REGISTRY_MODULE_DOC,
      { writable: ['name', 'provider', 'namespace', 'registry-name', 'no-code'] },
    ],
  })
  async create(
    @CurrentPrincipal() p: Principal,
    @Param('org') org: string,
    @JsonApiBody(CreateRegistryModuleAttributes, { types: ['registry-modules'] })
    body: ParsedBody<CreateRegistryModuleAttributes>,
  ): Promise<ResourceDocument> {
    return new ResourceDocument(toResource(await this.modules.create(p, org, body)));
  }

  @Get(MODULE_ROUTE)
  @ApiModuleParams(...MODULE_PATH_PARAMS)
  @Endpoint({ show: [REGISTRY_MODULE_DOC] })
  async show(
    @CurrentPrincipal() p: Principal,
    @ModulePathParam() path: ModulePath,
  ): Promise<ResourceDocument> {
    return new ResourceDocument(toResource(await this.modules.show(p, path)));
  }

  @Delete(MODULE_ROUTE)
  @ApiOperation({ summary: 'Delete one provider of a private module, its versions and their archives' })
  @ApiModuleParams(...MODULE_PATH_PARAMS)
  @Endpoint({ effect: 'leaves-access-alone', delete: true })
  async removeProvider(@CurrentPrincipal() p: Principal, @ModulePathParam() path: ModulePath): Promise<void> {
    await this.modules.deleteProvider(p, path);
  }

  @Delete(MODULE_NAME_ROUTE)
  @ApiOperation({ summary: 'Delete a module: every provider, version and archive of the name' })
  @ApiModuleParams('org', 'registry_name', 'namespace', 'name')
  @Endpoint({ effect: 'leaves-access-alone', delete: true })
  async removeName(@CurrentPrincipal() p: Principal, @ModulePathParam() path: ModulePath): Promise<void> {
    await this.modules.deleteName(p, path);
  }

  /** The older clients' way to delete a whole module: a private module of the organization. */
  @Post('registry-modules/actions/delete/:org/:name')
  @ApiOperation({ summary: 'Delete a private module, every provider and version (older clients’ route)' })
  @ApiModuleParams('org', 'name')
  @Endpoint({ effect: 'leaves-access-alone', delete: true })
  async removeNameDeprecated(
    @CurrentPrincipal() p: Principal,
    @ModulePathParam() path: ModulePath,
  ): Promise<void> {
    await this.modules.deleteName(p, path);
  }

  @Post('registry-modules/actions/delete/:org/:name/:provider')
  @ApiOperation({ summary: 'Delete one provider of a private module (older clients’ route)' })
  @ApiModuleParams('org', 'name', 'provider')
  @Endpoint({ effect: 'leaves-access-alone', delete: true })
  async removeProviderDeprecated(
    @CurrentPrincipal() p: Principal,
    @ModulePathParam() path: ModulePath,
  ): Promise<void> {
    await this.modules.deleteProvider(p, path);
  }
}
