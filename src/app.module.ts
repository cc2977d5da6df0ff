import { DynamicModule, Module, RequestMethod } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { LoggerModule } from 'nestjs-pino';
import type { AppConfig } from './config/app-config';
import { CtaOrchestrationModule } from './cta-orchestration.module';
import { dataSourceOptions } from './database/database-options';
import { OperationsModule } from './operations/operations.module';
import { ApiKeyGuard } from './security/api-key.guard';

/** The standalone service: configuration, database, logs, health, and the orchestration module. */
@Module({})
export class AppModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        LoggerModule.forRoot({
          // App launches and deltas are most of the traffic and the hot path: no per-request child logger
          // and access line for them (about a fifth of a launch's CPU). Their failures (5xx) are still logged.
          exclude: [{ method: RequestMethod.ALL, path: `${config.sdkPrefix}/*path` }],
          pinoHttp: {
            level: config.logLevel,
            // Fastify's request id (see createFastifyAdapter) names each request in every line.
            redact: ['req.headers.authorization', 'req.headers["x-api-key"]'],
            // The response's headers are the same security headers on every line: the status says enough.
            serializers: { res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }) },
          },
        }),
        TypeOrmModule.forRoot({ ...dataSourceOptions(config.dbUrl, config.dbMigrationsRun), retryAttempts: 3, retryDelay: 1000 }),
        OperationsModule,
        CtaOrchestrationModule.forRoot({
          adminPrefix: config.adminPrefix,
          adminPrefixAliases: config.adminPrefixAliases,
          sdkPrefix: config.sdkPrefix,
          schedulerIntervalMs: config.schedulerIntervalMs,
          cacheRevalidateMs: config.cacheRevalidateMs,
          ctaTimeToleranceMs: config.ctaTimeToleranceMs,
          ctaTimeHorizonDays: config.ctaTimeHorizonDays,
          adminGuards: config.adminApiKeys.length > 0 ? [new ApiKeyGuard(config.adminApiKeys)] : [],
          sdkGuards: config.sdkApiKeys.length > 0 ? [new ApiKeyGuard(config.sdkApiKeys)] : [],
        }),
      ],
    };
  }
}
