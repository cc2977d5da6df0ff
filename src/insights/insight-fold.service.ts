import { Injectable, OnModuleInit } from '@nestjs/common';
import { EntityManager, In } from 'typeorm';
import { addToRows } from '../database/row-increments';
import { TransactionRunner } from '../database/transaction-runner';
import { JOB_BATCH_ROWS, JOB_MAX_BATCHES_PER_RUN, PeriodicJobsService } from '../scheduling/periodic-jobs.service';
import { CountsByCta } from './insight-counts';
import { InsightPendingEntity } from './insight-pending.entity';
import { readPendingCounts } from './insight-pending';

/** Another instance folded rows of this batch first (its lease ran out meanwhile): this one rolls back and stops. */
class FoldedElsewhere extends Error {}

/**
 * The periodic fold (docs/decisions/0018-campaign-insights.md): pending rows, oldest first, into the daily
 * and per-CTA rows, under the job's lease (docs/decisions/0007-catalogue-cache-and-periodic-jobs.md). Each
 * batch is one transaction that deletes the rows it read and adds them up, so a read — which adds
 * the rows still pending to the folded ones in one snapshot — answers the same before and after.
 * Only the fold writes the folded rows, so merges never touch a shared row.
 */
@Injectable()
export class InsightFold implements OnModuleInit {
  constructor(
    private readonly transactions: TransactionRunner,
    private readonly periodicJobs: PeriodicJobsService,
  ) {}

  onModuleInit(): void {
    this.periodicJobs.register('insights-fold', () => this.fold());
  }

  /** Folds batches of JOB_BATCH_ROWS until the pending rows run out or JOB_MAX_BATCHES_PER_RUN have run. */
  async fold(): Promise<void> {
    for (let batch = 0; batch < JOB_MAX_BATCHES_PER_RUN; batch++) {
      let folded: number;
      try {
        folded = await this.transactions.run((manager) => this.foldBatch(manager, JOB_BATCH_ROWS));
      } catch (error) {
        if (error instanceof FoldedElsewhere) return;
        throw error;
      }
      if (folded < JOB_BATCH_ROWS) return;
    }
  }

  private async foldBatch(manager: EntityManager, limit: number): Promise<number> {
    const rows = await manager.find(InsightPendingEntity, { order: { id: 'ASC' }, take: limit });
    if (rows.length === 0) {
      return 0;
    }
    // Deleted first: a row another instance folded meanwhile is gone (after its commit, on MySQL;
    // on Galera the later commit fails certification and runs again), and this batch rolls back whole.
    const { affected } = await manager.delete(InsightPendingEntity, { id: In(rows.map((row) => row.id)) });
    if (affected !== rows.length) {
      throw new FoldedElsewhere();
    }
    const byCta = new CountsByCta<string>();
    for (const row of rows) {
      byCta.of(`${row.tenantId}\u0000${row.ctaId}`).add(readPendingCounts(row.counts));
    }
    const days: unknown[][] = [];
    const ctas: unknown[][] = [];
    const states: unknown[][] = [];
    for (const [key, counts] of byCta) {
      const [tenantId, ctaId] = key.split('\u0000');
      counts.days.forEach(([actions, resets, newUsers], day) => days.push([tenantId, ctaId, day, actions, resets, newUsers]));
      if (counts.users !== 0 || counts.usersReached !== 0) ctas.push([tenantId, ctaId, counts.users, counts.usersReached]);
      counts.states.forEach((machines, state) => machines !== 0 && states.push([tenantId, ctaId, state, machines]));
    }
    await addToRows(manager, 'insight_days', ['tenant_id', 'cta_id', 'day'], ['actions', 'resets', 'new_users'], days);
    await addToRows(manager, 'insight_ctas', ['tenant_id', 'cta_id'], ['users', 'users_reached'], ctas);
    await addToRows(manager, 'insight_states', ['tenant_id', 'cta_id', 'state'], ['machines'], states);
    return rows.length;
  }
}
