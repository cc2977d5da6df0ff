import type { ExperimentReport } from '../src/experiments/experiment-report';
import type { CtaInsights, InsightsOverview } from '../src/insights/insights.types';
import { InsightFold } from '../src/insights/insight-fold.service';
import type { AdminClient } from './admin-client';
import { EXAMPLE_TIME, machine } from './fixtures';
import type { TestApp } from './harness';
import { SdkClient } from './sdk-client';
import { DAY } from './test-clock';

/** Shared by the insights suites (insights-*.e2e-spec.ts). */

/** The UTC day of `at` as the insights routes name it. */
export const dayOf = (at: number): string => new Date(at).toISOString().slice(0, 10);

/** EXAMPLE_TIME's day (the suites' clock runs just after it) and the days before it, as times in them. */
export const TODAY = EXAMPLE_TIME;
export const daysAgo = (days: number, offsetMs = 0): number => TODAY - days * DAY + offsetMs;

/** A delta of one CTA: its lists as given (absent ones unchanged) and `machines` (none by default). */
export const snapshot = (
  ctaId: string,
  lists: { actionDoneAt?: number[]; resetAt?: number[] } = {},
  machines: Record<string, ReturnType<typeof machine> & { reset?: boolean }> = {},
) => ({ ctas: [{ ctaId, activeStateMachines: machines, ...lists }] });

/** One day of `daily`, with zeros for the counts not given. */
export const dayCounts = (at: number, counts: { actions?: number; resets?: number; newUsers?: number } = {}) => ({
  day: dayOf(at),
  actions: 0,
  resets: 0,
  newUsers: 0,
  ...counts,
});

/** The helpers of an insights suite, on its app (`api()`: set once the suite has started it). */
export function insightsSuite(api: () => TestApp) {
  const device = (tenantId: string, userId: string | number): SdkClient => new SdkClient(api(), tenantId, String(userId));

  /** Sends a delta, failing the test unless it is stored. */
  const send = async (tenantId: string, userId: string | number, body: ReturnType<typeof snapshot>): Promise<void> => {
    const response = await device(tenantId, userId).delta(body);
    expect({ status: response.status, body: response.body }).toEqual({ status: 200, body: { data: true } });
  };

  const fold = (): Promise<void> => api().service(InsightFold).fold();

  /**
   * The CTA's insights, read before and after the fold runs: they must be the same, whatever was pending.
   * `query` defaults to the days from a week before TODAY to TODAY.
   */
  const insightsOf = async (
    admin: AdminClient,
    ctaId: string,
    query = { from: dayOf(daysAgo(7)), to: dayOf(TODAY) },
  ): Promise<CtaInsights> => {
    const before = await admin.insights.ofCta(ctaId, query);
    expect(before.status).toBe(200);
    await fold();
    const after = await admin.insights.ofCta(ctaId, query);
    expect(after.body).toEqual(before.body);
    return after.body.data;
  };

  /** The CTA's experiment report (docs/experiments.md), read before and after the fold runs: the same. */
  const experimentOf = async (admin: AdminClient, ctaId: string): Promise<ExperimentReport> => {
    const before = await admin.insights.experiment(ctaId);
    expect(before.status).toBe(200);
    await fold();
    const after = await admin.insights.experiment(ctaId);
    expect(after.body).toEqual(before.body);
    return after.body.data;
  };

  /** The tenant's overview, read before and after the fold runs: the same. */
  const overviewOf = async (admin: AdminClient, query = {}): Promise<InsightsOverview> => {
    const before = await admin.insights.overview(query);
    expect(before.status).toBe(200);
    await fold();
    const after = await admin.insights.overview(query);
    expect(after.body).toEqual(before.body);
    return after.body.data;
  };

  return { device, send, fold, insightsOf, experimentOf, overviewOf };
}
