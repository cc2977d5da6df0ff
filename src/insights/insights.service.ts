import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Clock } from '../common/clock';
import { unknownCta, parseCtaId } from '../common/cta-id';
import { CtaSummaries } from '../ctas/cta-summaries.reader';
import { InjectOrchestrationDataSource } from '../database/orchestration-data-source';
import { createSnapshotReads, type SnapshotReads } from '../database/snapshot-reads';
import { EXPERIMENT_ARMS, type ExperimentArm } from '../serving/experiment-arm';
import type { ArmsCounts } from './experiment-changes';
import { dayOf } from './insight-changes';
import { CountsByCta, CtaCounts } from './insight-counts';
import { readPending } from './insight-pending';
import { PendingInsightsStore } from './pending-insights-store';
import { DayRange, dayRange, dayText, monthsAndDays } from './insight-range';
import type { CtaInsights, InsightsDay, InsightsOverview, InsightsTotals } from './insights.types';

const DAYS_OF_CTA = 'SELECT day, actions, resets, new_users FROM insight_days WHERE tenant_id = ? AND cta_id = ? AND day >= ? AND day <= ?';
const USERS_OF_CTA = 'SELECT users, users_reached FROM insight_ctas WHERE tenant_id = ? AND cta_id = ?';
const STATES_OF_CTA = 'SELECT state, machines FROM insight_states WHERE tenant_id = ? AND cta_id = ?';
const SUMS_OF_TENANT = (table: 'insight_days' | 'insight_months', column: 'day' | 'month') =>
  `SELECT cta_id, SUM(actions) AS actions, SUM(resets) AS resets FROM ${table} WHERE tenant_id = ? AND ${column} >= ? AND ${column} <= ? GROUP BY cta_id`;
const DAY_SUMS_OF_TENANT = SUMS_OF_TENANT('insight_days', 'day');
const MONTH_SUMS_OF_TENANT = SUMS_OF_TENANT('insight_months', 'month');
const REACHED_OF_TENANT = 'SELECT cta_id, users_reached FROM insight_ctas WHERE tenant_id = ?';
const ARMS_OF_CTA = 'SELECT arm, entered, exposed, converted FROM experiment_arms WHERE tenant_id = ? AND cta_id = ?';

/** Actions and resets of the range's days, and users reached ever. */
function totalsOf(counts: CtaCounts, { from, to }: DayRange): InsightsTotals {
  const totals = { actions: 0, resets: 0, usersReached: counts.usersReached };
  counts.days.forEach(([actions, resets], day) => {
    if (day >= from && day <= to) {
      totals.actions += actions;
      totals.resets += resets;
    }
  });
  return totals;
}

/**
 * The insights reads (docs/decisions/0018-campaign-insights.md): the folded rows plus the users' pending
 * insights not folded yet, read as of one moment (snapshot-reads.ts), so a read sees each of the fold's
 * batches whole or not at all and answers the same before and after them; exact as soon as the write
 * that counted is acknowledged.
 */
@Injectable()
export class InsightsService {
  private readonly reads: SnapshotReads;

  constructor(
    @InjectOrchestrationDataSource() dataSource: DataSource,
    private readonly clock: Clock,
    private readonly ctas: CtaSummaries,
    private readonly pending: PendingInsightsStore,
  ) {
    this.reads = createSnapshotReads(dataSource);
  }

