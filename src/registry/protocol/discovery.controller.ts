import { Controller, Get, Header } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Public } from '../../common/auth/public.decorator';
import { PublicDocs } from '../../http/openapi-document';

/** Remote service discovery: where the module and provider registry protocols and the API live. */
export const DISCOVERY = {
  'modules.v1': '/api/registry/v1/modules/',
  'providers.v1': '/api/registry/v1/providers/',
  'tfe.v2': '/api/v2/',
  'tfe.v2.1': '/api/v2/',
  'tfe.v2.2': '/api/v2/',
} as const;

@ApiTags('registry-protocol')
@Public()
@PublicDocs()
@Controller('.well-known')
export class DiscoveryController {
  @Get('terraform.json')
  @Header('Cache-Control', 'public, max-age=300')
  @ApiOperation({ summary: 'Service discovery document (no authentication)' })
  @ApiOkResponse({
    schema: {
      type: 'object',
      properties: Object.fromEntries(Object.keys(DISCOVERY).map((k) => [k, { type: 'string' }])),
      example: DISCOVERY,
    },
  })
  discover(): typeof DISCOVERY {
    return DISCOVERY;
  }
}
