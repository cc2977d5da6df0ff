import { TAG_RULES_EXAMPLE } from '../behaviour-tags/behaviour-tag-api-examples';
import { FLOW_CTA_ID, FLOW_TAG_NAME, RULE_EXAMPLE } from '../ctas/cta-api-examples';

/** When the examples' latest machine moved (epoch ms); their machines live 7 days (the rule's TTL). */
export const EXAMPLE_TIME = 1795372967296;

const { cohortEligibility: _servedWithout, ...SERVED_RULE } = RULE_EXAMPLE;

/** A device's state of the example CTA `ctaId`: one machine at state 2, one reset (delete it). */
export const deltaExample = (ctaId: string) => ({
  ctas: [
    {
      ctaId,
      activeStateMachines: {
        'store-77': { currentState: '2', lastTransitionAt: EXAMPLE_TIME, createdAt: EXAMPLE_TIME, context: { storeId: 'store-77' } },
        'store-12': {
          currentState: '3',
          lastTransitionAt: 1795370000000,
          createdAt: 1795370000000,
          context: { storeId: 'store-12' },
          reset: true,
        },
      },
      resetAt: [1795371000000],
      actionDoneAt: [EXAMPLE_TIME],
    },
  ],
  behaviourTags: [
    {
      behaviourTagName: FLOW_TAG_NAME,
      exposureRule: { ctasResetAt: [{ ctaId, resetAt: 1795371000000 }] },
      ctaRelation: { activeCtas: [ctaId] },
    },
  ],
});

/** The launch answer once the example CTA `ctaId` is live, linked by the example tag, and its delta merged. */
export const launchExample = (ctaId: string) => {
  const delta = deltaExample(ctaId);
  return {
    data: {
      ctas: [
        {
          ctaId,
          rule: {
            ...SERVED_RULE,
            ctaValidTill: null,
            frequency: { ...SERVED_RULE.frequency, lifespan: SERVED_RULE.frequency.lifeSpan },
          },
          activeStateMachines: { 'store-77': delta.ctas[0].activeStateMachines['store-77'] },
          resetAt: delta.ctas[0].resetAt,
          actionDoneAt: delta.ctas[0].actionDoneAt,
          behaviourTagName: FLOW_TAG_NAME,
        },
      ],
      behaviourTags: [
        {
          behaviourTagName: FLOW_TAG_NAME,
          exposureRule: { ...TAG_RULES_EXAMPLE.exposureRule, ctasResetAt: delta.behaviourTags[0].exposureRule.ctasResetAt },
          ctaRelation: { ...TAG_RULES_EXAMPLE.ctaRelation, activeCtas: [ctaId] },
        },
      ],
    },
  };
};

const FLOW_CTA = String(FLOW_CTA_ID);
/** The console's flow: the delta and launch of the CTA the create example makes. */
export const DELTA_EXAMPLE = deltaExample(FLOW_CTA);
export const LAUNCH_EXAMPLE = launchExample(FLOW_CTA);
