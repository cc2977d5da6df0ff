import type { DataSource } from 'typeorm';
import { BehaviourTagReader } from '../behaviour-tags/behaviour-tag.reader';
import type { CatalogueRevisionService } from '../catalogue/catalogue-revision.service';
import { Clock } from '../common/clock';
import { CohortDefinitionReader } from '../cohorts/cohort-definition.reader';
import { CtaCatalogueReader } from '../ctas/cta-catalogue.reader';
import { ExposurePolicyReader } from '../exposure-policy/exposure-policy.reader';
import { MetricsService } from '../metrics/metrics.service';
import { resolveSettings } from '../orchestration-options';
import { CatalogueCacheService, MIN_REVALIDATION_GAP_MS } from './catalogue-cache.service';

/** A cache over tables with nothing in them, whose revision reads are counted and resolved by hand. */
function cacheWith(maxTenants = 10_000) {
  const reads: { tenantId: string; startedAt: number; resolve: (revision: number) => void }[] = [];
  // The tenants the cache is asked about have catalogues (the directory of tenants lists them).
  const tenants = ['t', ...Array.from({ length: 500 }, (_, index) => `tenant-${index}`)];
  const revisions = {
    current: (tenantId: string) => new Promise<number>((resolve) => reads.push({ tenantId, startedAt: performance.now(), resolve })),
    tenantsUnlessCount: async (known: number) => ({ count: tenants.length, tenantIds: known === tenants.length ? null : tenants }),
    onChange: () => undefined,
  } as unknown as CatalogueRevisionService;
  const empty = { manager: { find: async () => [] } } as unknown as DataSource;
  const settings = resolveSettings({ cacheRevalidateMs: 600_000, catalogueCacheMaxTenants: maxTenants });
  const cache = new CatalogueCacheService(
    new CtaCatalogueReader(empty),
    new BehaviourTagReader(empty),
    new CohortDefinitionReader(empty),
    new ExposurePolicyReader({ manager: { findOne: async () => null } } as unknown as DataSource),
    revisions,
    new Clock(),
    new MetricsService(),
    settings,
  );
  return { cache, reads };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('CatalogueCacheService', () => {
  it('coalesces revalidations: one revision read of a tenant in flight, the next only for requests that came after it started', async () => {
    const { cache, reads } = cacheWith();
    reads.length = 0;
    const first = cache.catalogueOf('t');
    await settle();
    reads.shift()!.resolve(1);
    await first;

    // 20 requests arrive: one read serves them all.
    const marks = Array.from({ length: 20 }, () => cache.freshnessMark());
    const waiting = marks.map((mark) => cache.revalidated('t', mark));
    await new Promise((resolve) => setTimeout(resolve, MIN_REVALIDATION_GAP_MS + 20));
    expect(reads).toHaveLength(1);
    // A request arriving while that read is in flight needs a read that starts after it.
    const late = cache.revalidated('t', cache.freshnessMark());
    reads.shift()!.resolve(1);
    await Promise.all(waiting);
    await new Promise((resolve) => setTimeout(resolve, MIN_REVALIDATION_GAP_MS + 20));
    expect(reads).toHaveLength(1);
    reads.shift()!.resolve(1);
    await late;
    // A request older than the last read is answered without another.
    await cache.revalidated('t', marks[0]);
    expect(reads).toHaveLength(0);
  });

  it('waits MIN_REVALIDATION_GAP_MS between two revision reads of a tenant', async () => {
    const { cache, reads } = cacheWith();
    const first = cache.revalidated('t', cache.freshnessMark());
    await settle();
    const firstRead = reads.shift()!;
    firstRead.resolve(1);
    await first;
    const second = cache.revalidated('t', cache.freshnessMark());
    while (reads.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    // Measured from the start of each read, as the service spaces them (a busy machine only widens the gap).
    expect(reads[0].startedAt - firstRead.startedAt).toBeGreaterThanOrEqual(MIN_REVALIDATION_GAP_MS - 1);
    reads.shift()!.resolve(1);
    await second;
  });

  it('holds at most catalogueCacheMaxTenants tenants', async () => {
    const { cache, reads } = cacheWith(50);
    const lookups = Array.from({ length: 500 }, (_, index) => cache.catalogueOf(`tenant-${index}`));
    await settle();
    reads.forEach((read) => read.resolve(0));
    await Promise.all(lookups);
    expect(cache.size).toBe(50);
  });
});
