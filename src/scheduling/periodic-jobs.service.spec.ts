import { Logger } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { DataSource } from 'typeorm';
import type { Clock } from '../common/clock';
import { ConflictingWrites } from '../common/domain-error';
import { TransactionRunner } from '../database/transaction-runner';
import { MetricsService } from '../metrics/metrics.service';
import { resolveSettings } from '../orchestration-options';
import { dataSourceOptions } from '../orchestration-schema';
import { idsByTenant, JOB_BATCH_ROWS, JOB_MAX_BATCHES_PER_RUN, PeriodicJobsService, runInBatches } from './periodic-jobs.service';

const START = 1_800_000_000_000;
const INTERVAL = 10_000;

describe('PeriodicJobsService', () => {
  let dataSource: DataSource;
  /** A clock the spec moves by hand. */
  let clock: Clock & { at: number };
  let errors: jest.SpyInstance;
  let warnings: jest.SpyInstance;

  beforeAll(async () => {
    dataSource = await new DataSource(dataSourceOptions('sqlite::memory:')).initialize();
  });
  afterAll(() => dataSource.destroy());

  beforeEach(async () => {
    await dataSource.query('DELETE FROM periodic_job_leases');
    clock = { at: START, now: () => clock.at };
    errors = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    warnings = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
  });
  afterEach(() => jest.restoreAllMocks());

  /** An instance of the service on the shared database, with the jobs given; `ran` lists the runs. */
  function instance(jobs: Record<string, () => Promise<unknown>>, intervalMs = INTERVAL) {
    const metrics = new MetricsService();
    const registry = new SchedulerRegistry();
    const service = new PeriodicJobsService(
      resolveSettings({ schedulerIntervalMs: intervalMs }),
      dataSource,
      new TransactionRunner(dataSource),
      clock,
      registry,
      metrics,
    );
    Object.entries(jobs).forEach(([name, job]) => service.register(name, job));
    return { service, metrics, registry };
  }

  const runsOf = async (metrics: MetricsService, job: string, outcome: 'success' | 'failure') =>
    (await metrics.registry.getSingleMetric('cta_scheduler_job_runs_total')!.get()).values.find(
      (sample) => sample.labels.job === job && sample.labels.outcome === outcome,
    )?.value ?? 0;

  it('runs every job on runAll; a failing job is counted as a failure and logged, and the others still run', async () => {
    const ran: string[] = [];
    const { service, metrics } = instance({
      first: async () => ran.push('first'),
      broken: async () => {
        throw new Error('boom');
      },
      last: async () => ran.push('last'),
    });
    await service.runAll();
    expect(ran).toEqual(['first', 'last']);
    expect(await runsOf(metrics, 'first', 'success')).toBe(1);
    expect(await runsOf(metrics, 'broken', 'failure')).toBe(1);
    expect(errors).toHaveBeenCalledWith(expect.objectContaining({ job: 'broken' }), 'periodic job failed');
  });

  it('logs a job that kept losing to conflicting writes as deferred, at warn level, not as an error', async () => {
    const { service, metrics } = instance({
      fold: async () => {
        throw new ConflictingWrites();
      },
    });
    await service.runAll();
    expect(await runsOf(metrics, 'fold', 'failure')).toBe(1);
    expect(warnings).toHaveBeenCalledWith(
      { job: 'fold' },
      'periodic job deferred to its next run: its writes kept conflicting with others',
    );
    expect(errors).not.toHaveBeenCalled();
  });

  it('never overlaps runs on an instance: a runAll during a run waits for it instead of starting another', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let runs = 0;
    const { service } = instance({
      slow: () => {
        runs++;
        return held;
      },
    });
    const first = service.runAll();
    const second = service.runAll();
    await new Promise((resolve) => setImmediate(resolve));
    release();
    await Promise.all([first, second]);
    expect(runs).toBe(1);
    await service.runAll();
    expect(runs).toBe(2);
  });

  it('runs a leased job on one instance of the cluster until its lease expires, then on another', async () => {
    const ran: string[] = [];
    const a = instance({ purge: async () => ran.push('a') }).service;
    const b = instance({ purge: async () => ran.push('b') }).service;
    await a.runLeased();
    await b.runLeased();
    expect(ran).toEqual(['a']);
    expect(await dataSource.query('SELECT job, owner, expires_at AS expiresAt FROM periodic_job_leases')).toEqual([
      { job: 'purge', owner: a.owner, expiresAt: START + INTERVAL },
    ]);
    // The owner renews from half an interval before expiry; no one else may claim before it.
    clock.at = START + INTERVAL / 2 - 1;
    await a.runLeased();
    await b.runLeased();
    expect(ran).toEqual(['a']);
    clock.at = START + INTERVAL / 2;
    await a.runLeased();
    expect(ran).toEqual(['a', 'a']);
    // The owner stops ticking: once its lease has expired, another instance takes over.
    clock.at = START + INTERVAL / 2 + INTERVAL;
    await b.runLeased();
    expect(ran).toEqual(['a', 'a', 'b']);
  });

  it('hands its leases over at shutdown, so another instance runs the job at once', async () => {
    const ran: string[] = [];
    const a = instance({ purge: async () => ran.push('a') }).service;
    const b = instance({ purge: async () => ran.push('b') }).service;
    await a.runLeased();
    await a.onApplicationShutdown();
    await b.runLeased();
    expect(ran).toEqual(['a', 'b']);
  });

  it('schedules its ticks at bootstrap only when schedulerIntervalMs is set, and stops them at shutdown', async () => {
    const on = instance({}, INTERVAL);
    on.service.onApplicationBootstrap();
    expect(on.registry.getIntervals()).toEqual(['cta-orchestration-periodic-jobs']);
    await on.service.onApplicationShutdown();
    expect(on.registry.getIntervals()).toEqual([]);
    const off = instance({}, 0);
    off.service.onApplicationBootstrap();
    expect(off.registry.getIntervals()).toEqual([]);
  });
});

describe('runInBatches', () => {
  it('handles batch after batch until one comes back short', async () => {
    const sizes = [JOB_BATCH_ROWS, JOB_BATCH_ROWS, 3, 7];
    const handled: number[] = [];
    await runInBatches(
      async (limit) => Array.from({ length: Math.min(limit, sizes.shift() ?? 0) }, (_, index) => index),
      async (rows) => handled.push(rows.length),
    );
    expect(handled).toEqual([JOB_BATCH_ROWS, JOB_BATCH_ROWS, 3]);
  });

  it('stops after JOB_MAX_BATCHES_PER_RUN full batches, and hands no empty batch over', async () => {
    let reads = 0;
    const handle = jest.fn(async () => undefined);
    await runInBatches(async (limit) => (reads++, Array.from({ length: limit }, () => 0)), handle);
    expect(reads).toBe(JOB_MAX_BATCHES_PER_RUN);
    await runInBatches(async () => [], handle);
    expect(handle).toHaveBeenCalledTimes(JOB_MAX_BATCHES_PER_RUN);
  });
});

describe('idsByTenant', () => {
  it('groups the ids of a batch by tenant, in the order met', () => {
    const rows = [
      { tenantId: 'b', id: 1 },
      { tenantId: 'a', id: 2 },
      { tenantId: 'b', id: 3 },
    ];
    expect([...idsByTenant(rows, (row) => row.id)]).toEqual([
      ['b', [1, 3]],
      ['a', [2]],
    ]);
  });
});
