import { Controller, Delete, Get, Param, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { API_V2 } from '../../common/api-prefix';
import { CurrentPrincipal } from '../../common/auth/current-principal.decorator';
import { Principal } from '../../common/auth/principal';
import { JsonApiBody, ParsedBody } from '../../common/jsonapi/body';
import { ResourceDocument } from '../../common/jsonapi/document';
import { ApiErrors, str } from '../../common/jsonapi/openapi';
import { QueryValue } from '../../common/jsonapi/query';
import { LinkOrigin } from '../../storage/link-origin.decorator';
import { CreateModuleVersionAttributes } from './module-attributes.dto';
import { ApiModuleParams, MODULE_PATH_PARAMS, MODULE_ROUTE, ModulePathParam } from './module-route-params';
import { ModuleVersionsService } from './module-versions.service';
import { MODULE_VERSION_DOC } from './registry-modules.serializer';
import { ModulePath } from './registry-modules.service';
import { Endpoint } from '../../http/endpoint';

/** The official client sends `registry-module-versions`; an empty or missing type is accepted too. */
const BODY = { types: ['registry-module-versions'], typeRequired: false };
const WRITABLE = {
  writable: ['version', 'commit-sha'],
  requestOnly: { 'commit-sha': { ...str('Accepted and not stored', { maxLength: 64 }), nullable: true } },
};

@ApiTags('registry-modules')
@ApiBearerAuth()
@Controller(API_V2)
export class ModuleVersionsController {
  constructor(private readonly versions: ModuleVersionsService) {}

  @Post(`${MODULE_ROUTE}/versions`)
  @ApiOperation({ summary: 'Create a version; PUT its tar.gz to the returned one-hour `links.upload`' })
  @ApiModuleParams(...MODULE_PATH_PARAMS)
  @Endpoint({ effect: 'leaves-access-alone', create: [MODULE_VERSION_DOC, WRITABLE] })
  @ApiErrors(403)
  async create(
    @CurrentPrincipal() p: Principal,
    @ModulePathParam() path: ModulePath,
    @JsonApiBody(CreateModuleVersionAttributes, BODY) body: ParsedBody<CreateModuleVersionAttributes>,
    @LinkOrigin() origin: string,
  ): Promise<ResourceDocument> {
    return new ResourceDocument(this.versions.resource(origin, await this.versions.create(p, path, body)));
  }

  /** The reference's older route, which the official Go client still uses to create versions. */
  @Post('registry-modules/:org/:name/:provider/versions')
  @ApiOperation({ summary: 'Create a version of a private module (the older route, same answer)' })
  @ApiModuleParams('org', 'name', 'provider')
  @Endpoint({ effect: 'leaves-access-alone', create: [MODULE_VERSION_DOC, WRITABLE] })
  async createOlderRoute(
    @CurrentPrincipal() p: Principal,
    @ModulePathParam() path: ModulePath,
    @JsonApiBody(CreateModuleVersionAttributes, BODY) body: ParsedBody<CreateModuleVersionAttributes>,
    @LinkOrigin() origin: string,
  ): Promise<ResourceDocument> {
    return new ResourceDocument(this.versions.resource(origin, await this.versions.create(p, path, body)));
  }

  @Get(`${MODULE_ROUTE}/version`)
  @ApiOperation({ summary: 'Show one version of a private module (`module_version` names it)' })
  @ApiModuleParams(...MODULE_PATH_PARAMS)
  @ApiQuery({ name: 'module_version', required: true, type: String })
  @Endpoint({ show: [MODULE_VERSION_DOC] })
  @ApiErrors(403)
  async show(
    @CurrentPrincipal() p: Principal,
    @ModulePathParam() path: ModulePath,
    @LinkOrigin() origin: string,
    @QueryValue('module_version') version?: string,
  ): Promise<ResourceDocument> {
    return new ResourceDocument(this.versions.resource(origin, await this.versions.read(p, path, version)));
  }

  @Delete(`${MODULE_ROUTE}/:version`)
  @ApiOperation({
    summary:
      'Delete a version and its archive (the last version takes its module with it, as in the reference)',
  })
  @ApiModuleParams(...MODULE_PATH_PARAMS, 'version')
  @Endpoint({ effect: 'leaves-access-alone', delete: [403] })
  async remove(
    @CurrentPrincipal() p: Principal,
    @ModulePathParam() path: ModulePath,
    @Param('version') version: string,
  ): Promise<void> {
    await this.versions.delete(p, path, version);
  }

  @Post('registry-modules/actions/delete/:org/:name/:provider/:version')
  @ApiOperation({ summary: 'Delete a version of a private module (older clients’ route)' })
  @ApiModuleParams('org', 'name', 'provider', 'version')
  @Endpoint({ effect: 'leaves-access-alone', delete: [403] })
  async removeDeprecated(
    @CurrentPrincipal() p: Principal,
    @ModulePathParam() path: ModulePath,
    @Param('version') version: string,
  ): Promise<void> {
    await this.versions.delete(p, path, version);
  }
}
