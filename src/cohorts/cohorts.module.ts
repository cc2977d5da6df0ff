import { Module } from '@nestjs/common';
import { ORCHESTRATION_SETTINGS, OrchestrationSettings } from '../orchestration-options';
import { BuiltInCohortDirectory, COHORT_DIRECTORY } from './cohort-directory';
import { AllUsersCohortProvider, COHORT_PROVIDER } from './cohort-provider';

/** Binds the `CohortProvider` port to the provider chosen in the module options, and the `CohortDirectory` to the tenant's cohorts. */
@Module({
  providers: [
    {
      provide: COHORT_PROVIDER,
      useFactory: (settings: OrchestrationSettings) => settings.cohortProvider,
      inject: [ORCHESTRATION_SETTINGS],
    },
    {
      provide: COHORT_DIRECTORY,
      useFactory: (settings: OrchestrationSettings) => new BuiltInCohortDirectory(!(settings.cohortProvider instanceof AllUsersCohortProvider)),
      inject: [ORCHESTRATION_SETTINGS],
    },
  ],
  exports: [COHORT_PROVIDER, COHORT_DIRECTORY],
})
export class CohortsModule {}
