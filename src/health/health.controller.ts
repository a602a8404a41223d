import { Controller, Get, Header, HttpCode } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { HealthCheck, HealthCheckService, TypeOrmHealthIndicator } from '@nestjs/terminus';
import { API_V2 } from '../common/api-prefix';
import { Public } from '../common/auth/public.decorator';
import { ApiErrors } from '../common/jsonapi/openapi';
import { PublicDocs } from '../http/openapi-document';
import { PLINTH_VERSION } from './plinth-version';

export const API_VERSION = '2.6';

/**
 * The name in `TFP-AppName`. The real service's clients treat exactly "HCP Terraform" as the
 * cloud and anything else as a self-hosted enterprise install, whose admin APIs they then use.
 */
export const APP_NAME = 'Plinth';

@ApiTags('health')
@Public()
@PublicDocs()
@Controller()
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly db: TypeOrmHealthIndicator,
  ) {}

  @Get('healthz')
  @ApiOperation({ summary: 'Liveness: the process answers' })
  @HealthCheck()
  live() {
    return this.health.check([]);
  }

  @Get('readyz')
  @ApiOperation({ summary: 'Readiness: the database answers a ping within 2 s' })
  @HealthCheck()
  // The 503 leaves through the one exception filter: a JSON:API error document.
  @ApiErrors(503)
  ready() {
    return this.health.check([() => this.db.pingCheck('database', { timeout: 2000 })]);
  }

  @Get(`${API_V2}/ping`)
  @HttpCode(204)
  @Header('TFP-API-Version', API_VERSION)
  @Header('TFP-AppName', APP_NAME)
  @Header('X-TFE-Version', PLINTH_VERSION)
  @ApiOperation({
    summary: 'API version probe used by official clients; no authentication',
    description:
      "Presents as a self-hosted install: `TFP-AppName` is not the cloud name, `X-TFE-Version` is Plinth's version.",
  })
  @ApiResponse({
    status: 204,
    headers: {
      'TFP-API-Version': { schema: { type: 'string', example: API_VERSION } },
      'TFP-AppName': { schema: { type: 'string', example: APP_NAME } },
      'X-TFE-Version': { schema: { type: 'string', example: PLINTH_VERSION } },
    },
  })
  ping(): void {}
}
