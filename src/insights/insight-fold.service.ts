import { Injectable, OnModuleInit } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { TransactionRunner } from '../database/transaction-runner';
import { JOB_BATCH_ROWS, JOB_MAX_BATCHES_PER_RUN, PeriodicJobsService } from '../scheduling/periodic-jobs.service';
import { addToFolded } from './insight-folded';
import { PendingInsightsStore } from './pending-insights-store';

/** A user row changed between the fold's read and its clear (Galera: another node's write); the batch rolls back. */
class PendingChanged extends Error {}

/** Batches of a run that may roll back that way before the run leaves the rest to the next one. */
const MAX_CHANGED_BATCHES = 3;

/**
 * The periodic fold (docs/decisions/0018-campaign-insights.md), under its lease
 * (docs/decisions/0007-catalogue-cache-and-periodic-jobs.md): users' pending insights, oldest first, into
 * the folded rows. Each batch is one transaction that clears what it takes and adds it up, so a read
 * (the folded rows plus the pending insights, in one snapshot) answers the same before and after it.
 */
@Injectable()
export class InsightFold implements OnModuleInit {
  constructor(
    private readonly transactions: TransactionRunner,
    private readonly periodicJobs: PeriodicJobsService,
    private readonly pending: PendingInsightsStore,
  ) {}

  onModuleInit(): void {
    this.periodicJobs.register('insights-fold', () => this.fold());
  }

  /** Folds batches of JOB_BATCH_ROWS users until none is left or JOB_MAX_BATCHES_PER_RUN have run. */
  async fold(): Promise<void> {
    for (let batch = 0, changed = 0; batch < JOB_MAX_BATCHES_PER_RUN; batch++) {
      let folded: number;
      try {
        folded = await this.transactions.run((manager) => this.foldBatch(manager));
      } catch (error) {
        if (error instanceof PendingChanged && ++changed < MAX_CHANGED_BATCHES) continue;
        if (error instanceof PendingChanged) return;
        throw error;
      }
      if (folded < JOB_BATCH_ROWS) return;
    }
  }

  private async foldBatch(manager: EntityManager): Promise<number> {
    const taken = await this.pending.take(manager, JOB_BATCH_ROWS);
    if (taken === null) {
      throw new PendingChanged();
    }
    await addToFolded(manager, taken);
    return taken.length;
  }
}
