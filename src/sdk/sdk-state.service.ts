import { setTimeout as sleep } from 'node:timers/promises';
import { Injectable } from '@nestjs/common';
import { Clock } from '../common/clock';
import { DomainError } from '../common/domain-error';
import { ErrorCode } from '../common/error-code';
import type { CohortClient } from '../cohorts/cohort-provider';
import { UserCohortsService } from '../cohorts/user-cohorts.service';
import { MetricsService } from '../metrics/metrics.service';
import { CatalogueCacheService, NO_CATALOGUE } from './catalogue-cache.service';
import { KeyedSerializer } from '../common/keyed-serializer';
import type { TenantCatalogue } from './sdk-catalogue';
import type { SnapshotRequest } from './snapshot-request';
import { InjectSettings, OrchestrationSettings } from '../orchestration-options';
import {
  dropsOnCatalogueWord,
  emptyUserState,
  holdsNothing,
  keepsStateOf,
  mergeSnapshots,
  parseUserState,
  pruneDropsAnything,
  pruneUserState,
  UserState,
  readStoredUserState,
  UserStateJson,
  userStateJson,
} from './user-state';
import { boundUserState, StateLimits, Truncation, withinLimits } from './user-state-bounds';
import { InsightsWrite, StoredUserState, UserStateStore } from './user-state.store';
import { sdkUserLog } from './sdk-user-log';
import { insightBaseline, insightChanges, InsightBaseline, UserStateForInsights } from '../insights/insight-changes';
import type { WriteExperiments } from '../insights/experiment-changes';
import { addToPending } from '../insights/insight-pending';
import { ExposureCapReached, exposureCapOf, UserActionTimes } from '../exposure-policy/exposure-cap';
import { foldRecentActions, parseRecentActions, recentActionsText, UserActions } from './recent-actions';

const NO_SNAPSHOTS: SnapshotRequest = { ctas: [], behaviourTags: [] };
const hasSnapshots = (request: SnapshotRequest): boolean => request.ctas.length > 0 || request.behaviourTags.length > 0;

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
 * adds to the user's pending ones, and the marks moved on (docs/decisions/0018-campaign-insights.md);
 * `keeps(ctaId)`: whether the marks of a CTA the user has no state for stay.
 */
function insightsOf(
  stored: StoredUserState | undefined,
  baseline: InsightBaseline,
  state: UserStateForInsights,
  keeps: (ctaId: string) => boolean,
  experiments?: WriteExperiments,
): InsightsWrite {
  const { changes, marks } = insightChanges(baseline, state, keeps, experiments);
  return { pending: addToPending(stored?.pendingInsights ?? null, changes), pendingSinceBefore: stored?.pendingSince ?? null, marks };
}

/**
 * The experiments a merge of `request` into `userId`'s state counts (docs/decisions/0026-experiments.md);
 * undefined when the catalogue holds none, so a merge of a tenant without experiments does no more work.
 */
function writeExperiments(catalogue: TenantCatalogue, userId: string, request: SnapshotRequest, now: number): WriteExperiments | undefined {
  if (!catalogue.hasExperiments) return undefined;
  return {
    now,
    of: (ctaId) => catalogue.experimentOfWrite(ctaId, userId),
    resetStates: (ctaId) =>
      request.ctas.flatMap((snapshot) =>
        snapshot.ctaId === ctaId
          ? [...snapshot.activeStateMachines.values()].filter((sent) => sent.reset).map((sent) => sent.machine.currentState)
          : [],
      ),
  };
}

/** What a launch without a body would answer a user now, and what it was decided on (the explain tool). */
export interface LaunchPreview {
  catalogue: TenantCatalogue;
  /** Every cohort the user is in at this launch (those the launch looks at among them). */
  cohorts: string[];
  now: number;
  /** The launch's response body, byte for byte. */
  answer: Buffer;
  /** By CTA id: how many of the user's stored machines this launch drops as expired (stateMachineTTL). */
  expiredMachines: ReadonlyMap<string, number>;
  /** The exposure cap the user's actions reach at this launch; null when under it or off. */
  exposureCap: ExposureCapReached | null;
}

const machineCounts = (state: UserState): Map<string, number> =>
  new Map([...state.ctas].map(([ctaId, cta]) => [ctaId, cta.activeStateMachines.size]));

