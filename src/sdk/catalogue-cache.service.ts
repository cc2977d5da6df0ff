import { setTimeout as sleep } from 'node:timers/promises';
import { Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { BehaviourTagReader } from '../behaviour-tags/behaviour-tag.reader';
import { CatalogueRevisionService } from '../catalogue/catalogue-revision.service';
import { Clock } from '../common/clock';
import { CohortDefinitionReader } from '../cohorts/cohort-definition.reader';
import { IN_PLAY_STATUSES } from '../cta-lifecycle/cta-status-policy';
import { CtaCatalogueReader } from '../ctas/cta-catalogue.reader';
import { ExposurePolicyReader } from '../exposure-policy/exposure-policy.reader';
import { MetricsService } from '../metrics/metrics.service';
import { InjectSettings, OrchestrationSettings } from '../orchestration-options';
import { TenantCatalogue } from './sdk-catalogue';
import { TenantDirectory } from './tenant-directory';

/** At most one revision read a tenant every this many ms on behalf of unknown ids (docs/decisions/0006-user-state-merge.md). */
export const MIN_REVALIDATION_GAP_MS = 100;

/** Every tenant without CTAs, tags or cohorts shares this one. */
const EMPTY_CATALOGUE = new TenantCatalogue([], [], [], []);

/**
 * The catalogue of a tenant that has never had one (no catalogue revision row): nothing to
 * serve, and no user state either (a merge stores only snapshots of CTAs a catalogue keeps).
 * Answered from the instance's `TenantDirectory`, without a read per tenant and without a cache slot.
 */
export const NO_CATALOGUE = new TenantCatalogue([], [], [], []);

interface CacheEntry {
  catalogue: TenantCatalogue;
  revision: number;
  /** When the revision was last compared with the database (clock ms). */
  checkedAt: number;
  /** The number of the revision read behind `catalogue` (see `freshnessMark`). */
  readNumber: number;
}

/** One tenant's place in the cache: its catalogue, and the revision read under way. */
interface TenantSlot {
  entry: CacheEntry | null;
  refresh: Promise<TenantCatalogue> | null;
  refreshNumber: number;
  /** Bumped by each local change, so a rebuild that raced a change is not kept. */
  generation: number;
  /** When (monotonic ms) the last revision read of this tenant started. */
  lastReadAt: number;
}

/**
 * The per-tenant SDK catalogue in memory (docs/decisions/0007-catalogue-cache-and-periodic-jobs.md). An admin write on this
 * instance drops the tenant's entry at once (`CatalogueRevisionService.onChange`);
 * writes on other instances show through the tenant's revision row, compared at
 * most every `cacheRevalidateMs`. Time-based eligibility is not cached: the
 * launch checks it against the clock, so nothing is served past its end.
 *
 * Bounded: at most `catalogueCacheMaxTenants` tenants, least recently used
 * evicted. The tenant header is not authenticated: a tenant id that has no
 * catalogue at all gets none of these, only `NO_CATALOGUE` from the directory of
 * tenants, checked for all of them together.
 */
@Injectable()
export class CatalogueCacheService {
  private readonly slots: LRUCache<string, TenantSlot>;
  /** Revision reads (and directory checks) started so far, on all tenants: a read numbered above a mark started after it. */
  private readsStarted = 0;
  private readonly directory: TenantDirectory;

  constructor(
    private readonly ctas: CtaCatalogueReader,
    private readonly tags: BehaviourTagReader,
    private readonly cohorts: CohortDefinitionReader,
    private readonly exposurePolicies: ExposurePolicyReader,
    private readonly revisions: CatalogueRevisionService,
    private readonly clock: Clock,
    private readonly metrics: MetricsService,
    @InjectSettings() private readonly settings: OrchestrationSettings,
  ) {
    this.slots = new LRUCache({ max: settings.catalogueCacheMaxTenants });
    this.directory = new TenantDirectory(revisions, clock, settings.cacheRevalidateMs, () => ++this.readsStarted);
    revisions.onChange((tenantId) => {
      this.directory.add(tenantId);
      this.invalidate(tenantId);
    });
    metrics.watchCatalogueCache(() => this.slots.size);
  }

  /** Tenants held now (at most `catalogueCacheMaxTenants`). */
  get size(): number {
    return this.slots.size;
  }

  catalogueOf(tenantId: string): Promise<TenantCatalogue> {
    if (!this.directory.has(tenantId)) {
      return this.catalogueOfUnknown(tenantId);
    }
    const slot = this.slotOf(tenantId);
    const entry = slot.entry;
    if (entry && this.clock.now() - entry.checkedAt < this.settings.cacheRevalidateMs) {
      this.metrics.catalogueCacheLookup(true);
      return Promise.resolve(entry.catalogue);
    }
    return slot.refresh ?? this.startRefresh(tenantId, slot);
  }

  /** A tenant the directory does not list (yet): NO_CATALOGUE, unless its check (shared by all such tenants) finds it. */
  private async catalogueOfUnknown(tenantId: string): Promise<TenantCatalogue> {
    if (await this.directory.exists(tenantId)) {
      return this.catalogueOf(tenantId);
    }
    this.metrics.catalogueCacheLookup(true);
    return NO_CATALOGUE;
  }

  /** Taken when a request arrives; `revalidated(tenant, mark)` then answers only from a revision read started after it. */
  freshnessMark(): number {
    return this.readsStarted;
  }

  /**
   * The tenant's catalogue as of a revision read that started after `mark` was
   * taken, so it knows every admin write acknowledged before then, on any
   * instance. For decisions that drop data (docs/decisions/0006-user-state-merge.md). Coalesced: one revision
   * read a tenant in flight, at most one every MIN_REVALIDATION_GAP_MS; for a tenant
   * the directory does not list, its shared check (see TenantDirectory).
   */
  async revalidated(tenantId: string, mark: number): Promise<TenantCatalogue> {
    if (!(await this.directory.existsAfter(tenantId, mark))) {
      return NO_CATALOGUE;
    }
    for (;;) {
      const slot = this.slotOf(tenantId);
      if (slot.entry && slot.entry.readNumber > mark) {
        return slot.entry.catalogue;
      }
      if (slot.refresh) {
        if (slot.refreshNumber > mark) {
          return slot.refresh;
        }
        await slot.refresh.catch(() => undefined);
        continue;
      }
      const wait = slot.lastReadAt + MIN_REVALIDATION_GAP_MS - performance.now();
      if (wait > 0) {
        await sleep(wait);
        continue;
      }
      return this.startRefresh(tenantId, slot);
    }
  }

  private slotOf(tenantId: string): TenantSlot {
    let slot = this.slots.get(tenantId);
    if (!slot) {
      slot = { entry: null, refresh: null, refreshNumber: 0, generation: 0, lastReadAt: Number.NEGATIVE_INFINITY };
      this.slots.set(tenantId, slot);
    }
    return slot;
  }

  private invalidate(tenantId: string): void {
    // Without a slot nothing is cached; a refresh of an evicted slot writes only into that slot.
    const slot = this.slots.peek(tenantId);
    if (slot) {
      slot.generation++;
      slot.entry = null;
      slot.refresh = null;
    }
  }

  private startRefresh(tenantId: string, slot: TenantSlot): Promise<TenantCatalogue> {
    const refresh = this.refresh(tenantId, slot).finally(() => {
      if (slot.refresh === refresh) slot.refresh = null;
    });
    slot.refresh = refresh;
    return refresh;
  }

  private async refresh(tenantId: string, slot: TenantSlot): Promise<TenantCatalogue> {
    const entry = slot.entry;
    const generation = slot.generation;
    const checkedAt = this.clock.now();
    const readNumber = ++this.readsStarted;
    slot.refreshNumber = readNumber;
    slot.lastReadAt = performance.now();
    // The revision is read before the catalogue: a write committed in between makes the
    // next revalidation rebuild, never the reverse.
    const revision = await this.revisions.current(tenantId);
    if (entry && entry.revision === revision && slot.generation === generation) {
      entry.checkedAt = checkedAt;
      entry.readNumber = readNumber;
      this.metrics.catalogueCacheLookup(true);
      return entry.catalogue;
    }
    const catalogue = await this.load(tenantId);
    if (slot.generation === generation) {
      slot.entry = { catalogue, revision, checkedAt, readNumber };
    }
    this.metrics.catalogueCacheLookup(false);
    return catalogue;
  }

  private async load(tenantId: string): Promise<TenantCatalogue> {
    const ctas = await this.ctas.ctasOf(tenantId, IN_PLAY_STATUSES);
    const [testUsers, links, tags, cohorts, exposurePolicy] = await Promise.all([
      this.ctas.testUsersOf(
        tenantId,
        ctas.filter((cta) => cta.isTest).map((cta) => cta.id),
      ),
      this.tags.linksOf(tenantId),
      this.tags.tagsOf(tenantId),
      this.cohorts.definitionsOf(tenantId),
      this.exposurePolicies.policyOf(tenantId),
    ]);
    // A tenant with cohorts keeps their definitions even without CTAs or tags: explain lists the user's cohorts.
    return ctas.length === 0 && tags.length === 0 && cohorts.length === 0
      ? EMPTY_CATALOGUE
      : new TenantCatalogue(ctas, testUsers, links, tags, cohorts, exposurePolicy, tenantId);
  }
}
