import { Global, Module } from '@nestjs/common';
import { HttpLogging, LOG_DESTINATION } from './http-logging';
import { MetricsController } from './metrics.controller';
import { MetricsService } from './metrics.service';

@Global()
@Module({
  controllers: [MetricsController],
  providers: [{ provide: LOG_DESTINATION, useValue: process.stdout }, HttpLogging, MetricsService],
  exports: [HttpLogging, MetricsService, LOG_DESTINATION],
})
export class ObservabilityModule {}
