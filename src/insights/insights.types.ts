import type { CtaStatus } from '../cta-lifecycle/cta-statuses';

/** The server's view of a CTA's users now: their stored machines (a machine expired on a device counts until a launch prunes it). */
export interface InsightsNow {
  /** Users with stored machines of the CTA. */
  users: number;
  machines: number;
  /** Machines per `currentState`. */
  byState: Record<string, number>;
}

export interface InsightsDay {
  /** YYYY-MM-DD, UTC. */
  day: string;
  /** New `actionDoneAt` entries timed on the day: actions devices ran. */
  actions: number;
  /** New `resetAt` entries timed on the day: journeys completed. */
  resets: number;
  /** Users whose first action is on the day. */
  newUsers: number;
}

export interface InsightsTotals {
  /** Over the range. */
  actions: number;
  /** Over the range. */
  resets: number;
  /** Users with any action, ever (not only in the range). */
  usersReached: number;
}

/** `GET /ctas/{id}/insights`. */
export interface CtaInsights {
  ctaId: number;
  now: InsightsNow;
  /** Every day of the range, oldest first, zeros included. */
  daily: InsightsDay[];
  totals: InsightsTotals;
}

/** One CTA in `GET /insights`. */
export interface CtaInsightsSummary extends InsightsTotals {
  ctaId: number;
  name: string;
  ctaStatus: CtaStatus;
}

/** `GET /insights`: every CTA of the tenant, by actions descending (then id). */
export interface InsightsOverview {
  from: string;
  to: string;
  ctas: CtaInsightsSummary[];
}
