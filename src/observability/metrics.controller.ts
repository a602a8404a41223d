import { Controller, Get, Header } from '@nestjs/common';
import { ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import { Registry } from 'prom-client';
import { Public } from '../common/auth/public.decorator';
import { METRICS_PATH, MetricsService } from './metrics.service';
import { PublicDocs } from '../http/openapi-document';

@ApiTags('health')
@Public()
@PublicDocs()
@Controller()
export class MetricsController {
  constructor(private readonly metrics: MetricsService) {}

  @Get(METRICS_PATH.slice(1))
  @Header('Content-Type', Registry.PROMETHEUS_CONTENT_TYPE)
  @Header('Cache-Control', 'no-store')
  @ApiProduces(Registry.PROMETHEUS_CONTENT_TYPE)
  @ApiOperation({
    summary: 'Prometheus metrics: requests by route and status, latency, DB pool, process',
  })
  scrape(): Promise<string> {
    return this.metrics.render();
  }
}
