import { Controller, Get, HttpCode } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { HealthCheck, HealthCheckService, TypeOrmHealthIndicator } from '@nestjs/terminus';
import { API_V2 } from '../common/api-prefix';
import { ApiErrors } from '../common/jsonapi/openapi';
import { API_VERSION, APP_NAME } from '../http/api-version-headers';
import { Endpoint } from '../http/endpoint';

@ApiTags('health')
@Controller()
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly db: TypeOrmHealthIndicator,
  ) {}

  @Get('healthz')
  @Endpoint({ auth: 'public' })
  @ApiOperation({ summary: 'Liveness: the process answers' })
  @HealthCheck()
  live() {
    return this.health.check([]);
  }

  @Get('readyz')
  @Endpoint({ auth: 'public' })
  @ApiOperation({ summary: 'Readiness: the database answers a ping within 2 s' })
  @HealthCheck()
  // The 503 leaves through the one exception filter: a JSON:API error document.
  @ApiErrors(503)
  ready() {
    return this.health.check([() => this.db.pingCheck('database', { timeout: 2000 })]);
  }

  @Get(`${API_V2}/ping`)
  @Endpoint({ auth: 'public' })
  @HttpCode(204)
  @ApiOperation({
    summary: 'API version probe used by official clients; no authentication',
    description:
      'Presents as a self-hosted install: `TFP-AppName` is not the cloud name. Every answer carries `TFP-API-Version` and `TFP-AppName`; `X-TFE-Version` is not sent.',
  })
  @ApiResponse({
    status: 204,
    headers: {
      'TFP-API-Version': { schema: { type: 'string', example: API_VERSION } },
      'TFP-AppName': { schema: { type: 'string', example: APP_NAME } },
    },
  })
  ping(): void {}
}