/** The user's state after a merge or prune (as the answer carries it), and the catalogue it was decided on. */
interface Decided {
  state: UserStateJson;
  catalogue: TenantCatalogue;
  /** The user's actions across all CTAs (read only when the exposure cap is on). */
  actions: UserActionTimes;
}

/** The exposure cap `catalogue`'s policy puts on a user with these actions at `now`; null when under it or off. */
function exposureCap(catalogue: TenantCatalogue, actions: UserActionTimes, now: number): ExposureCapReached | null {
  const policy = catalogue.exposurePolicy;
  return policy === null ? null : exposureCapOf(policy, actions, now);
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
    if (hasSnapshots(request)) {
      const mark = this.catalogueCache.freshnessMark();
      const catalogue = await this.catalogueFor(tenantId, request, mark);
      if (catalogue !== NO_CATALOGUE) {
        await this.merge(tenantId, userId, request, catalogue, mark);
      }
    }
  }

  /** The launch call, steps 2–6: the whole response body, UTF-8 JSON. */
  async launch(tenantId: string, userId: string, client: CohortClient, request: SnapshotRequest): Promise<Buffer> {
    const mark = this.catalogueCache.freshnessMark();
    const cached = await this.catalogueFor(tenantId, request, mark);
    if (cached === NO_CATALOGUE) {
      return cached.render(userId, [], userStateJson(emptyUserState()), this.clock.now());
    }
    const [{ state, catalogue, actions }, cohorts] = await Promise.all([
      hasSnapshots(request) ? this.merge(tenantId, userId, request, cached, mark) : this.readPruned(tenantId, userId, cached, mark),
      // The eligibility step: the user's cohorts at this launch.
      this.userCohorts.cohortsOf(tenantId, userId, client, cached.cohortTargeting),
    ]);
    // A catalogue revalidated meanwhile may name other cohorts.
    const userCohorts =
      catalogue === cached ? cohorts : await this.userCohorts.cohortsOf(tenantId, userId, client, catalogue.cohortTargeting);
    const now = this.clock.now();
    const cap = exposureCap(catalogue, actions, now);
    if (cap !== null) {
      this.metrics.launchCapped();
    }
    return catalogue.render(userId, userCohorts, state, now, cap !== null);
  }

  /**
   * The tenant's cached catalogue. A tenant that has none (NO_CATALOGUE) has no stored state and
   * stores nothing, so its requests read nothing more; but its snapshots are ignored only once a
   * check that started after the request arrived confirms it still has none (a stale catalogue never loses data).
   */
  private async catalogueFor(tenantId: string, request: SnapshotRequest, mark: number): Promise<TenantCatalogue> {
    const cached = await this.catalogueCache.catalogueOf(tenantId);
    if (cached !== NO_CATALOGUE || !hasSnapshots(request)) {
      return cached;
    }
    const current = await this.catalogueCache.revalidated(tenantId, mark);
    if (current === NO_CATALOGUE) {
      this.metrics.snapshotsMerged(0, request.ctas.length + request.behaviourTags.length);
    }
    return current;
  }

  /**
   * What a launch without a body would answer the user now, decided as the launch decides it, with
   * nothing written: the stored state is pruned and bounded in memory only. The user is looked up in
   * every cohort of the tenant (explain lists them all, and looks at CTAs a launch does not serve);
   * that changes nothing the launch decides, which reads only the cohorts its CTAs name.
   */
  async preview(tenantId: string, userId: string, client: CohortClient): Promise<LaunchPreview> {
    const mark = this.catalogueCache.freshnessMark();
    const [cached, stored] = await Promise.all([this.catalogueCache.catalogueOf(tenantId), this.store.read(tenantId, userId)]);
    const state = stored ? parseUserState(stored.json) : emptyUserState();
    const catalogue = dropsOnCatalogueWord(state, NO_SNAPSHOTS, cached, this.clock.now())
      ? await this.catalogueCache.revalidated(tenantId, mark)
      : cached;
    const cohorts = await this.userCohorts.cohortsOf(tenantId, userId, client, catalogue.everyCohortTargeting());
    const now = this.clock.now();
    // Counted before the pruning, as a launch that prunes folds the pruned actions into the record first.
    const cap = exposureCap(catalogue, new UserActions(stored?.recentActions ?? null, state), now);
    const storedMachines = machineCounts(state);
    pruneUserState(state, catalogue, now);
    const expiredMachines = new Map(
      [...storedMachines].map(([ctaId, count]) => [ctaId, count - (state.ctas.get(ctaId)?.activeStateMachines.size ?? 0)]),
    );
    const { answer } = boundUserState(state, this.limits);
    return {
      catalogue,
      cohorts,
      now,
      answer: catalogue.render(userId, cohorts, answer, now, cap !== null),
      expiredMachines,
      exposureCap: cap,
    };
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
        // The marks of a CTA go with its state: decided on a revalidated catalogue too.
        if (!current && dropsOnCatalogueWord(state, request, catalogue, this.clock.now(), baseline.marks.keys())) {
          catalogue = await this.catalogueCache.revalidated(tenantId, mark);
          current = true;
        }
        const now = this.clock.now();
        const counts = mergeSnapshots(state, request, catalogue, now);
        // Before the pruning: the actions of a CTA that ended still count for the exposure cap.
        const recorded = foldRecentActions(parseRecentActions(stored?.recentActions ?? null), state);
        const recordedText = recentActionsText(recorded);
        pruneUserState(state, catalogue, now);
        const { json, truncations, answer } = boundUserState(state, this.limits);
        const unchanged = stored
          ? json === stored.json && recordedText === stored.recentActions
          : holdsNothing(state) && recordedText === null;
        const keeps = keepsStateOf(catalogue, now);
        if (
          unchanged ||
          (await this.store.write(
            tenantId,
            userId,
            json,
            stored?.version,
            now,
            insightsOf(stored, baseline, state, keeps, writeExperiments(catalogue, userId, request, now)),
            recordedText,
          ))
        ) {
          this.metrics.snapshotsMerged(counts.applied, counts.ignored);
          this.reportTruncations(tenantId, userId, truncations);
          return { state: answer, catalogue, actions: UserActions.recorded(recorded, state) };
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
      return { state: userStateJson(emptyUserState()), catalogue: cached, actions: new UserActions(null, emptyUserState()) };
    }
    const reading = readStoredUserState(stored.json);
    const catalogue = dropsOnCatalogueWord(reading, NO_SNAPSHOTS, cached, this.clock.now())
      ? await this.catalogueCache.revalidated(tenantId, mark)
      : cached;
    const now = this.clock.now();
    if (!pruneDropsAnything(reading, catalogue, now) && withinLimits(reading, stored.json, this.limits)) {
      // Parsed only if the exposure cap is on.
      return { state: reading.json, catalogue, actions: new UserActions(stored.recentActions, reading) };
    }
    // Something to drop (rare): from the whole document, its actions recorded first (they count for the exposure cap).
    const pruned = parseUserState(stored.json);
    const baseline = insightBaseline(pruned, stored.insightMarks);
    const recorded = foldRecentActions(parseRecentActions(stored.recentActions), pruned);
    // The catalogue was revalidated for the CTAs the document names, not for those only the marks name:
    // their marks stay (a merge decides them).
    const keeps = keepsStateOf(catalogue, now);
    const keepsMarks = (ctaId: string): boolean => !baseline.ctas.has(ctaId) || keeps(ctaId);
    pruneUserState(pruned, catalogue, now);
    const { json, truncations, answer } = boundUserState(pruned, this.limits);
    // A lost race here only means another write came first (a merge, which pruned itself, or the insights
    // fold); the next launch prunes what is left.
    if (
      await this.store.write(
        tenantId,
        userId,
        json,
        stored.version,
        now,
        insightsOf(stored, baseline, pruned, keepsMarks),
        recentActionsText(recorded),
      )
    ) {
      this.reportTruncations(tenantId, userId, truncations);
    }
    return { state: answer, catalogue, actions: UserActions.recorded(recorded, pruned) };
  }

  /** Counted, and logged at warn level with counts, at most one line per user every few seconds (sdk-user-log.ts). */
  private reportTruncations(tenantId: string, userId: string, truncations: Truncation[]): void {
    if (truncations.length === 0) {
      return;
    }
    for (const { reason, dropped } of truncations) {
      this.metrics.stateTruncated(reason, dropped);
    }
    sdkUserLog.truncated(tenantId, userId, truncations);
  }
}
