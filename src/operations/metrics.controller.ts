import { Controller, Get, Header } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { collectDefaultMetrics } from 'prom-client';
import { Endpoint } from '../api-docs/endpoint';
import { API_TAG } from '../api-docs/api-tags';
import { MetricsService } from '../metrics/metrics.service';

/** `GET /metrics` for Prometheus: the service's metrics plus the process's own. */
@ApiTags(API_TAG.operations)
@Controller('metrics')
export class MetricsController {
  constructor(private readonly metrics: MetricsService) {
    collectDefaultMetrics({ register: metrics.registry });
  }

  @Get()
  @Header('Content-Type', 'text/plain; version=0.0.4; charset=utf-8')
  @Endpoint({
    summary: 'Prometheus metrics',
    produces: 'text/plain',
    answers: { raw: { description: 'Metrics in the Prometheus text format' } },
  })
  scrape(): Promise<string> {
    return this.metrics.registry.metrics();
  }
}
