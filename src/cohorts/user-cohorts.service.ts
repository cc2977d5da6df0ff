import { Injectable } from '@nestjs/common';
import { CohortMembershipStore } from './cohort-membership.store';
import { CohortClient, CohortProvider, InjectCohortProvider } from './cohort-provider';
import type { CohortTargeting } from './cohort-targeting';

const NO_MEMBERSHIPS: ReadonlySet<number> = new Set();

/**
 * The launch's eligibility input (docs/decisions/0008-cohorts.md): the user's cohorts, the union of `all`, the
 * static cohorts the catalogue's CTAs need (one batched indexed query, none when they name
 * no static cohort), the rule cohorts that hold, and the host provider's cohorts.
 */
@Injectable()
export class UserCohortsService {
  constructor(
    private readonly memberships: CohortMembershipStore,
    @InjectCohortProvider() private readonly provider: CohortProvider,
  ) {}

  async cohortsOf(tenantId: string, userId: string, client: CohortClient, targeting: CohortTargeting): Promise<string[]> {
    const [memberOf, provided] = await Promise.all([
      targeting.staticIds.length > 0 ? this.memberships.cohortsOf(tenantId, userId, targeting.staticIds) : NO_MEMBERSHIPS,
      this.provider.cohortsOf(tenantId, userId, client),
    ]);
    return targeting.cohortsOf(tenantId, userId, client, memberOf, provided);
  }
}