  async ofCta(tenantId: string, rawId: string, query: { from?: unknown; to?: unknown }): Promise<CtaInsights> {
    const id = parseCtaId(rawId);
    const range = dayRange(query, dayOf(this.clock.now()));
    if (!(await this.ctas.one(tenantId, id))) {
      throw unknownCta(rawId);
    }
    const [days, users, states, pending] = await this.reads([
      { sql: DAYS_OF_CTA, values: [tenantId, id, range.from, range.to] },
      { sql: USERS_OF_CTA, values: [tenantId, id] },
      { sql: STATES_OF_CTA, values: [tenantId, id] },
      this.pending.pendingOf(tenantId),
    ]);
    const counts = new CtaCounts();
    days.forEach((row) => counts.addDay(Number(row.day), Number(row.actions), Number(row.resets), Number(row.new_users)));
    counts.users = Number(users[0]?.users ?? 0);
    counts.usersReached = Number(users[0]?.users_reached ?? 0);
    states.forEach((row) => counts.addMachines(String(row.state), Number(row.machines)));
    this.addPendingOf(counts, id, pending);
    const daily: InsightsDay[] = [];
    for (let day = range.from; day <= range.to; day++) {
      const [actions, resets, newUsers] = counts.days.get(day) ?? [0, 0, 0];
      daily.push({ day: dayText(day), actions, resets, newUsers });
    }
    const byState = [...counts.states].filter(([, machines]) => machines !== 0).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return {
      ctaId: id,
      now: {
        users: counts.users,
        machines: byState.reduce((sum, [, machines]) => sum + machines, 0),
        byState: Object.fromEntries(byState),
      },
      daily,
      totals: totalsOf(counts, range),
    };
  }

  /**
   * The entered, exposed and converted users of each arm of CTA `id`'s experiment (treatment, holdout;
   * docs/decisions/0026-experiments.md): the folded rows plus the pending counts, as of one moment. The
   * caller has checked the CTA.
   */
  async experimentArms(tenantId: string, id: number): Promise<ArmsCounts> {
    const [folded, pending] = await this.reads([{ sql: ARMS_OF_CTA, values: [tenantId, id] }, this.pending.pendingOf(tenantId)]);
    const counts = new CtaCounts();
    for (const row of folded) {
      const index = EXPERIMENT_ARMS.indexOf(row.arm as ExperimentArm);
      if (index >= 0) counts.arms[index] = [Number(row.entered), Number(row.exposed), Number(row.converted)];
    }
    this.addPendingOf(counts, id, pending);
    return counts.arms;
  }

  /** Adds to `counts` the pending counts of CTA `id` in the tenant's pending rows. */
  private addPendingOf(counts: CtaCounts, id: number, pending: Record<string, unknown>[]): void {
    // Only a text naming the CTA can hold its counts (`["<id>",{…}]`): the others are not parsed.
    const named = `["${id}",`;
    for (const text of pending.map((row) => String(row.pending_insights)).filter((text) => text.includes(named))) {
      readPending(text)
        .filter((change) => change.ctaId === String(id))
        .forEach((change) => counts.add(change));
    }
  }

  async overview(tenantId: string, query: { from?: unknown; to?: unknown }): Promise<InsightsOverview> {
    const range = dayRange(query, dayOf(this.clock.now()));
    // The range's whole months from the monthly rows, the days outside them (at most two runs) from the daily ones.
    const { fromMonth, toMonth, days } = monthsAndDays(range);
    const [ctas, [reached, pending, ...sums]] = await Promise.all([
      this.ctas.all(tenantId),
      this.reads([
        { sql: REACHED_OF_TENANT, values: [tenantId] },
        this.pending.pendingOf(tenantId),
        ...(fromMonth <= toMonth ? [{ sql: MONTH_SUMS_OF_TENANT, values: [tenantId, fromMonth, toMonth] }] : []),
        ...days.map((run) => ({ sql: DAY_SUMS_OF_TENANT, values: [tenantId, run.from, run.to] })),
      ]),
    ]);
    const counts = new CountsByCta();
    // The folded sums over the range, added as one day of it.
    sums.flat().forEach((row) => counts.of(Number(row.cta_id)).addDay(range.from, Number(row.actions), Number(row.resets), 0));
    reached.forEach((row) => (counts.of(Number(row.cta_id)).usersReached = Number(row.users_reached)));
    for (const row of pending) {
      readPending(String(row.pending_insights)).forEach((change) => counts.of(Number(change.ctaId)).add(change));
    }
    const summaries = ctas.map(({ id, name, status }) => ({
      ctaId: id,
      name,
      ctaStatus: status,
      ...totalsOf(counts.get(id) ?? new CtaCounts(), range),
    }));
    summaries.sort((a, b) => b.actions - a.actions || a.ctaId - b.ctaId);
    return { from: dayText(range.from), to: dayText(range.to), ctas: summaries };
  }
}
