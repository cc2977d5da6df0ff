import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { MetricsService } from '../metrics/metrics.service';
import { InjectSettings, OrchestrationSettings } from '../orchestration-options';

type Job = () => Promise<unknown>;

const INTERVAL_NAME = 'cta-orchestration-periodic-jobs';

/**
 * Runs the registered housekeeping jobs (timed transitions, purges) every
 * `schedulerIntervalMs`. Each job is idempotent, so several instances may run it.
 * A run never overlaps the previous one; a failing job is logged and the others go on.
 */
@Injectable()
export class PeriodicJobsService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(PeriodicJobsService.name);
  private readonly jobs = new Map<string, Job>();
  private running: Promise<void> | null = null;

  constructor(
    @InjectSettings() private readonly settings: OrchestrationSettings,
    private readonly schedulerRegistry: SchedulerRegistry,
    private readonly metrics: MetricsService,
  ) {}

  register(name: string, job: Job): void {
    this.jobs.set(name, job);
  }

  /** Runs every job once now; waits for a run already under way instead of starting another. */
  runAll(): Promise<void> {
    this.running ??= this.runJobs().finally(() => (this.running = null));
    return this.running;
  }

  onApplicationBootstrap(): void {
    if (this.settings.schedulerIntervalMs > 0) {
      const interval = setInterval(() => void this.runAll(), this.settings.schedulerIntervalMs);
      interval.unref();
      this.schedulerRegistry.addInterval(INTERVAL_NAME, interval);
    }
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.schedulerRegistry.doesExist('interval', INTERVAL_NAME)) {
      this.schedulerRegistry.deleteInterval(INTERVAL_NAME);
    }
    await this.running;
  }

  private async runJobs(): Promise<void> {
    for (const [name, job] of this.jobs) {
      try {
        await job();
        this.metrics.schedulerJobRan(name, true);
      } catch (error) {
        this.metrics.schedulerJobRan(name, false);
        this.logger.error({ err: error, job: name }, 'periodic job failed');
      }
    }
  }
}
