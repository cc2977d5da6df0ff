import { DynamicModule, Global, Module } from '@nestjs/common';
import { ScheduleModule } from '@nestjs/schedule';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Clock } from './common/clock';
import { PeriodicJobsService } from './common/periodic-jobs.service';
import { orchestrationDataSourceProvider, ORCHESTRATION_DATA_SOURCE } from './database/orchestration-data-source';
import { ORCHESTRATION_ENTITIES } from './database/orchestration-schema';
import { TransactionRunner } from './database/transaction-runner';
import { MetricsService } from './metrics/metrics.service';
import { ORCHESTRATION_SETTINGS, OrchestrationSettings } from './orchestration-options';

/** What every feature module needs: settings, clock, the module's DataSource and transactions, the job runner, metrics. */
@Global()
@Module({})
export class OrchestrationCoreModule {
  static forSettings(settings: OrchestrationSettings): DynamicModule {
    return {
      module: OrchestrationCoreModule,
      imports: [
        // Registers the entities on the host's connection (with `autoLoadEntities`).
        TypeOrmModule.forFeature(ORCHESTRATION_ENTITIES, settings.connectionName),
        ScheduleModule.forRoot(),
      ],
      providers: [
        { provide: ORCHESTRATION_SETTINGS, useValue: settings },
        orchestrationDataSourceProvider(settings.connectionName),
        Clock,
        PeriodicJobsService,
        MetricsService,
        TransactionRunner,
      ],
      exports: [
        ORCHESTRATION_SETTINGS,
        ORCHESTRATION_DATA_SOURCE,
        Clock,
        PeriodicJobsService,
        MetricsService,
        TransactionRunner,
      ],
    };
  }
}
