import { setTimeout as sleep } from 'node:timers/promises';
import { Injectable, Logger } from '@nestjs/common';
import { Clock } from '../common/clock';
import { DomainError } from '../common/domain-error';
import { ErrorCode } from '../common/error-code';
import type { CohortClient } from '../cohorts/cohort-provider';
import { UserCohortsService } from '../cohorts/user-cohorts.service';
import { MetricsService } from '../metrics/metrics.service';
import { CatalogueCacheService } from './catalogue-cache.service';
import { KeyedSerializer } from '../common/keyed-serializer';
import type { TenantCatalogue } from './sdk-catalogue';
import type { SnapshotRequest } from './snapshot-request';
import { InjectSettings, OrchestrationSettings } from '../orchestration-options';
import {
  boundUserState,
  dropsOnCatalogueWord,
  emptyUserState,
  mergeSnapshots,
  parseUserState,
  pruneUserState,
  readStoredUserState,
  StateLimits,
  Truncation,
  UserStateJson,
  userStateJson,
  withinLimits,
} from './user-state';
import { InsightsWrite, StoredUserState, UserStateStore } from './user-state.store';
import { insightBaseline, insightChanges, InsightBaseline, UserStateForInsights } from '../insights/insight-changes';
import { addToPending } from '../insights/insight-pending';

const NO_SNAPSHOTS: SnapshotRequest = { ctas: [], behaviourTags: [] };

/** Writers on other instances can win the version check; after this many tries the client retries later. */
const MAX_MERGE_ATTEMPTS = 20;
/**
 * After a lost version check, up to this many milliseconds times the attempt number, at random:
 * on a Galera cluster the winner's row reaches this node's reads a few milliseconds later, and a
 * retry before then only loses again.
 */
const MERGE_BACKOFF_MS = 5;

/**
 * What a write of `state` over the stored document of `baseline` stores for the insights: the counts it
 * adds to the user's pending ones, and the marks moved on (docs/decisions/0018-campaign-insights.md).
 */
function insightsOf(stored: StoredUserState | undefined, baseline: InsightBaseline, state: UserStateForInsights): InsightsWrite {
  const { changes, marks } = insightChanges(baseline, state);
  return { pending: addToPending(stored?.pendingInsights ?? null, changes), pendingSinceBefore: stored?.pendingSince ?? null, marks };
}

/** The user's state after a merge or prune (as the answer carries it), and the catalogue it was decided on. */
interface Decided {
  state: UserStateJson;
  catalogue: TenantCatalogue;
}

/**
 * The SDK's two state-machine calls (docs/decisions/0006-user-state-merge.md): merging snapshot deltas into
 * the user's stored state, and the app-launch answer.
 *
 * Nothing is ignored or dropped on the word of a catalogue older than the
 * request: when a snapshot or the stored state names a CTA or tag the cached
 * catalogue does not keep, the tenant's revision is read again first
 * (`CatalogueCacheService.revalidated`), so a CTA that went live through
 * another instance keeps its users' state here too.
 */
@Injectable()
export class SdkStateService {
  private readonly logger = new Logger(SdkStateService.name);
  private readonly userQueue = new KeyedSerializer();
  private readonly limits: StateLimits;

  constructor(
    private readonly catalogueCache: CatalogueCacheService,
    private readonly store: UserStateStore,
    private readonly clock: Clock,
    private readonly metrics: MetricsService,
    private readonly userCohorts: UserCohortsService,
    @InjectSettings() settings: OrchestrationSettings,
  ) {
    this.limits = { maxMachinesPerCta: settings.maxMachinesPerCta, maxUserStateBytes: settings.maxUserStateBytes };
  }

  /** The delta call: merges and stores `request`. */
  async mergeDelta(tenantId: string, userId: string, request: SnapshotRequest): Promise<void> {
    if (request.ctas.length > 0 || request.behaviourTags.length > 0) {
      const mark = this.catalogueCache.freshnessMark();
      await this.merge(tenantId, userId, request, await this.catalogueCache.catalogueOf(tenantId), mark);
    }
  }

