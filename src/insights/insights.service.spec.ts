import { DataSource } from 'typeorm';
import { Clock } from '../common/clock';
import { ErrorCode } from '../common/error-code';
import { CtaSummaries } from '../ctas/cta-summaries.reader';
import { TransactionRunner } from '../database/transaction-runner';
import { dataSourceOptions } from '../orchestration-schema';
import type { PeriodicJobsService } from '../scheduling/periodic-jobs.service';
import { sdkPendingInsights } from '../sdk/pending-insights';
import { InsightFold } from './insight-fold.service';
import type { InsightChange } from './insight-changes';
import { addToPending } from './insight-pending';
import { InsightsService } from './insights.service';

/** 2026-03-15T12:00:00Z: day 20527 (2026-03-15). */
const NOW = Date.UTC(2026, 2, 15, 12);
const TODAY = 20527;

class FixedClock extends Clock {
  override now(): number {
    return NOW;
  }
}

describe('InsightsService', () => {
  let dataSource: DataSource;
  let insights: InsightsService;
  let fold: InsightFold;

  beforeAll(async () => {
    dataSource = await new DataSource(dataSourceOptions('sqlite::memory:')).initialize();
  });
  afterAll(() => dataSource.destroy());

  beforeEach(async () => {
    for (const table of [
      'ctas',
      'sdk_user_states',
      'insight_days',
      'insight_months',
      'insight_ctas',
      'insight_states',
      'experiment_arms',
    ]) {
      await dataSource.query(`DELETE FROM ${table}`);
    }
    // t1: CTAs 1 (live) and 2 (draft), test CTA 3; t2: CTA 4.
    for (const [id, tenant, name, status, isTest] of [
      [1, 't1', 'Welcome', 'live', 0],
      [2, 't1', 'Promo', 'draft', 0],
      [3, 't1', 'Trial', 'live', 1],
      [4, 't2', 'Other', 'live', 0],
    ]) {
      await dataSource.query(
        "INSERT INTO ctas (id, tenant_id, name, team, status, rule, is_test, created_at, created_by) VALUES (?, ?, ?, 'growth', ?, '{}', ?, 0, 'alice')",
        [id, tenant, name, status, isTest],
      );
    }
    insights = new InsightsService(dataSource, new FixedClock(), new CtaSummaries(dataSource), sdkPendingInsights);
    fold = new InsightFold(new TransactionRunner(dataSource), {} as PeriodicJobsService, sdkPendingInsights);
  });

  /** A user of `tenant` whose state writes counted `changes`, not folded yet. */
  const pendingUser = (tenant: string, userId: string, changes: InsightChange[], since = NOW) =>
    dataSource.query(
      'INSERT INTO sdk_user_states (tenant_id, user_id, state, version, updated_at, pending_insights, pending_since) VALUES (?, ?, ?, 1, ?, ?, ?)',
      [tenant, userId, '{}', NOW, addToPending(null, changes), since],
    );
  const change = (ctaId: string, fields: Partial<InsightChange>): InsightChange => ({ ctaId, days: [], users: 0, states: [], ...fields });

  it("answers CTA_ID_INVALID for an unknown CTA, a test CTA and another tenant's CTA", async () => {
    for (const id of ['99', '3', '4']) {
      await expect(insights.ofCta('t1', id, {})).rejects.toMatchObject({
        code: ErrorCode.CTA_ID_INVALID,
        message: `CTA ${id} does not exist`,
      });
    }
  });

  it('answers INVALID_REQUEST for a malformed or reversed range', async () => {
    await expect(insights.ofCta('t1', '1', { from: '2026-3-1' })).rejects.toMatchObject({
      code: ErrorCode.INVALID_REQUEST,
      message: 'from must be a UTC day as YYYY-MM-DD, e.g. 2026-03-01, got "2026-3-1"',
    });
    await expect(insights.overview('t1', { from: '2026-03-10', to: '2026-03-09' })).rejects.toMatchObject({
      code: ErrorCode.INVALID_REQUEST,
      message: 'from (2026-03-10) must not be after to (2026-03-09)',
    });
  });

  it("adds the users' pending counts to the folded rows: every day of the range, totals over it, machines by state", async () => {
    await dataSource.query('INSERT INTO insight_days VALUES (?, ?, ?, ?, ?, ?)', ['t1', 1, TODAY - 2, 5, 0, 2]);
    await dataSource.query('INSERT INTO insight_days VALUES (?, ?, ?, ?, ?, ?)', ['t1', 1, TODAY - 40, 9, 9, 1]);
    await dataSource.query('INSERT INTO insight_ctas VALUES (?, ?, ?, ?)', ['t1', 1, 2, 3]);
    await dataSource.query('INSERT INTO insight_states VALUES (?, ?, ?, ?)', ['t1', 1, 'shown', 2]);
    await pendingUser('t1', '10', [change('1', { days: [[TODAY, 2, 1, 1]], users: 1, states: [['done', 1]] })]);
    await pendingUser('t1', '11', [change('1', { states: [['shown', -1]] }), change('2', { days: [[TODAY, 7, 0, 1]] })]);
    // Another tenant's pending counts of a CTA with the same id count nothing here.
    await pendingUser('t2', '10', [change('1', { days: [[TODAY, 50, 0, 1]] })]);

    expect(await insights.ofCta('t1', '1', { from: '2026-03-13' })).toEqual({
      ctaId: 1,
      now: { users: 3, machines: 2, byState: { done: 1, shown: 1 } },
      daily: [
        { day: '2026-03-13', actions: 5, resets: 0, newUsers: 2 },
        { day: '2026-03-14', actions: 0, resets: 0, newUsers: 0 },
        { day: '2026-03-15', actions: 2, resets: 1, newUsers: 1 },
      ],
      // Users reached ever: the folded 3 and the pending new user, though some reached it before the range.
      totals: { actions: 7, resets: 1, usersReached: 4 },
    });
    // Without a range: the 30 days ending today.
    const defaulted = await insights.ofCta('t1', '1', {});
    expect([defaulted.daily.length, defaulted.daily[0].day, defaulted.daily[29].day]).toEqual([30, '2026-02-14', '2026-03-15']);
  });

  it('lists every CTA of the tenant (test CTAs aside) by actions over the range, most first, then by id', async () => {
    await dataSource.query('INSERT INTO insight_months VALUES (?, ?, ?, ?, ?)', ['t1', 1, (2026 - 1970) * 12 + 1, 4, 1]);
    await dataSource.query('INSERT INTO insight_days VALUES (?, ?, ?, ?, ?, ?)', ['t1', 1, TODAY, 3, 0, 1]);
    await dataSource.query('INSERT INTO insight_ctas VALUES (?, ?, ?, ?)', ['t1', 1, 1, 1]);
    await pendingUser('t1', '10', [change('2', { days: [[TODAY, 7, 2, 1]] })]);
    expect(await insights.overview('t1', { from: '2026-02-01', to: '2026-03-15' })).toEqual({
      from: '2026-02-01',
      to: '2026-03-15',
      ctas: [
        { ctaId: 1, name: 'Welcome', ctaStatus: 'live', actions: 7, resets: 1, usersReached: 1 },
        { ctaId: 2, name: 'Promo', ctaStatus: 'draft', actions: 7, resets: 2, usersReached: 1 },
      ],
    });
    // February alone: its monthly row, none of March's days.
    const february = await insights.overview('t1', { from: '2026-02-01', to: '2026-02-28' });
    expect(february.ctas.map(({ ctaId, actions }) => [ctaId, actions])).toEqual([
      [1, 4],
      [2, 0],
    ]);
  });

  it("answers an experiment's arms as the folded rows plus the pending counts", async () => {
    await dataSource.query('INSERT INTO experiment_arms VALUES (?, ?, ?, ?, ?, ?)', ['t1', 1, 'treatment', 10, 8, 2]);
    await dataSource.query('INSERT INTO experiment_arms VALUES (?, ?, ?, ?, ?, ?)', ['t1', 1, 'holdout', 3, 0, 1]);
    await pendingUser('t1', '10', [
      change('1', {
        arms: [
          [1, 1, 1],
          [0, 0, 0],
        ],
      }),
    ]);
    expect(await insights.experimentArms('t1', 1)).toEqual([
      [11, 9, 3],
      [3, 0, 1],
    ]);
    expect(await insights.experimentArms('t1', 2)).toEqual([
      [0, 0, 0],
      [0, 0, 0],
    ]);
  });

  it('answers the same before and after the fold moves the pending counts into the folded rows', async () => {
    await pendingUser('t1', '10', [change('1', { days: [[TODAY - 1, 2, 1, 1]], users: 1, states: [['shown', 1]] })], NOW - 2);
    await pendingUser('t1', '11', [change('1', { days: [[TODAY, 1, 0, 1]], users: 1, states: [['shown', 1]] })], NOW - 1);
    const query = { from: '2026-03-01' };
    const before = [await insights.ofCta('t1', '1', query), await insights.overview('t1', query)];
    await fold.fold();
    expect(await dataSource.query('SELECT COUNT(*) AS n FROM sdk_user_states WHERE pending_insights IS NOT NULL')).toEqual([{ n: 0 }]);
    expect([await insights.ofCta('t1', '1', query), await insights.overview('t1', query)]).toEqual(before);
    expect((before[0] as { totals: unknown }).totals).toEqual({ actions: 3, resets: 1, usersReached: 2 });
  });
});
