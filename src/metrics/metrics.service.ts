import { Injectable } from '@nestjs/common';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';

/**
 * The service's Prometheus metrics, on a registry of its own so a host can
 * expose or merge it as it likes. The standalone app serves it at /metrics.
 */
@Injectable()
export class MetricsService {
  readonly registry = new Registry();

  private readonly requestDuration = new Histogram({
    name: 'cta_http_request_duration_seconds',
    help: 'HTTP requests by method, route and status: count and latency',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [this.registry],
  });

  private readonly catalogueCache = new Counter({
    name: 'cta_launch_catalogue_cache_total',
    help: 'App launches served from the cached tenant catalogue (hit) or after rebuilding it (miss)',
    labelNames: ['result'] as const,
    registers: [this.registry],
  });

  private readonly merges = new Counter({
    name: 'cta_snapshot_merges_total',
    help: 'State-machine snapshots merged (applied) or skipped as stale or unknown (ignored)',
    labelNames: ['result'] as const,
    registers: [this.registry],
  });

  private readonly schedulerRuns = new Counter({
    name: 'cta_scheduler_job_runs_total',
    help: 'Periodic job runs by job and outcome',
    labelNames: ['job', 'outcome'] as const,
    registers: [this.registry],
  });

  private readonly stateTruncations = new Counter({
    name: 'cta_state_truncations_total',
    help: "Entries dropped from app users' stored state to keep it within MAX_MACHINES_PER_CTA and MAX_USER_STATE_BYTES, by cap",
    labelNames: ['reason'] as const,
    registers: [this.registry],
  });

  private readonly exposureCapped = new Counter({
    name: 'cta_exposure_capped_launches_total',
    help: "App launches of users at their tenant's exposure cap: only capExempt and test CTAs were served",
    registers: [this.registry],
  });

  private readonly sdkOversizedBodies = new Counter({
    name: 'cta_sdk_oversized_bodies_total',
    help: 'SDK bodies over SDK_BODY_LIMIT_BYTES that were answered as without a body (the launch), by route',
    labelNames: ['route'] as const,
    registers: [this.registry],
  });

  private readonly jobDuration = new Histogram({
    name: 'cta_periodic_job_duration_seconds',
    help: "Periodic job runs on this instance (the one holding the job's lease): count and duration",
    labelNames: ['job'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });

  observeRequest(method: string, route: string, status: number, seconds: number): void {
    this.requestDuration.observe({ method, route, status: String(status) }, seconds);
  }

  catalogueCacheLookup(hit: boolean): void {
    this.catalogueCache.inc({ result: hit ? 'hit' : 'miss' });
  }

  snapshotsMerged(applied: number, ignored: number): void {
    if (applied > 0) this.merges.inc({ result: 'applied' }, applied);
    if (ignored > 0) this.merges.inc({ result: 'ignored' }, ignored);
  }

  schedulerJobRan(job: string, succeeded: boolean, seconds: number): void {
    this.schedulerRuns.inc({ job, outcome: succeeded ? 'success' : 'failure' });
    this.jobDuration.observe({ job }, seconds);
  }

  /** Reports `size()` as the number of tenants in the catalogue cache at each scrape. */
  watchCatalogueCache(size: () => number): void {
    new Gauge({
      name: 'cta_catalogue_cache_tenants',
      help: 'Tenants whose SDK catalogue this instance holds (at most CATALOGUE_CACHE_MAX_TENANTS)',
      registers: [this.registry],
      collect() {
        this.set(size());
      },
    });
  }

  launchCapped(): void {
    this.exposureCapped.inc();
  }

  sdkBodyOversized(route: string): void {
    this.sdkOversizedBodies.inc({ route });
  }

  /** Reports the large-body lane's requests holding a slot and waiting for one at each scrape. */
  watchLargeBodyLane(lane: () => { holding: number; waiting: number }): void {
    new Gauge({
      name: 'cta_large_body_lane_requests',
      help: 'Requests with bodies over 64 KiB in the large-body lane of this instance, holding a slot or waiting for one',
      labelNames: ['state'] as const,
      registers: [this.registry],
      collect() {
        const { holding, waiting } = lane();
        this.set({ state: 'holding' }, holding);
        this.set({ state: 'waiting' }, waiting);
      },
    });
  }

  stateTruncated(reason: 'machines_per_cta' | 'user_state_bytes', entries: number): void {
    this.stateTruncations.inc({ reason }, entries);
  }
}
