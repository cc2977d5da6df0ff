import { DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CtaOrchestrationModule, ORCHESTRATION_MIGRATIONS } from 'cta-orchestration-service';
import { AdminKeyGuard } from './admin-key.guard';
import { GATEWAY_CONNECTION, GatewayConfig, gatewayDatabase } from './gateway-config';
import { CreatePremiumMembers1767300000000 } from './migrations/1767300000000-CreatePremiumMembers';
import { PremiumCohortProvider } from './premium-cohort.provider';
import { PremiumMemberEntity } from './premium-member.entity';

/** The gateway's own feature: its premium members, and the cohort provider reading them. */
@Module({
  imports: [TypeOrmModule.forFeature([PremiumMemberEntity], GATEWAY_CONNECTION)],
  providers: [PremiumCohortProvider],
  exports: [PremiumCohortProvider],
})
export class MembersModule {}

/**
 * A host gateway of the CTA orchestration module: its own named connection
 * (the module's entities join it through `autoLoadEntities`, its migrations run
 * with the gateway's), admin routes under `thunder` behind the gateway's guard,
 * SDK routes under `cta`, cohorts from the gateway's own table.
 */
@Module({})
export class GatewayModule {
  static forRoot(config: GatewayConfig): DynamicModule {
    return {
      module: GatewayModule,
      imports: [
        TypeOrmModule.forRoot({
          ...gatewayDatabase(config.databaseUrl),
          name: GATEWAY_CONNECTION,
          autoLoadEntities: true,
          migrations: [...ORCHESTRATION_MIGRATIONS, CreatePremiumMembers1767300000000],
          migrationsRun: true,
          synchronize: false,
        }),
        MembersModule,
        CtaOrchestrationModule.forRootAsync({
          connectionName: GATEWAY_CONNECTION,
          adminPrefix: 'thunder',
          sdkPrefix: 'cta',
          adminGuards: [new AdminKeyGuard(config.adminKey)],
          imports: [MembersModule],
          inject: [PremiumCohortProvider],
          useFactory: (cohortProvider: PremiumCohortProvider) => ({ cohortProvider, schedulerIntervalMs: 30_000 }),
        }),
      ],
    };
  }
}
