import { Controller, Get, Header } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { LOGIN_V1 } from '../../cli-login/login-v1';
import { Endpoint } from '../../http/endpoint';

/**
 * Remote service discovery: where the module and provider registry protocols, the API and
 * `terraform login` live.
 */
export const DISCOVERY = {
  'login.v1': LOGIN_V1,
  'modules.v1': '/api/registry/v1/modules/',
  'providers.v1': '/api/registry/v1/providers/',
  'tfe.v2': '/api/v2/',
  'tfe.v2.1': '/api/v2/',
  'tfe.v2.2': '/api/v2/',
} as const;

const LOGIN_V1_SCHEMA = {
  type: 'object',
  required: ['client', 'grant_types', 'authz', 'token', 'ports'],
  properties: {
    client: { type: 'string' },
    grant_types: { type: 'array', items: { type: 'string' } },
    authz: { type: 'string' },
    token: { type: 'string' },
    ports: { type: 'array', items: { type: 'integer' }, minItems: 2, maxItems: 2 },
  },
};

@ApiTags('registry-protocol')
@Controller('.well-known')
export class DiscoveryController {
  @Get('terraform.json')
  @Endpoint({ auth: 'public' })
  @Header('Cache-Control', 'public, max-age=300')
  @ApiOperation({ summary: 'Service discovery document (no authentication)' })
  @ApiOkResponse({
    schema: {
      type: 'object',
      required: Object.keys(DISCOVERY),
      properties: Object.fromEntries(
        Object.keys(DISCOVERY).map((k) => [k, k === 'login.v1' ? LOGIN_V1_SCHEMA : { type: 'string' }]),
      ),
      example: DISCOVERY,
    },
  })
  discover(): typeof DISCOVERY {
    return DISCOVERY;
  }
}
