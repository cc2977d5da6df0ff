/** Swagger examples of the CTA admin API: one CTA as written and as read back. */
export const RECORD_EXAMPLE = {
  id: 12,
  name: 'first-purchase-reminder',
  description: 'Nudge new users who opened the store twice without buying',
  tags: ['onboarding', 'store'],
  team: 'growth',
  behaviourTags: ['store-nudges'],
  startTime: 1795372800000,
  endTime: null,
  ctaStatus: 'live',
  rule: {
    cohortEligibility: { includes: ['all'], excludes: ['paying_users'] },
    stateToAction: { '1': 'store_banner' },
    stateTransition: { store_opened: { '0': [{ transitionTo: '1', filters: { operator: 'AND', filter: [] } }] } },
    priority: 5,
    stateMachineTTL: 604800000,
    actions: [{ actionId: 'store_banner', type: 'NUDGE_UI' }],
    frequency: { session: { limit: 1 }, window: { limit: 2, unit: 'days', value: 7 }, lifeSpan: { limit: 5 } },
    ctaValidTill: null,
  },
  createdAt: 1795372000000,
  createdBy: 'ops@example.com',
  lastUpdatedAt: null,
  lastUpdatedBy: null,
  tenantId: 'default',
};

const { ctaValidTill: _derived, ...writtenRule } = RECORD_EXAMPLE.rule;
/** The rule as written: without the derived ctaValidTill. */
export const RULE_EXAMPLE = writtenRule;
export const UPDATE_EXAMPLE = { description: RECORD_EXAMPLE.description, tags: RECORD_EXAMPLE.tags, team: RECORD_EXAMPLE.team, startTime: null, endTime: null, rule: RULE_EXAMPLE };
export const CREATE_EXAMPLE = { name: RECORD_EXAMPLE.name, ...UPDATE_EXAMPLE };
