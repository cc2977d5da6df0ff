import { ConfigurableModuleBuilder, DynamicModule, Module, Type } from '@nestjs/common';
import { AppUsersController } from './app-users/app-users.controller';
import { AppUsersModule } from './app-users/app-users.module';
import { ApprovalsController } from './approvals/approvals.controller';
import { ApprovalsModule } from './approvals/approvals.module';
import { AuditController } from './audit/audit.controller';
import { BehaviourTagsController } from './behaviour-tags/behaviour-tags.controller';
import { BehaviourTagsModule } from './behaviour-tags/behaviour-tags.module';
import { CatalogueModule } from './catalogue/catalogue.module';
import { CohortNamesController, CohortsController } from './cohorts/cohorts.controller';
import { CohortsModule } from './cohorts/cohorts.module';
import { CtaStatusController } from './cta-status/cta-status.controller';
import { CtaStatusModule } from './cta-status/cta-status.module';
import { CtaFiltersController, CtasController } from './ctas/ctas.controller';
import { CtasModule } from './ctas/ctas.module';
import { TestCtasController } from './ctas/test-ctas.controller';
import { mountControllers, routeRoots } from './http/mount-controllers';
import { EventsController } from './events/events.controller';
import { ExposurePolicyController } from './exposure-policy/exposure-policy.controller';
import { ExposurePolicyModule } from './exposure-policy/exposure-policy.module';
import { ExplainModule } from './explain/explain.module';
import { LaunchExplainController } from './explain/launch-explain.controller';
import { EventsModule } from './events/events.module';
import { ExperimentsController } from './experiments/experiments.controller';
import { ExperimentsModule } from './experiments/experiments.module';
import { InsightsController } from './insights/insights.controller';
import { InsightsModule } from './insights/insights.module';
import { NudgePreviewAdminController, NudgePreviewSdkController } from './nudge-preview/nudge-preview.controllers';
import { NudgePreviewModule } from './nudge-preview/nudge-preview.module';
import { OperatorViewController } from './operator-view/operator-view.controller';
import { WhoamiController } from './operator-view/whoami.controller';
import { OrchestrationCoreModule } from './orchestration-core.module';
import {
  CtaOrchestrationOptions,
  CtaOrchestrationRoutingOptions,
  CtaOrchestrationRuntimeOptions,
  ORCHESTRATION_SETTINGS,
  resolveModuleSettings,
  resolveRouting,
  resolveSettings,
  ROUTING_OPTION_NAMES,
} from './orchestration-options';
import { SdkStateController } from './sdk/sdk-state.controller';
import { SdkModule } from './sdk/sdk.module';
import { SimulateController } from './simulate/simulate.controller';
import { SimulateModule } from './simulate/simulate.module';
import { AppUserTokenGuard, appUserTokenVerifierProvider } from './security/app-user-token.guard';

/** Feature modules: their services, and the controllers they serve under each prefix. */
const FEATURE_MODULES: Type[] = [
  CatalogueModule,
  CtasModule,
  CtaStatusModule,
  ApprovalsModule,
  BehaviourTagsModule,
  CohortsModule,
  EventsModule,
  ExposurePolicyModule,
  NudgePreviewModule,
  SdkModule,
  AppUsersModule,
  ExplainModule,
  SimulateModule,
  InsightsModule,
  ExperimentsModule,
];
export const ADMIN_CONTROLLERS: Type[] = [
  CtasController,
  CtaFiltersController,
  // Approve stands before the status change in the console: with approvals required it comes first.
  ApprovalsController,
  CtaStatusController,
  TestCtasController,
  BehaviourTagsController,
  CohortsController,
  CohortNamesController,
  EventsController,
  ExposurePolicyController,
  NudgePreviewAdminController,
  AuditController,
  AppUsersController,
  LaunchExplainController,
  SimulateController,
  InsightsController,
  ExperimentsController,
  WhoamiController,
];
const SDK_CONTROLLERS: Type[] = [SdkStateController, NudgePreviewSdkController];

/** The first path segment of every admin route (`ctas`, `cohorts`, …): what the admin API occupies when served at the root. */
export const adminRouteRoots = (): string[] => routeRoots(ADMIN_CONTROLLERS);

/**
 * `forRoot(options)` and `forRootAsync({ useFactory | useClass | useExisting, imports, inject })`,
 * the runtime options under RUNTIME_OPTIONS. The routing options are "extras": plain values
 * in both, read here when the module is defined (every key listed, so `forRoot` keeps them out
 * of the runtime options; their defaults are `resolveRouting`'s).
 */
const RUNTIME_OPTIONS = Symbol('CTA_ORCHESTRATION_RUNTIME_OPTIONS');
const { ConfigurableModuleClass } = new ConfigurableModuleBuilder<CtaOrchestrationRuntimeOptions>({
  optionsInjectionToken: RUNTIME_OPTIONS,
})
  .setClassMethodName('forRoot')
  .setExtras<CtaOrchestrationRoutingOptions>(
    Object.fromEntries(ROUTING_OPTION_NAMES.map((name) => [name, undefined])),
    (definition, routingOptions): DynamicModule => {
      const routing = resolveRouting(routingOptions);
      const settings = {
        provide: ORCHESTRATION_SETTINGS,
        useFactory: (runtime: CtaOrchestrationRuntimeOptions) => resolveModuleSettings(runtime, routingOptions),
        inject: [RUNTIME_OPTIONS],
      };
      return {
        module: definition.module,
        // The options' providers (and the modules they inject from) sit in the global core, which every feature sees.
        imports: [
          OrchestrationCoreModule.forSettings(routing.connectionName, [...(definition.providers ?? []), settings], definition.imports),
          ...FEATURE_MODULES,
        ],
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
          // The view's page and assets need no key (its sign-in box is on the page): mounted without the admin guards.
          ...[routing.adminPrefix, ...routing.adminPrefixAliases].flatMap((prefix) =>
            mountControllers([OperatorViewController], { prefix, api: 'admin', documented: false, guards: [] }),
          ),
          ...mountControllers(SDK_CONTROLLERS, { prefix: routing.sdkPrefix, api: 'sdk', documented: true, guards: routing.sdkGuards }),
        ],
      };
    },
  )
  .build();

/**
 * The whole service as one importable module (docs/decisions/0019-importable-module.md). The standalone
 * `AppModule` is one host of it; a gateway is another. `forRootAsync` takes cohorts, cache,
 * scheduler and time limits from the host's providers (e.g. its config or cohort service);
 * prefixes, aliases, guards and the connection name are plain values beside them.
 */
@Module({})
export class CtaOrchestrationModule extends ConfigurableModuleClass {
  /** Everything at once; options that cannot work fail here, naming the option. */
  static forRoot(options: CtaOrchestrationOptions = {}): DynamicModule {
    resolveSettings(options);
    return super.forRoot(options);
  }
}
