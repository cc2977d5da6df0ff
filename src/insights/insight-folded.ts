import type { EntityManager } from 'typeorm';
import { addToRows } from '../database/row-increments';
import { EXPERIMENT_ARMS } from '../serving/experiment-arm';
import { CountsByCta } from './insight-counts';
import { readPending } from './insight-pending';
import { monthOf } from './insight-range';

/** Users' pending insights (insight-pending.ts) of one tenant each. */
export interface PendingOfTenant {
  tenantId: string;
  pending: string;
}

/**
 * Adds users' pending insights to the folded rows (`insight_days`, `insight_months`, `insight_ctas`, `insight_states`) in
 * the caller's transaction, each row by an `INSERT … ON CONFLICT/DUPLICATE KEY` that adds in the database.
 * The rows only the fold writes — and a user's erase, whose pending counts go there at once.
 */
export async function addToFolded(manager: EntityManager, taken: readonly PendingOfTenant[]): Promise<void> {
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
  const arms: unknown[][] = [];
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
    EXPERIMENT_ARMS.forEach((arm, index) => {
      const [entered, exposed, converted] = counts.arms[index];
      if (entered !== 0 || exposed !== 0 || converted !== 0) arms.push([tenantId, ctaId, arm, entered, exposed, converted]);
    });
  }
  await addToRows(manager, 'insight_days', ['tenant_id', 'cta_id', 'day'], ['actions', 'resets', 'new_users'], days);
  await addToRows(manager, 'insight_months', ['tenant_id', 'cta_id', 'month'], ['actions', 'resets'], months);
  await addToRows(manager, 'insight_ctas', ['tenant_id', 'cta_id'], ['users', 'users_reached'], ctas);
  await addToRows(manager, 'insight_states', ['tenant_id', 'cta_id', 'state'], ['machines'], states);
  await addToRows(manager, 'experiment_arms', ['tenant_id', 'cta_id', 'arm'], ['entered', 'exposed', 'converted'], arms);
}
