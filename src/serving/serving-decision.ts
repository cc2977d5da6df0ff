import type { CohortEligibility } from '../cohorts/cohort-provider';
import { CtaTiming, RUNNING_STATUSES, startedBy, unexpiredAt } from '../cta-lifecycle/cta-status-policy';

/**
 * Which CTAs a launch serves a user now, and what keeps it from serving the others: one decision
 * for the launch, which only asks whether a CTA is served (`servingBlocks(…) === 0`), and for the
 * explain tool, which asks why not (`blockNames`). Served: live, or scheduled with its start passed;
 * its end not reached; and for a test CTA, unexpired and listing the user (cohorts are not looked
 * at), for any other CTA, a cohort of `includes` and none of `excludes` (README "Cohorts"), and, while the
 * user is over the tenant's exposure cap, exempt from it (docs/exposure-policy.md).
 */

/** What the decision reads of a CTA. */
export interface ServingCandidate extends CtaTiming {
  id: number;
  eligibility: CohortEligibility;
  /** Served over the exposure cap (docs/exposure-policy.md). */
  capExempt: boolean;
}

/** What it reads of the user at this launch. */
export interface ServingAudience {
  cohorts: readonly string[];
  /** Ids of the test CTAs that list the user. */
  testCtas: ReadonlySet<number> | undefined;
  /** Whether the user's actions reach the tenant's exposure cap at this launch (docs/exposure-policy.md). */
  overCap: boolean;
}

/** Each reason a CTA is not served, one bit each; the order is the order explanations list them in. */
export const SERVING_BLOCKS = {
  NOT_LIVE: 1,
  NOT_STARTED: 2,
  ENDED: 4,
  TEST_CTA_EXPIRED: 8,
  TEST_CTA_NOT_LISTED: 16,
  NOT_INCLUDED: 32,
  EXCLUDED: 64,
  EXPOSURE_CAP_REACHED: 128,
} as const;
export type ServingBlock = keyof typeof SERVING_BLOCKS;

const BLOCK_NAMES = Object.keys(SERVING_BLOCKS) as ServingBlock[];

/** Whether any of `named` is one of the user's `cohorts` (a plain loop: the launch runs it for every CTA). */
function meets(named: readonly string[], cohorts: readonly string[]): boolean {
  for (const cohort of named) {
    if (cohorts.includes(cohort)) return true;
  }
  return false;
}

/**
 * Everything that keeps `cta` from `audience` at `now`, as `SERVING_BLOCKS` bits: 0 when the launch
 * serves it. Every reason is collected (a paused CTA the user is excluded from has two), and no
 * object is made: the launch runs this for each CTA it might serve.
 */
export function servingBlocks(cta: ServingCandidate, audience: ServingAudience, now: number): number {
  let blocks = 0;
  if (!RUNNING_STATUSES.includes(cta.status)) {
    blocks |= SERVING_BLOCKS.NOT_LIVE;
  } else if (!startedBy(cta, now)) {
    blocks |= SERVING_BLOCKS.NOT_STARTED;
  }
  if (cta.endTime !== null && cta.endTime <= now) {
    blocks |= SERVING_BLOCKS.ENDED;
  }
  if (cta.isTest) {
    if (!unexpiredAt(cta, now)) blocks |= SERVING_BLOCKS.TEST_CTA_EXPIRED;
    if (audience.testCtas?.has(cta.id) !== true) blocks |= SERVING_BLOCKS.TEST_CTA_NOT_LISTED;
  } else {
    if (!meets(cta.eligibility.includes, audience.cohorts)) blocks |= SERVING_BLOCKS.NOT_INCLUDED;
    if (meets(cta.eligibility.excludes, audience.cohorts)) blocks |= SERVING_BLOCKS.EXCLUDED;
    if (audience.overCap && !cta.capExempt) blocks |= SERVING_BLOCKS.EXPOSURE_CAP_REACHED;
  }
  return blocks;
}

/** The reasons of a `servingBlocks` answer, in `SERVING_BLOCKS` order; empty when the CTA is served. */
export const blockNames = (blocks: number): ServingBlock[] => BLOCK_NAMES.filter((name) => (blocks & SERVING_BLOCKS[name]) !== 0);
