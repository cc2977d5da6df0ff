import { Injectable, OnModuleInit } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { addToRows } from '../database/row-increments';
import { TransactionRunner } from '../database/transaction-runner';
import { JOB_BATCH_ROWS, JOB_MAX_BATCHES_PER_RUN, PeriodicJobsService } from '../scheduling/periodic-jobs.service';
import { takePendingInsights, type TakenInsights } from '../sdk/pending-insights';
import { CountsByCta } from './insight-counts';
import { readPending } from './insight-pending';
import { monthOf } from './insight-range';

/** A user row changed between the fold's read and its clear (Galera: another node's write); the batch rolls back. */
class PendingChanged extends Error {}

/** Batches of a run that may roll back that way before the run leaves the rest to the next one. */
const MAX_CHANGED_BATCHES = 3;

/**
 * Adds users' pending insights to the folded rows (`insight_days`, `insight_months`, `insight_ctas`, `insight_states`) in
 * the caller's transaction, each row by an `INSERT … ON CONFLICT/DUPLICATE KEY` that adds in the database.
 * The fold's one writer of those rows; for a user's state deleted whole, its pending insights go this way too.
 */
export async function addToFolded(manager: EntityManager, taken: readonly TakenInsights[]): Promise<void> {
  const byCta = new CountsByCta<string>();
  for (const { tenantId, pending } of taken) {
    for (const change of readPending(pending)) {
      byCta.of(`${tenantId}\u0000${change.ctaId}`).add(change);
    }
  }
  const days: unknown[][] = [];
  const months: unknown[][] = [];
  const ctas: unknown[][] = [];
  const states: unknown[][] = [];
  for (const [key, counts] of byCta) {
    const [tenantId, ctaId] = key.split('\u0000');
    const byMonth = new Map<number, [number, number]>();
    counts.days.forEach(([actions, resets, newUsers], day) => {
      days.push([tenantId, ctaId, day, actions, resets, newUsers]);
      const month = byMonth.get(monthOf(day)) ?? [0, 0];
      byMonth.set(monthOf(day), [month[0] + actions, month[1] + resets]);
    });
    byMonth.forEach(([actions, resets], month) => months.push([tenantId, ctaId, month, actions, resets]));
    if (counts.users !== 0 || counts.usersReached !== 0) ctas.push([tenantId, ctaId, counts.users, counts.usersReached]);
    counts.states.forEach((machines, state) => machines !== 0 && states.push([tenantId, ctaId, state, machines]));
  }
  await addToRows(manager, 'insight_days', ['tenant_id', 'cta_id', 'day'], ['actions', 'resets', 'new_users'], days);
  await addToRows(manager, 'insight_months', ['tenant_id', 'cta_id', 'month'], ['actions', 'resets'], months);
  await addToRows(manager, 'insight_ctas', ['tenant_id', 'cta_id'], ['users', 'users_reached'], ctas);
  await addToRows(manager, 'insight_states', ['tenant_id', 'cta_id', 'state'], ['machines'], states);
}

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
    const taken = await takePendingInsights(manager, JOB_BATCH_ROWS);
    if (taken === null) {
      throw new PendingChanged();
    }
    await addToFolded(manager, taken);
    return taken.length;
  }
}
