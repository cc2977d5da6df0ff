import { Injectable } from '@nestjs/common';
import { Clock } from '../common/clock';
import { DomainError } from '../common/domain-error';
import { ErrorCode } from '../common/error-code';
import type { CohortClient } from '../cohorts/cohort-provider';
import { UserCohortsService } from '../cohorts/user-cohorts.service';
import { MetricsService } from '../metrics/metrics.service';
import { CatalogueCacheService } from './catalogue-cache.service';
import { KeyedSerializer } from './keyed-serializer';
import type { TenantCatalogue } from './sdk-catalogue';
import type { SnapshotRequest } from './snapshot-request';
import { emptyUserState, mergeSnapshots, parseUserState, pruneUserState, serializeUserState, UserState } from './user-state';
import { UserStateStore } from './user-state.store';

/** Writers on other instances can win the version check; after this many tries the client retries later. */
const MAX_MERGE_ATTEMPTS = 20;

/**
 * The SDK's two state-machine calls (DESIGN §11): merging snapshot deltas into
 * the user's stored state, and the app-launch answer.
 */
@Injectable()
export class SdkStateService {
  private readonly userQueue = new KeyedSerializer();

  constructor(
    private readonly catalogueCache: CatalogueCacheService,
    private readonly store: UserStateStore,
    private readonly clock: Clock,
    private readonly metrics: MetricsService,
    private readonly userCohorts: UserCohortsService,
  ) {}

  /** The delta call: merges and stores `request`. */
  async mergeDelta(tenantId: string, userId: string, request: SnapshotRequest): Promise<void> {
    if (request.ctas.length > 0 || request.behaviourTags.length > 0) {
      await this.merge(tenantId, userId, request, await this.catalogueCache.catalogueOf(tenantId));
    }
  }

  /** The launch call, steps 2–6: the whole response body, UTF-8 JSON. */
  async launch(tenantId: string, userId: string, client: CohortClient, request: SnapshotRequest): Promise<Buffer> {
    const catalogue = await this.catalogueCache.catalogueOf(tenantId);
    const [state, cohorts] = await Promise.all([
      request.ctas.length > 0 || request.behaviourTags.length > 0
        ? this.merge(tenantId, userId, request, catalogue)
        : this.readPruned(tenantId, userId, catalogue),
      // The eligibility step (DESIGN §12): the user's cohorts at this launch.
      this.userCohorts.cohortsOf(tenantId, userId, client, catalogue.cohortTargeting),
    ]);
    return catalogue.render(userId, cohorts, state, this.clock.now());
  }

  /**
   * Read, merge, prune, write only if something changed — retried when another
   * writer stored a newer version in between, so no merge is ever lost.
   */
  private merge(tenantId: string, userId: string, request: SnapshotRequest, catalogue: TenantCatalogue): Promise<UserState> {
    return this.userQueue.run(`${tenantId}\u0000${userId}`, async () => {
      for (let attempt = 1; attempt <= MAX_MERGE_ATTEMPTS; attempt++) {
        const now = this.clock.now();
        const stored = await this.store.read(tenantId, userId);
        const state = stored ? parseUserState(stored.json) : emptyUserState();
        const counts = mergeSnapshots(state, request, catalogue, now);
        pruneUserState(state, catalogue, now);
        const json = serializeUserState(state);
        const unchanged = stored ? json === stored.json : state.ctas.size === 0 && state.tags.size === 0;
        if (unchanged || (await this.store.write(tenantId, userId, json, stored?.version, now))) {
          this.metrics.snapshotsMerged(counts.applied, counts.ignored);
          return state;
        }
      }
      throw new DomainError(ErrorCode.SERVICE_UNAVAILABLE, 'too many concurrent updates of this user, retry later', {
        'retry-after': '1',
      });
    });
  }

  /** The stored state without what step 4 drops; the drop is stored too, unless a merge got there first. */
  private async readPruned(tenantId: string, userId: string, catalogue: TenantCatalogue): Promise<UserState> {
    const stored = await this.store.read(tenantId, userId);
    if (!stored) {
      return emptyUserState();
    }
    const state = parseUserState(stored.json);
    const now = this.clock.now();
    if (pruneUserState(state, catalogue, now)) {
      // A lost race here only means a merge stored a newer document, which it pruned itself.
      await this.store.write(tenantId, userId, serializeUserState(state), stored.version, now);
    }
    return state;
  }
}
