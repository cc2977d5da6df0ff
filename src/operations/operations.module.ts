import { Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { MetricsController } from './metrics.controller';
import { HealthController } from './health.controller';

/** Operations endpoints of the standalone app, outside the API prefixes: health and metrics. */
@Module({
  imports: [TerminusModule.forRoot({ logger: false })],
  controllers: [HealthController, MetricsController],
})
export class OperationsModule {}
