import { Inject } from '@nestjs/common';
import { ALL_USERS_COHORT } from '../rule/rule.types';

/** The launch's client attributes, from the headers `app_version`, `package_name`, `hotpatch_version` (or `codepush_version`); absent when not sent. */
export interface CohortClient {
  appVersion?: string;
  packageName?: string;
  hotpatchVersion?: string;
}

/**
 * The cohort port of docs/decisions/0008-cohorts.md: which cohorts of the host's own an app user belongs to.
 * A host binds its own (e.g. backed by its segmentation service) through the module option
 * `cohortProvider`; the launch joins them with `all`, the static and the rule cohorts. The
 * default adds nothing but `all`. (A provider written for the older two-argument port still fits.)
 */
export interface CohortProvider {
  cohortsOf(tenantId: string, userId: string, client: CohortClient): Promise<string[]>;
}

export const COHORT_PROVIDER = Symbol('COHORT_PROVIDER');

// The rule's grammar names the cohort every user is in; the provider answers it.
export { ALL_USERS_COHORT };

export const InjectCohortProvider = (): ParameterDecorator => Inject(COHORT_PROVIDER);

/** The default provider: every user is in the cohort `all` and in no other cohort of the host's. */
export class AllUsersCohortProvider implements CohortProvider {
  private static readonly COHORTS: readonly string[] = [ALL_USERS_COHORT];

  cohortsOf(_tenantId: string, _userId: string, _client?: CohortClient): Promise<string[]> {
    return Promise.resolve(AllUsersCohortProvider.COHORTS as string[]);
  }
}

/** A CTA is eligible when `includes` meets the user's cohorts and `excludes` does not (decided in `serving/serving-decision.ts`). */
export interface CohortEligibility {
  includes: readonly string[];
  excludes: readonly string[];
}
