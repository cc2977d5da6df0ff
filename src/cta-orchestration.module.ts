import { DynamicModule, FactoryProvider, Module, Type } from '@nestjs/common';
import { AuditController } from './audit/audit.controller';
import { BehaviourTagsController } from './behaviour-tags/behaviour-tags.controller';
import { BehaviourTagsModule } from './behaviour-tags/behaviour-tags.module';
import { CatalogueModule } from './catalogue/catalogue.module';
import { CohortsController } from './cohorts/cohorts.controller';
import { CohortsModule } from './cohorts/cohorts.module';
import { CtaStatusController } from './cta-status/cta-status.controller';
import { CtaStatusModule } from './cta-status/cta-status.module';
import { CtaFiltersController, CtasController } from './ctas/ctas.controller';
import { CtasModule } from './ctas/ctas.module';
import { TestCtasController } from './ctas/test-ctas.controller';
import { mountControllers } from './common/mount-controllers';
import { EventsController } from './events/events.controller';
import { EventsModule } from './events/events.module';
import { NudgePreviewAdminController, NudgePreviewSdkController } from './nudge-preview/nudge-preview.controllers';
import { NudgePreviewModule } from './nudge-preview/nudge-preview.module';
import { OrchestrationCoreModule } from './orchestration-core.module';
import {
  CtaOrchestrationAsyncOptions,
  CtaOrchestrationOptions,
  ORCHESTRATION_SETTINGS,
  OrchestrationRouting,
  OrchestrationSettings,
  resolveAsyncSettings,
  resolveRouting,
  resolveSettings,
} from './orchestration-options';
import { SdkStateController } from './sdk/sdk-state.controller';
import { SdkModule } from './sdk/sdk.module';
import { AppUserTokenGuard, appUserTokenVerifierProvider } from './security/app-user-token.guard';

/** Feature modules: their services, and the controllers they serve under each prefix. */
const FEATURE_MODULES: Type[] = [
  CatalogueModule,
  CtasModule,
  CtaStatusModule,
  BehaviourTagsModule,
  CohortsModule,
  EventsModule,
  NudgePreviewModule,
  SdkModule,
];
export const ADMIN_CONTROLLERS: Type[] = [
  CtasController,
  CtaFiltersController,
  CtaStatusController,
  TestCtasController,
  BehaviourTagsController,
  CohortsController,
  EventsController,
  NudgePreviewAdminController,
  AuditController,
];
const SDK_CONTROLLERS: Type[] = [SdkStateController, NudgePreviewSdkController];

/**
 * The whole service as one importable module (DESIGN §16). The standalone
 * `AppModule` is one host of it; a gateway is another.
 */
@Module({})
export class CtaOrchestrationModule {
  static forRoot(options: CtaOrchestrationOptions = {}): DynamicModule {
    const settings = resolveSettings(options);
    return CtaOrchestrationModule.define(settings, OrchestrationCoreModule.forSettings(settings));
  }

  /**
   * Cohorts, cache, scheduler and time limits from `useFactory` (e.g. the host's
   * config or its own cohort service, through `imports`/`inject`). Prefixes, aliases,
   * guards and the connection name are plain values beside it: Nest takes the
   * controllers and `forFeature` when the module is defined, before any factory runs.
   */
  static forRootAsync(options: CtaOrchestrationAsyncOptions): DynamicModule {
    const { imports, useFactory, inject, ...routingOptions } = options;
    const routing = resolveRouting(routingOptions);
    const settings: FactoryProvider<Promise<OrchestrationSettings>> = {
      provide: ORCHESTRATION_SETTINGS,
      useFactory: async (...args: unknown[]) => resolveAsyncSettings(await useFactory(...args), routingOptions),
      inject,
    };
    return CtaOrchestrationModule.define(routing, OrchestrationCoreModule.forSettingsProvider(routing.connectionName, settings, imports));
  }

  private static define(routing: OrchestrationRouting, core: DynamicModule): DynamicModule {
    return {
      module: CtaOrchestrationModule,
      imports: [core, ...FEATURE_MODULES],
      // The guard of the SDK state-machine routes and the verifier it asks.
      providers: [appUserTokenVerifierProvider, AppUserTokenGuard],
      controllers: [
        ...mountControllers(ADMIN_CONTROLLERS, {
          prefix: routing.adminPrefix,
          api: 'admin',
          documented: true,
          guards: routing.adminGuards,
        }),
        ...routing.adminPrefixAliases.flatMap((alias) =>
          mountControllers(ADMIN_CONTROLLERS, { prefix: alias, api: 'admin', documented: false, guards: routing.adminGuards }),
        ),
        ...mountControllers(SDK_CONTROLLERS, { prefix: routing.sdkPrefix, api: 'sdk', documented: true, guards: routing.sdkGuards }),
      ],
    };
  }
}
