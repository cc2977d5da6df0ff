import { DynamicModule, Global, Module, ModuleMetadata, Provider } from '@nestjs/common';
import { ScheduleModule } from '@nestjs/schedule';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuditLog } from './audit/audit-log.service';
import { Clock } from './common/clock';
import { PeriodicJobsService } from './scheduling/periodic-jobs.service';
import { orchestrationDataSourceProvider, ORCHESTRATION_DATA_SOURCE } from './database/orchestration-data-source';
import { ORCHESTRATION_ENTITIES } from './orchestration-schema';
import { TransactionRunner } from './database/transaction-runner';
import { MetricsService } from './metrics/metrics.service';
import { ORCHESTRATION_SETTINGS } from './orchestration-options';
import { ORCHESTRATION_PORTS } from './orchestration-ports';

/**
 * What every feature module needs: settings, clock, the module's DataSource and transactions, the job runner, metrics, the audit log,
 * and the ports features answer for each other (src/orchestration-ports.ts).
 */
@Global()
@Module({})
export class OrchestrationCoreModule {
  /** `settings` provide ORCHESTRATION_SETTINGS (from the host's options or its factory); `imports` export what they inject. */
  static forSettings(connectionName: string | undefined, settings: Provider[], imports: ModuleMetadata['imports'] = []): DynamicModule {
    return {
      module: OrchestrationCoreModule,
      imports: [
        ...imports,
        // Registers the entities on the host's connection (with `autoLoadEntities`).
        TypeOrmModule.forFeature(ORCHESTRATION_ENTITIES, connectionName),
        ScheduleModule.forRoot(),
      ],
      providers: [
        ...settings,
        orchestrationDataSourceProvider(connectionName),
        Clock,
        PeriodicJobsService,
        MetricsService,
        TransactionRunner,
        AuditLog,
        ...ORCHESTRATION_PORTS,
      ],
      exports: [
        ORCHESTRATION_SETTINGS,
        ORCHESTRATION_DATA_SOURCE,
        Clock,
        PeriodicJobsService,
        MetricsService,
        TransactionRunner,
        AuditLog,
        ...ORCHESTRATION_PORTS.map(({ provide }) => provide),
      ],
    };
  }
}
