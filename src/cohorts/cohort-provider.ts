import { Inject } from '@nestjs/common';

/**
 * The cohort port of DESIGN §12: which cohorts an app user belongs to. A host binds
 * its own (e.g. backed by its segmentation service) through the module option
 * `cohortProvider`; the default puts every user in `all`.
 */
export interface CohortProvider {
  cohortsOf(tenantId: string, userId: string): Promise<string[]>;
}

export const COHORT_PROVIDER = Symbol('COHORT_PROVIDER');

export const InjectCohortProvider = (): ParameterDecorator => Inject(COHORT_PROVIDER);

export const ALL_USERS_COHORT = 'all';

/** The default provider: every user is in the cohort `all` and in no other. */
export class AllUsersCohortProvider implements CohortProvider {
  private static readonly COHORTS: readonly string[] = [ALL_USERS_COHORT];

  cohortsOf(_tenantId: string, _userId: string): Promise<string[]> {
    return Promise.resolve(AllUsersCohortProvider.COHORTS as string[]);
  }
}

export interface CohortEligibility {
  includes: readonly string[];
  excludes: readonly string[];
}

/** A CTA is eligible when `includes` meets the user's cohorts and `excludes` does not. */
export function isCohortEligible(eligibility: CohortEligibility, cohorts: readonly string[]): boolean {
  return (
    eligibility.includes.some((cohort) => cohorts.includes(cohort)) &&
    !eligibility.excludes.some((cohort) => cohorts.includes(cohort))
  );
}
