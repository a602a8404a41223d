import { Controller, Get, Header } from '@nestjs/common';
import { ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import { Registry } from 'prom-client';
import { METRICS_PATH, MetricsService } from './metrics.service';
import { Endpoint } from '../http/endpoint';

@ApiTags('health')
@Controller()
export class MetricsController {
  constructor(private readonly metrics: MetricsService) {}

  @Get(METRICS_PATH.slice(1))
  @Endpoint({ auth: 'public' })
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
