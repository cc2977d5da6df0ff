import { DynamicModule, Module, Type } from '@nestjs/common';
import { BehaviourTagsController } from './behaviour-tags/behaviour-tags.controller';
import { BehaviourTagsModule } from './behaviour-tags/behaviour-tags.module';
import { CatalogueModule } from './catalogue/catalogue.module';
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
import { CtaOrchestrationOptions, resolveSettings } from './orchestration-options';
import { SdkStateController } from './sdk/sdk-state.controller';
import { SdkModule } from './sdk/sdk.module';

/** Feature modules: their services, and the controllers they serve under each prefix. */
const FEATURE_MODULES: Type[] = [CatalogueModule, CtasModule, CtaStatusModule, BehaviourTagsModule, EventsModule, NudgePreviewModule, SdkModule];
const ADMIN_CONTROLLERS: Type[] = [
  CtasController,
  CtaFiltersController,
  CtaStatusController,
  TestCtasController,
  BehaviourTagsController,
  EventsController,
  NudgePreviewAdminController,
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
    return {
      module: CtaOrchestrationModule,
      imports: [OrchestrationCoreModule.forSettings(settings), ...FEATURE_MODULES],
      controllers: [
        ...mountControllers(ADMIN_CONTROLLERS, { prefix: settings.adminPrefix, documented: true, guards: settings.adminGuards }),
        ...settings.adminPrefixAliases.flatMap((alias) =>
          mountControllers(ADMIN_CONTROLLERS, { prefix: alias, documented: false, guards: settings.adminGuards }),
        ),
        ...mountControllers(SDK_CONTROLLERS, { prefix: settings.sdkPrefix, documented: true, guards: settings.sdkGuards }),
      ],
    };
  }
}
