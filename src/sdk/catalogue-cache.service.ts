import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, Repository } from 'typeorm';
import { BehaviourTagCtaEntity } from '../behaviour-tags/behaviour-tag-cta.entity';
import { BehaviourTagEntity } from '../behaviour-tags/behaviour-tag.entity';
import { CatalogueRevisionService } from '../catalogue/catalogue-revision.service';
import { Clock } from '../common/clock';
import { CohortEntity } from '../cohorts/cohort.entity';
import { CtaTestUserEntity } from '../ctas/cta-test-user.entity';
import { CtaEntity } from '../ctas/cta.entity';
import { MetricsService } from '../metrics/metrics.service';
import { InjectSettings, OrchestrationSettings } from '../orchestration-options';
import { CATALOGUE_STATUSES, TenantCatalogue } from './sdk-catalogue';

interface CacheEntry {
  catalogue: TenantCatalogue;
  revision: number;
  /** When the revision was last compared with the database (clock ms). */
  checkedAt: number;
}

/**
 * The per-tenant SDK catalogue in memory (DESIGN §14). An admin write on this
 * instance drops the tenant's entry at once (`CatalogueRevisionService.onChange`);
 * writes on other instances show through the tenant's revision row, compared at
 * most every `cacheRevalidateMs`. Time-based eligibility is not cached: the
 * launch checks it against the clock, so nothing is served past its end.
 */
@Injectable()
export class CatalogueCacheService {
  private readonly entries = new Map<string, CacheEntry>();
  /** One rebuild or revalidation at a time per tenant; concurrent launches share it. */
  private readonly refreshing = new Map<string, Promise<TenantCatalogue>>();
  /** Bumped by each local change, so a rebuild that raced a change is not kept. */
  private readonly generations = new Map<string, number>();

  constructor(
    @InjectRepository(CtaEntity) private readonly ctas: Repository<CtaEntity>,
    @InjectRepository(CtaTestUserEntity) private readonly testUsers: Repository<CtaTestUserEntity>,
    @InjectRepository(BehaviourTagEntity) private readonly tags: Repository<BehaviourTagEntity>,
    @InjectRepository(BehaviourTagCtaEntity) private readonly tagLinks: Repository<BehaviourTagCtaEntity>,
    @InjectRepository(CohortEntity) private readonly cohorts: Repository<CohortEntity>,
    private readonly revisions: CatalogueRevisionService,
    private readonly clock: Clock,
    private readonly metrics: MetricsService,
    @InjectSettings() private readonly settings: OrchestrationSettings,
  ) {
    revisions.onChange((tenantId) => this.invalidate(tenantId));
  }

  catalogueOf(tenantId: string): Promise<TenantCatalogue> {
    const entry = this.entries.get(tenantId);
    if (entry && this.clock.now() - entry.checkedAt < this.settings.cacheRevalidateMs) {
      this.metrics.catalogueCacheLookup(true);
      return Promise.resolve(entry.catalogue);
    }
    let refresh = this.refreshing.get(tenantId);
    if (!refresh) {
      refresh = this.refresh(tenantId, entry).finally(() => {
        if (this.refreshing.get(tenantId) === refresh) this.refreshing.delete(tenantId);
      });
      this.refreshing.set(tenantId, refresh);
    }
    return refresh;
  }

  private invalidate(tenantId: string): void {
    this.generations.set(tenantId, (this.generations.get(tenantId) ?? 0) + 1);
    this.entries.delete(tenantId);
    this.refreshing.delete(tenantId);
  }

  private async refresh(tenantId: string, entry: CacheEntry | undefined): Promise<TenantCatalogue> {
    const generation = this.generations.get(tenantId) ?? 0;
    const checkedAt = this.clock.now();
    // The revision is read before the catalogue: a write committed in between makes the
    // next revalidation rebuild, never the reverse.
    const revision = await this.revisions.current(tenantId);
    const unchanged = (this.generations.get(tenantId) ?? 0) === generation;
    if (entry && entry.revision === revision && unchanged) {
      entry.checkedAt = checkedAt;
      this.metrics.catalogueCacheLookup(true);
      return entry.catalogue;
    }
    const catalogue = await this.load(tenantId);
    if ((this.generations.get(tenantId) ?? 0) === generation) {
      this.entries.set(tenantId, { catalogue, revision, checkedAt });
    }
    this.metrics.catalogueCacheLookup(false);
    return catalogue;
  }

  private async load(tenantId: string): Promise<TenantCatalogue> {
    const ctas = await this.ctas.find({
      select: { id: true, status: true, startTime: true, endTime: true, rule: true, isTest: true, expiresAt: true },
      where: { tenantId, status: In(CATALOGUE_STATUSES) },
    });
    const testCtaIds = ctas.filter((cta) => cta.isTest).map((cta) => cta.id);
    const [testUsers, links, tags, cohorts] = await Promise.all([
      testCtaIds.length === 0
        ? Promise.resolve([])
        : this.testUsers.find({ select: { userId: true, ctaId: true }, where: { tenantId, ctaId: In(testCtaIds) } }),
      this.tagLinks.find({ select: { ctaId: true, tagName: true }, where: { tenantId } }),
      this.tags.find({ select: { name: true, exposureRule: true, ctaRelation: true }, where: { tenantId } }),
      this.cohorts.find({ select: { id: true, name: true, kind: true, rule: true }, where: { tenantId } }),
    ]);
    return new TenantCatalogue(ctas, testUsers, links, tags, cohorts);
  }
}
