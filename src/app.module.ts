import { DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { LoggerModule } from 'nestjs-pino';
import type { AppConfig } from './config/app-config';
import { CtaOrchestrationModule } from './cta-orchestration.module';
import { dataSourceOptions } from './orchestration-schema';
import { OperationsModule } from './operations/operations.module';
import { AdminKeyGuard, ApiKeyGuard } from './security/api-key.guard';
import { APP_LOGGER, createAppLogger } from './common/app-logger';

/** The standalone service: configuration, database, logs, health, and the orchestration module. */
@Module({})
export class AppModule {
  static forRoot(config: AppConfig): DynamicModule {
    const logger = createAppLogger(config.logLevel);
    return {
      module: AppModule,
      providers: [{ provide: APP_LOGGER, useValue: logger }],
      imports: [
        LoggerModule.forRoot({
          // Nest's logger only. Access lines come from a Fastify hook (configureHttpApp): the
          // request middleware (middie and an AsyncLocalStorage context around every request)
          // cost the SDK launch about a sixth of its CPU even on the routes it excluded.
          forRoutes: [],
          pinoHttp: { logger },
        }),
        TypeOrmModule.forRoot({ ...dataSourceOptions(config.dbUrl, config.dbMigrationsRun), retryAttempts: 3, retryDelay: 1000 }),
        OperationsModule,
        CtaOrchestrationModule.forRoot({
          adminPrefix: config.adminPrefix,
          adminPrefixAliases: config.adminPrefixAliases,
          sdkPrefix: config.sdkPrefix,
          schedulerIntervalMs: config.schedulerIntervalMs,
          cacheRevalidateMs: config.cacheRevalidateMs,
          catalogueCacheMaxTenants: config.catalogueCacheMaxTenants,
          maxMachinesPerCta: config.maxMachinesPerCta,
          maxUserStateBytes: config.maxUserStateBytes,
          ctaTimeToleranceMs: config.ctaTimeToleranceMs,
          ctaTimeHorizonDays: config.ctaTimeHorizonDays,
          auditRetentionDays: config.auditRetentionDays,
          adminDefaultUser: config.adminDefaultUser ?? undefined,
          approvalsRequired: config.approvalsRequired,
          adminGuards: config.adminApiKeys.length > 0 ? [new AdminKeyGuard(config.adminApiKeys)] : [],
          sdkGuards: config.sdkApiKeys.length > 0 ? [new ApiKeyGuard(config.sdkApiKeys)] : [],
          appUserTokens: config.sdkAppUserTokens ?? undefined,
        }),
      ],
    };
  }
}