  /** The launch call, steps 2–6: the whole response body, UTF-8 JSON. */
  async launch(tenantId: string, userId: string, client: CohortClient, request: SnapshotRequest): Promise<Buffer> {
    const mark = this.catalogueCache.freshnessMark();
    const cached = await this.catalogueCache.catalogueOf(tenantId);
    const [{ state, catalogue }, cohorts] = await Promise.all([
      request.ctas.length > 0 || request.behaviourTags.length > 0
        ? this.merge(tenantId, userId, request, cached, mark)
        : this.readPruned(tenantId, userId, cached, mark),
      // The eligibility step (docs/decisions/0008-cohorts.md): the user's cohorts at this launch.
      this.userCohorts.cohortsOf(tenantId, userId, client, cached.cohortTargeting),
    ]);
    // A catalogue revalidated meanwhile may name other cohorts.
    const userCohorts =
      catalogue === cached ? cohorts : await this.userCohorts.cohortsOf(tenantId, userId, client, catalogue.cohortTargeting);
    return catalogue.render(userId, userCohorts, state, this.clock.now());
  }

  /**
   * Read, merge, prune, write only if something changed — retried when another
   * writer stored a newer version in between, so no merge is ever lost.
   */
  private merge(tenantId: string, userId: string, request: SnapshotRequest, cached: TenantCatalogue, mark: number): Promise<Decided> {
    let catalogue = cached;
    let current = false;
    return this.userQueue.run(`${tenantId}\u0000${userId}`, async () => {
      for (let attempt = 1; attempt <= MAX_MERGE_ATTEMPTS; attempt++) {
        const stored = await this.store.read(tenantId, userId);
        const state = stored ? parseUserState(stored.json) : emptyUserState();
        // Counted by the write's own statement, against the version it replaces (docs/decisions/0018-campaign-insights.md).
        const baseline = insightBaseline(state, stored?.insightMarks ?? null);
        if (!current && dropsOnCatalogueWord(state, request, catalogue, this.clock.now())) {
          catalogue = await this.catalogueCache.revalidated(tenantId, mark);
          current = true;
        }
        const now = this.clock.now();
        const counts = mergeSnapshots(state, request, catalogue, now);
        pruneUserState(state, catalogue, now);
        const { json, truncations } = boundUserState(state, this.limits);
        const unchanged = stored ? json === stored.json : state.ctas.size === 0 && state.tags.size === 0;
        if (unchanged || (await this.store.write(tenantId, userId, json, stored?.version, now, insightsOf(stored, baseline, state)))) {
          this.metrics.snapshotsMerged(counts.applied, counts.ignored);
          this.reportTruncations(tenantId, userId, truncations);
          return { state: userStateJson(state), catalogue };
        }
        await sleep(Math.random() * MERGE_BACKOFF_MS * attempt);
      }
      throw new DomainError(ErrorCode.SERVICE_UNAVAILABLE, 'too many concurrent updates of this user, retry later', {
        'retry-after': '1',
      });
    });
  }

  /**
   * The stored state without what step 4 drops (and within the caps); the result is
   * stored too, unless a merge got there first.
   */
  private async readPruned(tenantId: string, userId: string, cached: TenantCatalogue, mark: number): Promise<Decided> {
    const stored = await this.store.read(tenantId, userId);
    if (!stored) {
      return { state: userStateJson(emptyUserState()), catalogue: cached };
    }
    const reading = readStoredUserState(stored.json);
    const catalogue = dropsOnCatalogueWord(reading.state, NO_SNAPSHOTS, cached, this.clock.now())
      ? await this.catalogueCache.revalidated(tenantId, mark)
      : cached;
    const now = this.clock.now();
    if (!pruneUserState(reading.state, catalogue, now) && withinLimits(reading.state, stored.json, this.limits)) {
      return { state: reading.json, catalogue };
    }
    // Something to drop (rare): from the whole document.
    const pruned = parseUserState(stored.json);
    const baseline = insightBaseline(pruned, stored.insightMarks);
    pruneUserState(pruned, catalogue, now);
    const { json, truncations } = boundUserState(pruned, this.limits);
    // A lost race here only means another write came first (a merge, which pruned itself, or the insights
    // fold); the next launch prunes what is left.
    if (await this.store.write(tenantId, userId, json, stored.version, now, insightsOf(stored, baseline, pruned))) {
      this.reportTruncations(tenantId, userId, truncations);
    }
    return { state: userStateJson(pruned), catalogue };
  }

  /** Counted and logged at warn level (docs/decisions/0006-user-state-merge.md), one line per stored merge that dropped something. */
  private reportTruncations(tenantId: string, userId: string, truncations: Truncation[]): void {
    if (truncations.length === 0) {
      return;
    }
    for (const { reason, dropped } of truncations) {
      this.metrics.stateTruncated(reason, dropped);
    }
    this.logger.warn({ tenantId, userId, truncations }, 'user state over its caps: oldest entries dropped');
  }
}
