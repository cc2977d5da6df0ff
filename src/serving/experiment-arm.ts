import { bucketOf } from '../cohorts/cohort-rule';
import type { CtaExperiment } from '../ctas/cta-experiment';
import type { CtaRule } from '../rule/rule.types';

/**
 * Which arm of a CTA's experiment a user is in, and what the holdout arm is served (docs/experiments.md,
 * docs/decisions/0026-experiments.md): one decision for the launch, the merge's counting, explain and simulate.
 */

export const EXPERIMENT_ARMS = ['treatment', 'holdout'] as const;
export type ExperimentArm = (typeof EXPERIMENT_ARMS)[number];

/** An experiment's split is in hundredths of a percent: a user's bucket is 0–9999. */
export const HOLDOUT_BUCKETS = 10_000;

/**
 * The salt of a CTA's experiment buckets: the CTA id, so experiments are independent of each other; prefixed,
 * so that no percentage cohort's salt (a cohort name, or any string an operator picks) shares its buckets.
 */
export const holdoutSalt = (ctaId: number | string): string => `cta:${ctaId}`;

/** The user's arm in the experiment of CTA `ctaId` holding out `holdoutPercent` percent: stable across launches, instances and restarts. */
export const armOf = (tenantId: string, ctaId: number | string, userId: string, holdoutPercent: number): ExperimentArm =>
  bucketOf(tenantId, holdoutSalt(ctaId), userId, HOLDOUT_BUCKETS) < holdoutPercent * 100 ? 'holdout' : 'treatment';

/**
 * The holdout variant of a rule: the same journey (transitions, states, group-by, caps, TTL, priority), every
 * action replaced by one that emits `holdoutEvent` and shows nothing, its `actionId` kept. The device records
 * `actionDoneAt` where the treatment would act, so exposure is measured alike in both arms.
 */
export function holdoutRule<Rule extends Pick<CtaRule, 'actions'>>(
  rule: Rule,
  { holdoutEvent }: Pick<CtaExperiment, 'holdoutEvent'>,
): Rule {
  return {
    ...rule,
    actions: rule.actions.map((action) => ({ actionId: action.actionId, type: 'NUDGE_ACTION', template: { eventName: holdoutEvent } })),
  };
}
