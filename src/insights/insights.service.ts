import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { Clock } from '../common/clock';
import { unknownCta, parseCtaId } from '../ctas/cta-id';
import { CtaSummaries } from '../ctas/cta-summaries.reader';
import { causalReadPrefix } from '../database/causal-reads';
import { InjectOrchestrationDataSource } from '../database/orchestration-data-source';
import { TransactionRunner } from '../database/transaction-runner';
import { pendingInsightsOf } from '../sdk/pending-insights';
import { dayOf } from './insight-changes';
import { CountsByCta, CtaCounts } from './insight-counts';
import { readPending } from './insight-pending';
import { DayRange, dayRange, dayText } from './insight-range';
import type { CtaInsights, InsightsDay, InsightsOverview, InsightsTotals } from './insights.types';

/** Runs a SELECT of the read's snapshot; rows as objects (numbers may come as strings: SUMs on MySQL). */
type Select = (sql: string, values: unknown[]) => Promise<Record<string, string | number>[]>;

const DAY_COUNTS_OF_CTA =
  'SELECT day, actions, resets, new_users FROM insight_days WHERE tenant_id = ? AND cta_id = ? AND day >= ? AND day <= ?';
const USERS_OF_CTA = 'SELECT users, users_reached FROM insight_ctas WHERE tenant_id = ? AND cta_id = ?';
const STATES_OF_CTA = 'SELECT state, machines FROM insight_states WHERE tenant_id = ? AND cta_id = ?';
const RANGE_SUMS_OF_TENANT =
  'SELECT cta_id, SUM(actions) AS actions, SUM(resets) AS resets FROM insight_days WHERE tenant_id = ? AND day >= ? AND day <= ? GROUP BY cta_id';
const REACHED_OF_TENANT = 'SELECT cta_id, users_reached FROM insight_ctas WHERE tenant_id = ?';

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
 * insights not folded yet, read in one transaction, so a read sees the fold's batches whole or not at
 * all and answers the same before and after them; exact as soon as the write that counted is acknowledged.
 */
@Injectable()
export class InsightsService {
  constructor(
    @InjectOrchestrationDataSource() private readonly dataSource: DataSource,
    private readonly transactions: TransactionRunner,
    private readonly clock: Clock,
    private readonly ctas: CtaSummaries,
  ) {}

  async ofCta(tenantId: string, rawId: string, query: { from?: unknown; to?: unknown }): Promise<CtaInsights> {
    const id = parseCtaId(rawId);
    const range = dayRange(query, dayOf(this.clock.now()));
    if (!(await this.ctas.one(tenantId, id))) {
      throw unknownCta(rawId);
    }
    const counts = await this.snapshot(async (select, manager) => {
      const read = new CtaCounts();
      for (const row of await select(DAY_COUNTS_OF_CTA, [tenantId, id, range.from, range.to])) {
        read.addDay(Number(row.day), Number(row.actions), Number(row.resets), Number(row.new_users));
      }
      const [users] = await select(USERS_OF_CTA, [tenantId, id]);
      read.users = Number(users?.users ?? 0);
      read.usersReached = Number(users?.users_reached ?? 0);
      for (const row of await select(STATES_OF_CTA, [tenantId, id])) {
        read.addMachines(String(row.state), Number(row.machines));
      }
      for (const pending of await pendingInsightsOf(manager, tenantId)) {
        readPending(pending)
          .filter((change) => change.ctaId === String(id))
          .forEach((change) => read.add(change));
      }
      return read;
    });
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

  async overview(tenantId: string, query: { from?: unknown; to?: unknown }): Promise<InsightsOverview> {
    const range = dayRange(query, dayOf(this.clock.now()));
    const [ctas, counts] = await Promise.all([
      this.ctas.all(tenantId),
      this.snapshot(async (select, manager) => {
        const read = new CountsByCta();
        // The folded days' sums over the range, added as one day of it.
        for (const row of await select(RANGE_SUMS_OF_TENANT, [tenantId, range.from, range.to])) {
          read.of(Number(row.cta_id)).addDay(range.from, Number(row.actions), Number(row.resets), 0);
        }
        for (const row of await select(REACHED_OF_TENANT, [tenantId])) {
          read.of(Number(row.cta_id)).usersReached = Number(row.users_reached);
        }
        for (const pending of await pendingInsightsOf(manager, tenantId)) {
          readPending(pending).forEach((change) => read.of(Number(change.ctaId)).add(change));
        }
        return read;
      }),
    ]);
    const summaries = ctas.map(({ id, name, status }) => ({
      ctaId: id,
      name,
      ctaStatus: status,
      ...totalsOf(counts.get(id) ?? new CtaCounts(), range),
    }));
    summaries.sort((a, b) => b.actions - a.actions || a.ctaId - b.ctaId);
    return { from: dayText(range.from), to: dayText(range.to), ctas: summaries };
  }

  /**
   * `read`'s reads in one transaction, `select` first: one snapshot on MySQL/MariaDB (the first SELECT
   * also waits for the writes other Galera nodes acknowledged), and on SQLite neither a fold batch nor
   * a state write runs between them.
   */
  private async snapshot<T>(read: (select: Select, manager: EntityManager) => Promise<T>): Promise<T> {
    const causal = await causalReadPrefix(this.dataSource);
    return this.transactions.run((manager) => {
      let prefix = causal;
      const select: Select = (sql, values) => {
        const statement = prefix + sql;
        prefix = '';
        return manager.query(statement, values);
      };
      return read(select, manager);
    });
  }
}
