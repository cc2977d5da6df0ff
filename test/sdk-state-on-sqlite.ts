import type { DataSource } from 'typeorm';
import { BehaviourTagReader } from '../src/behaviour-tags/behaviour-tag.reader';
import type { CatalogueRevisionService } from '../src/catalogue/catalogue-revision.service';
import type { Clock } from '../src/common/clock';
import { CohortDefinitionReader } from '../src/cohorts/cohort-definition.reader';
import { CohortMembershipStore } from '../src/cohorts/cohort-membership.store';
import { AllUsersCohortProvider } from '../src/cohorts/cohort-provider';
import { UserCohortsService } from '../src/cohorts/user-cohorts.service';
import { CtaCatalogueReader } from '../src/ctas/cta-catalogue.reader';
import { ExposurePolicyReader } from '../src/exposure-policy/exposure-policy.reader';
import { MetricsService } from '../src/metrics/metrics.service';
import { resolveSettings } from '../src/orchestration-options';
import { CatalogueCacheService } from '../src/sdk/catalogue-cache.service';
import { SdkStateService } from '../src/sdk/sdk-state.service';
import { createUserStateStore, type UserStateStore } from '../src/sdk/user-state.store';

/**
 * The SDK state service as the module builds it, on `dataSource` (the unit specs' in-memory SQLite): the
 * real catalogue cache over the tables and `revisions`, every user in the `all` cohort only, the users'
 * state in `store` (the database's by default). Used by the specs of the SDK state and the launch explain.
 */
export function sdkStateOnSqlite(
  dataSource: DataSource,
  revisions: CatalogueRevisionService,
  clock: Clock,
  { metrics = new MetricsService(), store = createUserStateStore(dataSource) }: { metrics?: MetricsService; store?: UserStateStore } = {},
) {
  const settings = resolveSettings({});
  const ctas = new CtaCatalogueReader(dataSource);
  const tags = new BehaviourTagReader(dataSource);
  const cache = new CatalogueCacheService(
    ctas,
    tags,
    new CohortDefinitionReader(dataSource),
    new ExposurePolicyReader(dataSource),
    revisions,
    clock,
    metrics,
    settings,
  );
  const cohorts = new UserCohortsService(new CohortMembershipStore(dataSource), new AllUsersCohortProvider());
  return { sdkState: new SdkStateService(cache, store, clock, metrics, cohorts, settings), ctas, tags, metrics };
}
