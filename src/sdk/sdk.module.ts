import { Module } from '@nestjs/common';
import { BehaviourTagCtaEntity } from '../behaviour-tags/behaviour-tag-cta.entity';
import { BehaviourTagEntity } from '../behaviour-tags/behaviour-tag.entity';
import { CatalogueModule } from '../catalogue/catalogue.module';
import { CohortEntity } from '../cohorts/cohort.entity';
import { CohortsModule } from '../cohorts/cohorts.module';
import { CtaTestUserEntity } from '../ctas/cta-test-user.entity';
import { CtaEntity } from '../ctas/cta.entity';
import { orchestrationRepositories } from '../database/orchestration-data-source';
import { CatalogueCacheService } from './catalogue-cache.service';
import { SdkStateService } from './sdk-state.service';
import { userStateStoreProvider } from './user-state.store';

/** App launch, snapshot merge, per-user state and the catalogue cache; `SdkStateController` is mounted under the SDK prefix. */
@Module({
  imports: [CatalogueModule, CohortsModule],
  providers: [
    ...orchestrationRepositories(CtaEntity, CtaTestUserEntity, BehaviourTagEntity, BehaviourTagCtaEntity, CohortEntity),
    userStateStoreProvider,
    CatalogueCacheService,
    SdkStateService,
  ],
  exports: [SdkStateService, CatalogueCacheService],
})
export class SdkModule {}
