import { Module } from '@nestjs/common';
import { BehaviourTagsModule } from '../behaviour-tags/behaviour-tags.module';
import { CatalogueModule } from '../catalogue/catalogue.module';
import { CohortsModule } from '../cohorts/cohorts.module';
import { CtasModule } from '../ctas/ctas.module';
import { ExposurePolicyModule } from '../exposure-policy/exposure-policy.module';
import { CatalogueCacheService } from './catalogue-cache.service';
import { SdkStateService } from './sdk-state.service';
import { userStateStoreProvider } from './user-state.store';

/**
 * App launch, snapshot merge, per-user state and the catalogue cache; `SdkStateController` is
 * mounted under the SDK prefix. The catalogue is read through the readers its owners export.
 */
@Module({
  imports: [CatalogueModule, CtasModule, BehaviourTagsModule, CohortsModule, ExposurePolicyModule],
  providers: [userStateStoreProvider, CatalogueCacheService, SdkStateService],
  exports: [SdkStateService, CatalogueCacheService],
})
export class SdkModule {}
