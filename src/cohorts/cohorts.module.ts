import { Module } from '@nestjs/common';
import { CatalogueModule } from '../catalogue/catalogue.module';
import { ORCHESTRATION_SETTINGS, OrchestrationSettings } from '../orchestration-options';
import { CohortDefinitionReader } from './cohort-definition.reader';
import { COHORT_DIRECTORY, TenantCohortDirectory } from './cohort-directory';
import { CohortMembersService } from './cohort-members.service';
import { CohortMembershipStore } from './cohort-membership.store';
import { COHORT_PROVIDER } from './cohort-provider';
import { CohortsService } from './cohorts.service';
import { UserCohortsService } from './user-cohorts.service';

/**
 * Cohorts (docs/decisions/0008-cohorts.md; tables `cohorts`, `cohort_members`, `cta_cohorts`): the admin services
 * (`CohortsController` is mounted under the admin prefix), the launch's cohort step, the
 * `CohortProvider` port bound to the module option,
 * the `CohortDirectory` (the tenant's cohort names, for the validate endpoint's warnings) and the
 * `CohortDefinitionReader` (the definitions of the SDK catalogue).
 */
@Module({
  imports: [CatalogueModule],
  providers: [
    {
      provide: COHORT_PROVIDER,
      useFactory: (settings: OrchestrationSettings) => settings.cohortProvider,
      inject: [ORCHESTRATION_SETTINGS],
    },
    { provide: COHORT_DIRECTORY, useClass: TenantCohortDirectory },
    CohortsService,
    CohortMembersService,
    CohortMembershipStore,
    UserCohortsService,
    CohortDefinitionReader,
  ],
  exports: [COHORT_PROVIDER, COHORT_DIRECTORY, CohortsService, CohortMembersService, UserCohortsService, CohortDefinitionReader],
})
export class CohortsModule {}
