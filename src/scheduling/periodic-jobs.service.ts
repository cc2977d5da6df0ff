import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { DataSource } from 'typeorm';
import { isDatabaseUnavailable, outageCause } from '../database/database-unavailable';
import { InjectOrchestrationDataSource } from '../database/orchestration-data-source';
import { TransactionRunner } from '../database/transaction-runner';
import { MetricsService } from '../metrics/metrics.service';
import { InjectSettings, OrchestrationSettings } from '../orchestration-options';
import { Clock } from '../common/clock';
import { ConflictingWrites } from '../common/domain-error';
import { PeriodicJobLeaseEntity } from './periodic-job-lease.entity';

type Job = () => Promise<unknown>;

const INTERVAL_NAME = 'cta-orchestration-periodic-jobs';

/** The most rows one statement of a periodic job touches (docs/decisions/0007-catalogue-cache-and-periodic-jobs.md). */
export const JOB_BATCH_ROWS = 1000;
/** Batches one run of a job works through at most; what is left waits for the next run. */
export const JOB_MAX_BATCHES_PER_RUN = 50;

/**
 * One run of a set-based job (docs/decisions/0007-catalogue-cache-and-periodic-jobs.md): `read` finds up to `limit` rows due, `handle`
 * deals with them; batch after batch until one comes back short or
 * JOB_MAX_BATCHES_PER_RUN have run.
 */
export async function runInBatches<T>(read: (limit: number) => Promise<T[]>, handle: (rows: T[]) => Promise<unknown>): Promise<void> {
  for (let batch = 0; batch < JOB_MAX_BATCHES_PER_RUN; batch++) {
    const rows = await read(JOB_BATCH_ROWS);
    if (rows.length > 0) {
      await handle(rows);
    }
    if (rows.length < JOB_BATCH_ROWS) {
      return;
    }
  }
}

/** The ids of a batch grouped by tenant, for statements whose every key starts with `tenant_id`. */
export function idsByTenant<Row extends { tenantId: string }, Id>(rows: Row[], idOf: (row: Row) => Id): Map<string, Id[]> {
  const grouped = new Map<string, Id[]>();
  for (const row of rows) {
    grouped.set(row.tenantId, [...(grouped.get(row.tenantId) ?? []), idOf(row)]);
  }
  return grouped;
}

/**
 * Runs the registered housekeeping jobs (timed transitions, purges) once per
 * cluster every `schedulerIntervalMs` (docs/decisions/0007-catalogue-cache-and-periodic-jobs.md). Each instance ticks; a job
 * runs on the instance that claims its lease row — a conditional UPDATE of
 * (owner, expiry), so of several instances one wins — and the owner renews its
 * claim each interval. Jobs are set-based (a few statements over all tenants),
 * so an idle tick costs a claim per job whatever the number of tenants, and
 * idempotent, so a run that outlives its lease is harmless.
 * A run never overlaps the previous one on an instance; a failing job is logged
 * and the others go on.
 */
@Injectable()
export class PeriodicJobsService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(PeriodicJobsService.name);
  private readonly jobs = new Map<string, Job>();
  /** This instance, as the owner of lease rows. */
  readonly owner = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  private leaseRowsCreated = false;
  private running: Promise<void> | null = null;

  constructor(
    @InjectSettings() private readonly settings: OrchestrationSettings,
    @InjectOrchestrationDataSource() private readonly dataSource: DataSource,
    private readonly transactions: TransactionRunner,
    private readonly clock: Clock,
    private readonly schedulerRegistry: SchedulerRegistry,
    private readonly metrics: MetricsService,
  ) {}

  register(name: string, job: Job): void {
    this.jobs.set(name, job);
  }

  /** Runs every job once now, lease or not (operators, tests); waits for a run already under way instead of starting another. */
  runAll(): Promise<void> {
    this.running ??= this.runJobs(async () => true).finally(() => (this.running = null));
    return this.running;
  }

  /** One tick of the schedule: runs the jobs whose lease this instance holds or claims now. */
  runLeased(): Promise<void> {
    this.running ??= this.runJobs((job) => this.claim(job)).finally(() => (this.running = null));
    return this.running;
  }

  onApplicationBootstrap(): void {
    if (this.settings.schedulerIntervalMs > 0) {
      const interval = setInterval(() => void this.runLeased(), this.settings.schedulerIntervalMs);
      interval.unref();
      this.schedulerRegistry.addInterval(INTERVAL_NAME, interval);
    }
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.schedulerRegistry.doesExist('interval', INTERVAL_NAME)) {
      this.schedulerRegistry.deleteInterval(INTERVAL_NAME);
    }
    await this.running;
    if (this.settings.schedulerIntervalMs > 0 && this.dataSource.isInitialized) {
      // Hands the leases over at once instead of at their expiry.
      await this.transactions
        .run((manager) =>
          manager
            .createQueryBuilder()
            .update(PeriodicJobLeaseEntity)
            .set({ expiresAt: 0 })
            .where('owner = :owner', { owner: this.owner })
            .execute(),
        )
        .catch(() => undefined);
    }
  }

  /**
   * Claims `job` until one interval from now: free when its lease has expired;
   * its owner renews from half an interval before expiry, so the owner keeps it
   * while it runs and another instance takes over once it stops.
   */
  private async claim(job: string): Promise<boolean> {
    const now = this.clock.now();
    const interval = this.settings.schedulerIntervalMs;
    // Through the transaction runner: on SQLite a bare write could join another request's open transaction.
    const update = () =>
      this.transactions.run((manager) =>
        manager
          .createQueryBuilder()
          .update(PeriodicJobLeaseEntity)
          .set({ owner: this.owner, expiresAt: now + interval })
          .where('job = :job', { job })
          .andWhere('(expires_at <= :now OR (owner = :owner AND expires_at <= :renewFrom))', {
            now,
            owner: this.owner,
            renewFrom: now + interval / 2,
          })
          .execute(),
      );
    if ((await update()).affected) {
      return true;
    }
    if (this.leaseRowsCreated) {
      return false;
    }
    // First tick of this instance: the rows of jobs no instance has run yet.
    await this.transactions.run((manager) =>
      manager
        .createQueryBuilder()
        .insert()
        .into(PeriodicJobLeaseEntity)
        .values([...this.jobs.keys()].map((name) => ({ job: name, owner: '', expiresAt: 0 })))
        .orIgnore()
        .execute(),
    );
    this.leaseRowsCreated = true;
    return Boolean((await update()).affected);
  }

  private async runJobs(mayRun: (job: string) => Promise<boolean>): Promise<void> {
    for (const [name, job] of this.jobs) {
      const startedAt = performance.now();
      try {
        if (!(await mayRun(name))) {
          continue;
        }
        await job();
        this.metrics.schedulerJobRan(name, true, (performance.now() - startedAt) / 1000);
      } catch (error) {
        this.metrics.schedulerJobRan(name, false, (performance.now() - startedAt) / 1000);
        if (isDatabaseUnavailable(error)) {
          // Expected during an outage: one short line a tick, no stack trace (docs/decisions/0022-database-outages.md).
          this.logger.warn({ job: name, cause: outageCause(error) }, 'periodic job skipped: the database is unavailable');
        } else if (error instanceof ConflictingWrites) {
          // Expected on Galera, e.g. the insights fold losing certification to merges through other nodes
          // (docs/decisions/0011-scale-out-on-galera.md): jobs are idempotent and the next run goes on.
          this.logger.warn({ job: name }, 'periodic job deferred to its next run: its writes kept conflicting with others');
        } else {
          this.logger.error({ err: error, job: name }, 'periodic job failed');
        }
      }
    }
  }
}
