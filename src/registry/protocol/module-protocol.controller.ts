import { Controller, Get, HttpCode, Param, Res, UseFilters } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { CurrentPrincipal } from '../../common/auth/current-principal.decorator';
import { Principal } from '../../common/auth/principal';
import { LinkOrigin } from '../../storage/link-origin.decorator';
import { ModuleProtocolService, ModuleVersionDetails, ModuleVersionList } from './module-protocol.service';
import { REGISTRY_PROTOCOL_ERRORS, registryProtocolExceptionFilter } from './registry-protocol.filter';

/** The module registry protocol (`modules.v1`), as consumer tools speak it: plain JSON and headers. */
@ApiTags('registry-protocol')
@ApiBearerAuth()
@UseFilters(registryProtocolExceptionFilter)
@Controller('api/registry/v1/modules')
export class ModuleProtocolController {
  constructor(private readonly protocol: ModuleProtocolService) {}

  @Get(':namespace/:name/:provider/versions')
  @ApiOperation({ summary: 'Versions of a private module whose archive is ready' })
  @ApiOkResponse({
    schema: {
      type: 'object',
      properties: {
        modules: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              versions: {
                type: 'array',
                items: { type: 'object', properties: { version: { type: 'string' } } },
              },
            },
          },
        },
      },
      example: { modules: [{ versions: [{ version: '1.0.0' }] }] },
    },
  })
  @ApiResponse({ status: 401, schema: REGISTRY_PROTOCOL_ERRORS })
  @ApiResponse({ status: 404, schema: REGISTRY_PROTOCOL_ERRORS })
  versions(
    @CurrentPrincipal() p: Principal,
    @Param('namespace') namespace: string,
    @Param('name') name: string,
    @Param('provider') provider: string,
  ): Promise<ModuleVersionList> {
    return this.protocol.listVersions(p, { namespace, name, provider });
  }

  /**
   * The one protocol answer carried by a header: 204 with `X-Terraform-Get`, which neither a
   * returned document nor @Redirect can say.
   */
  @Get(':namespace/:name/:provider/:version/download')
  @HttpCode(204)
  @ApiOperation({ summary: "Where to fetch a version's archive: 204 with X-Terraform-Get" })
  @ApiResponse({
    status: 204,
    description:
      'X-Terraform-Get: a signed link of the tar.gz, valid for at least an hour, with `?archive=tar.gz`',
  })
  @ApiResponse({ status: 401, schema: REGISTRY_PROTOCOL_ERRORS })
  @ApiResponse({ status: 404, schema: REGISTRY_PROTOCOL_ERRORS })
  async download(
    @CurrentPrincipal() p: Principal,
    @LinkOrigin() origin: string,
    @Param('namespace') namespace: string,
    @Param('name') name: string,
    @Param('provider') provider: string,
    @Param('version') version: string,
    @Res({ passthrough: true }) res: Response,
  ): Promise<void> {
    const location = await this.protocol.downloadLocation(p, origin, { namespace, name, provider, version });
    res.setHeader('X-Terraform-Get', location);
  }

  // Declared after `…/versions` and `…/download`, which this pattern would otherwise also match.
  @Get(':namespace/:name/:provider/:version')
  @ApiOperation({ summary: "A published version's details (the registry protocol's module shape)" })
  @ApiOkResponse({
    schema: {
      type: 'object',
      properties: {
        id: { type: 'string', example: 'acme/network/aws/1.0.0' },
        namespace: { type: 'string' },
        name: { type: 'string' },
        provider: { type: 'string' },
        version: { type: 'string' },
        published_at: { type: 'string', format: 'date-time' },
        root: { type: 'object' },
        providers: { type: 'array', items: { type: 'string' } },
        versions: { type: 'array', items: { type: 'string' } },
      },
    },
  })
  @ApiResponse({ status: 401, schema: REGISTRY_PROTOCOL_ERRORS })
  @ApiResponse({ status: 404, schema: REGISTRY_PROTOCOL_ERRORS })
  details(
    @CurrentPrincipal() p: Principal,
    @Param('namespace') namespace: string,
    @Param('name') name: string,
    @Param('provider') provider: string,
    @Param('version') version: string,
  ): Promise<ModuleVersionDetails> {
    return this.protocol.versionDetails(p, { namespace, name, provider, version });
  }
}
