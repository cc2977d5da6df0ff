import { BAD_TENANT_EXAMPLE, type ErrorExample, type RouteErrors } from '../common/api-error-responses';
import { ErrorCode } from '../common/error-code';
import { CREATE_EXAMPLE, FLOW_CTA_ID } from '../api-docs/flow-examples';
import type { CtaInsights, InsightsOverview } from './insights.types';

/**
 * The console's flow on an empty database (cta-api-examples.ts) ends with the launch example
 * merging the device's state of the example CTA: one machine in state 2, a reset at
 * 2026-11-22T18:10Z and an action at 2026-11-22T18:42Z, the user's first. Its insights over the
 * example range are these.
 */
export const INSIGHTS_RANGE_EXAMPLE = { from: '2026-11-20', to: '2026-11-22' };

const NO_COUNTS = { actions: 0, resets: 0, newUsers: 0 };

export const CTA_INSIGHTS_EXAMPLE: CtaInsights = {
  ctaId: FLOW_CTA_ID,
  now: { users: 1, machines: 1, byState: { '2': 1 } },
  daily: [
    { day: '2026-11-20', ...NO_COUNTS },
    { day: '2026-11-21', ...NO_COUNTS },
    { day: '2026-11-22', actions: 1, resets: 1, newUsers: 1 },
  ],
  totals: { actions: 1, resets: 1, usersReached: 1 },
};

export const INSIGHTS_OVERVIEW_EXAMPLE: InsightsOverview = {
  ...INSIGHTS_RANGE_EXAMPLE,
  ctas: [{ ctaId: FLOW_CTA_ID, name: CREATE_EXAMPLE.name, ctaStatus: 'live', actions: 1, resets: 1, usersReached: 1 }],
};

const BAD_RANGE = 'INVALID_REQUEST: from or to not a UTC day as YYYY-MM-DD, from after to, or a range over 366 days';
const BAD_RANGE_EXAMPLES: ErrorExample[] = [
  [ErrorCode.INVALID_REQUEST, 'from must be a UTC day as YYYY-MM-DD, e.g. 2026-03-01, got "2026-3-1"'],
  [
    ErrorCode.INVALID_REQUEST,
    'from must be a UTC day as YYYY-MM-DD, e.g. 2026-03-01, got "2026-02-30"; to must be a UTC day as YYYY-MM-DD, e.g. 2026-03-01, got "yesterday"',
  ],
  [ErrorCode.INVALID_REQUEST, 'from (2026-03-02) must not be after to (2026-03-01)'],
  [ErrorCode.INVALID_REQUEST, 'from 2025-01-01 to 2026-03-01 spans 425 days; a range spans at most 366 days'],
];

/** The error answers of the insights routes (InsightsController). */
export const INSIGHTS_ERRORS = {
  cta: {
    400: {
      description: `CTA_ID_INVALID: no such CTA (test CTAs have no insights); ${BAD_RANGE}`,
      examples: [[ErrorCode.CTA_ID_INVALID, 'CTA 99 does not exist'], ...BAD_RANGE_EXAMPLES],
    },
  },
  overview: {
    400: { description: `${BAD_RANGE}, or a malformed x-tenant-id`, examples: [...BAD_RANGE_EXAMPLES, BAD_TENANT_EXAMPLE] },
  },
} satisfies Record<string, RouteErrors>;
