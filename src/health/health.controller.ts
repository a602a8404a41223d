import { Controller, Get, Header, HttpCode } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { HealthCheck, HealthCheckService, TypeOrmHealthIndicator } from '@nestjs/terminus';
import { API_V2 } from '../common/api-prefix';
import { Public } from '../common/auth/public.decorator';
import { PublicDocs } from '../http/openapi-document';

export const API_VERSION = '2.6';

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
  ready() {
    return this.health.check([() => this.db.pingCheck('database', { timeout: 2000 })]);
  }

  @Get(`${API_V2}/ping`)
  @HttpCode(204)
  @Header('TFP-API-Version', API_VERSION)
  @ApiOperation({ summary: 'API version probe used by official clients; no authentication' })
  @ApiResponse({
    status: 204,
    headers: { 'TFP-API-Version': { schema: { type: 'string', example: API_VERSION } } },
  })
  ping(): void {}
}
