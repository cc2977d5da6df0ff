import { Inject } from '@nestjs/common';
import { ALL_USERS_COHORT } from './cohort-provider';

/**
 * Which cohort names a tenant has, for the warnings of `POST /ctas/validate` (DESIGN §5a, §12).
 * Names in `cohortEligibility` are never checked on write; this only tells an operator which
 * names no user can be in.
 */
export interface CohortDirectory {
  /** Those of `names` that are neither `all` nor a cohort of the tenant; none when that cannot be known. */
  unknownCohorts(tenantId: string, names: readonly string[]): Promise<string[]>;
}

export const COHORT_DIRECTORY = Symbol('COHORT_DIRECTORY');

export const InjectCohortDirectory = (): ParameterDecorator => Inject(COHORT_DIRECTORY);

/**
 * The service's own cohorts: today only `all`. With a host's `CohortProvider` bound, cohort
 * names are the host's, unknown to the service: nothing is reported.
 */
export class BuiltInCohortDirectory implements CohortDirectory {
  constructor(private readonly hostProvidesCohorts: boolean) {}

  unknownCohorts(_tenantId: string, names: readonly string[]): Promise<string[]> {
    return Promise.resolve(this.hostProvidesCohorts ? [] : [...new Set(names)].filter((name) => name !== ALL_USERS_COHORT));
  }
}
