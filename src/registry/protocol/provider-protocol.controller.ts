import { Controller, Get, Param, UseFilters } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal } from '../../common/auth/current-principal.decorator';
import { Principal } from '../../common/auth/principal';
import { LinkOrigin } from '../../storage/link-origin.decorator';
import { ProtocolDownload, ProtocolVersion, ProviderProtocolService } from './provider-protocol.service';
import { registryProtocolExceptionFilter } from './registry-protocol.filter';

const ERRORS = {
  type: 'object',
  properties: { errors: { type: 'array', items: { type: 'string' }, example: ['Not Found'] } },
} as const;

const platform = {
  type: 'object',
  properties: { os: { type: 'string' }, arch: { type: 'string' } },
} as const;
const strings = { type: 'array', items: { type: 'string' } } as const;

/** The provider registry protocol (`providers.v1`), as consumer tools speak it: plain JSON. */
@ApiTags('registry-protocol')
@ApiBearerAuth()
@UseFilters(registryProtocolExceptionFilter)
@Controller('api/registry/v1/providers')
export class ProviderProtocolController {
  constructor(private readonly protocol: ProviderProtocolService) {}

  @Get(':namespace/:name/versions')
  @ApiOperation({ summary: 'Usable versions of a private provider with their ready platforms' })
  @ApiOkResponse({
    schema: {
      type: 'object',
      properties: {
        versions: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              version: { type: 'string' },
              protocols: strings,
              platforms: { type: 'array', items: platform },
            },
          },
        },
      },
    },
  })
  @ApiResponse({ status: 401, schema: ERRORS })
  @ApiResponse({ status: 404, schema: ERRORS })
  versions(
    @CurrentPrincipal() p: Principal,
    @Param('namespace') namespace: string,
    @Param('name') name: string,
  ): Promise<{ versions: ProtocolVersion[] }> {
    return this.protocol.listVersions(p, namespace, name);
  }

  @Get(':namespace/:name/:version/download/:os/:arch')
  @ApiOperation({ summary: 'Where to fetch one platform of a usable version, and the key that signed it' })
  @ApiOkResponse({
    schema: {
      type: 'object',
      properties: {
        protocols: strings,
        os: { type: 'string' },
        arch: { type: 'string' },
        filename: { type: 'string' },
        download_url: { type: 'string', format: 'uri' },
        shasums_url: { type: 'string', format: 'uri' },
        shasums_signature_url: { type: 'string', format: 'uri' },
        shasum: { type: 'string' },
        signing_keys: {
          type: 'object',
          properties: {
            gpg_public_keys: {
              type: 'array',
              items: {
                type: 'object',
                properties: { key_id: { type: 'string' }, ascii_armor: { type: 'string' } },
              },
            },
          },
        },
      },
    },
  })
  @ApiResponse({ status: 401, schema: ERRORS })
  @ApiResponse({ status: 404, schema: ERRORS })
  download(
    @CurrentPrincipal() p: Principal,
    @LinkOrigin() origin: string,
    @Param('namespace') namespace: string,
    @Param('name') name: string,
    @Param('version') version: string,
    @Param('os') os: string,
    @Param('arch') arch: string,
  ): Promise<ProtocolDownload> {
    return this.protocol.download(p, origin, { namespace, name, version, os, arch });
  }
}
