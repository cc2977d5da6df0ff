import { Module } from '@nestjs/common';
import { ORCHESTRATION_SETTINGS, OrchestrationSettings } from '../orchestration-options';
import { COHORT_PROVIDER } from './cohort-provider';

/** Binds the `CohortProvider` port to the provider chosen in the module options. */
@Module({
  providers: [
    {
      provide: COHORT_PROVIDER,
      useFactory: (settings: OrchestrationSettings) => settings.cohortProvider,
      inject: [ORCHESTRATION_SETTINGS],
    },
  ],
  exports: [COHORT_PROVIDER],
})
export class CohortsModule {}
