import { MetricsService } from './metrics.service';

/** The registry's value of `name` for the labels given (every label of the sample must match), or undefined. */
async function valueOf(metrics: MetricsService, name: string, labels: Record<string, string> = {}): Promise<number | undefined> {
  const all = await metrics.registry.getMetricsAsJSON();
  for (const metric of all) {
    for (const sample of metric.values as { metricName?: string; labels: Record<string, string | number>; value: number }[]) {
      const sampleName = sample.metricName ?? metric.name;
      if (sampleName === name && Object.entries(labels).every(([key, value]) => String(sample.labels[key]) === value)) {
        if (Object.keys(sample.labels).filter((key) => key !== 'le').length === Object.keys(labels).length) return sample.value;
      }
    }
  }
  return undefined;
}

describe('MetricsService', () => {
  it('keeps its metrics on a registry of its own: two services count apart', async () => {
    const first = new MetricsService();
    const second = new MetricsService();
    first.launchCapped();
    first.launchCapped();
    expect(await valueOf(first, 'cta_exposure_capped_launches_total')).toBe(2);
    expect(await valueOf(second, 'cta_exposure_capped_launches_total')).toBe(0);
  });

  it('counts requests by method, route and status, with their latency', async () => {
    const metrics = new MetricsService();
    metrics.observeRequest('GET', '/ctas', 200, 0.003);
    metrics.observeRequest('GET', '/ctas', 200, 0.2);
    metrics.observeRequest('POST', '/ctas', 400, 0.001);
    const ok = { method: 'GET', route: '/ctas', status: '200' };
    expect(await valueOf(metrics, 'cta_http_request_duration_seconds_count', ok)).toBe(2);
    expect(await valueOf(metrics, 'cta_http_request_duration_seconds_sum', ok)).toBeCloseTo(0.203, 6);
    expect(await valueOf(metrics, 'cta_http_request_duration_seconds_count', { method: 'POST', route: '/ctas', status: '400' })).toBe(1);
  });

  it('counts cache lookups as hit or miss, and merges as applied or ignored, adding no zero samples', async () => {
    const metrics = new MetricsService();
    metrics.catalogueCacheLookup(true);
    metrics.catalogueCacheLookup(true);
    metrics.catalogueCacheLookup(false);
    metrics.snapshotsMerged(3, 0);
    expect(await metrics.registry.metrics()).not.toContain('cta_snapshot_merges_total{result="ignored"}');
    metrics.snapshotsMerged(0, 2);
    expect(await valueOf(metrics, 'cta_launch_catalogue_cache_total', { result: 'hit' })).toBe(2);
    expect(await valueOf(metrics, 'cta_launch_catalogue_cache_total', { result: 'miss' })).toBe(1);
    expect(await valueOf(metrics, 'cta_snapshot_merges_total', { result: 'applied' })).toBe(3);
    expect(await valueOf(metrics, 'cta_snapshot_merges_total', { result: 'ignored' })).toBe(2);
    const text = await metrics.registry.metrics();
    expect(text).toContain('cta_snapshot_merges_total{result="applied"} 3');
  });

  it('counts job runs by outcome and times them; truncations by cap; oversized SDK bodies by route', async () => {
    const metrics = new MetricsService();
    metrics.schedulerJobRan('audit-purge', true, 0.5);
    metrics.schedulerJobRan('audit-purge', false, 0.25);
    metrics.stateTruncated('machines_per_cta', 4);
    metrics.stateTruncated('user_state_bytes', 1);
    metrics.sdkBodyOversized('/sdk/launch');
    expect(await valueOf(metrics, 'cta_scheduler_job_runs_total', { job: 'audit-purge', outcome: 'success' })).toBe(1);
    expect(await valueOf(metrics, 'cta_scheduler_job_runs_total', { job: 'audit-purge', outcome: 'failure' })).toBe(1);
    expect(await valueOf(metrics, 'cta_periodic_job_duration_seconds_count', { job: 'audit-purge' })).toBe(2);
    expect(await valueOf(metrics, 'cta_periodic_job_duration_seconds_sum', { job: 'audit-purge' })).toBe(0.75);
    expect(await valueOf(metrics, 'cta_state_truncations_total', { reason: 'machines_per_cta' })).toBe(4);
    expect(await valueOf(metrics, 'cta_state_truncations_total', { reason: 'user_state_bytes' })).toBe(1);
    expect(await valueOf(metrics, 'cta_sdk_oversized_bodies_total', { route: '/sdk/launch' })).toBe(1);
  });

  it('reads the watched catalogue cache size and large-body lane at each scrape', async () => {
    const metrics = new MetricsService();
    let tenants = 3;
    let lane = { holding: 2, waiting: 5 };
    metrics.watchCatalogueCache(() => tenants);
    metrics.watchLargeBodyLane(() => lane);
    expect(await valueOf(metrics, 'cta_catalogue_cache_tenants')).toBe(3);
    expect(await valueOf(metrics, 'cta_large_body_lane_requests', { state: 'waiting' })).toBe(5);
    tenants = 7;
    lane = { holding: 0, waiting: 1 };
    expect(await valueOf(metrics, 'cta_catalogue_cache_tenants')).toBe(7);
    expect(await valueOf(metrics, 'cta_large_body_lane_requests', { state: 'holding' })).toBe(0);
    expect(await valueOf(metrics, 'cta_large_body_lane_requests', { state: 'waiting' })).toBe(1);
  });
});
