/**
 * Swagger examples of the console's flow (docs/decisions/0014-admin-console.md). On an empty database they run
 * top to bottom as the page lists them: this CTA (id 1: the first CTA of an empty database), the behaviour
 * tag linking it, go live, ..., a launch; each example either runs on its own on an empty database or says
 * in its summary what it needs first (`exampleNeeds`). Every rule and tag here is one devices can run
 * (docs/decisions/0003-device-rule-grammar.md, 0004-behaviour-tags.md): it is the shared example body.
 */

/** The id the CTA create example gets on an empty database; path examples use it. */
export const FLOW_CTA_ID = 1;
/** The test CTA created after it gets the next id. */
export const FLOW_TEST_CTA_ID = 2;
/** The app user of the SDK examples (a signed 64-bit integer, as devices send it). */
export const FLOW_USER_ID = '1234567890123';
export const FLOW_TAG_NAME = 'store-nudges';

/** The rule as written: a banner after the store is opened from home with a cart of 500 or more, a popup on the next opening. */
export const RULE_EXAMPLE = {
  cohortEligibility: { includes: ['all'], excludes: ['paying_users'] },
  stateToAction: { '1': 'store_banner', '2': 'discount_popup' },
  resetStates: ['3'],
  resetCTAonFirstLaunch: false,
  contextParams: ['storeId'],
  stateTransition: {
    store_opened: {
      '0': [
        {
          transitionTo: '1',
          filters: {
            operator: 'AND',
            filter: [
              { propertyName: 'source', propertyType: 'string', comparisonType: '=', comparisonValue: 'home' },
              { propertyName: 'cartValue', propertyType: 'number', comparisonType: '>=', comparisonValue: 500 },
            ],
          },
        },
      ],
      '1': [{ transitionTo: '2', filters: { operator: 'AND', filter: [] } }],
    },
    purchase_completed: {
      '1': [{ transitionTo: '3', filters: { operator: 'AND', filter: [] } }],
      '2': [{ transitionTo: '3', filters: { operator: 'AND', filter: [] } }],
    },
  },
  groupByConfig: { maxActiveStateMachineCount: 1, groupByKeys: ['storeId'] },
  priority: 5,
  stateMachineTTL: 604800000,
  actions: [
    { actionId: 'store_banner', type: 'NUDGE_UI', template: 'banner_v2', props: { title: 'Still looking?', deeplink: 'app://store' } },
    {
      actionId: 'discount_popup',
      type: 'POPUP',
      template: 'popup_discount',
      props: { title: '10% off your first order', code: 'FIRST10' },
    },
  ],
  frequency: { session: { limit: 1 }, window: { limit: 2, unit: 'days', value: 7 }, lifeSpan: { limit: 5 } },
};

/** The created CTA sent back unchanged; its times left out keep their values, so a live CTA takes it too (its state graph is kept). */
export const UPDATE_EXAMPLE = {
  description: 'Nudge new users who opened the store twice without buying',
  tags: ['onboarding', 'store'],
  team: 'growth',
  rule: RULE_EXAMPLE,
};

/** An experiment on the example's rule: 10% held out, converting when the journey completes (state "3", a purchase). */
export const EXPERIMENT_EXAMPLE = { holdoutPercent: 10, goal: { state: '3' }, windowDays: 7, holdoutEvent: 'cta_holdout' };

export const CREATE_EXAMPLE = {
  name: 'first-purchase-reminder',
  description: UPDATE_EXAMPLE.description,
  tags: UPDATE_EXAMPLE.tags,
  team: UPDATE_EXAMPLE.team,
  startTime: null,
  endTime: null,
  rule: RULE_EXAMPLE,
  experiment: EXPERIMENT_EXAMPLE,
};

/** CTA 1 as read back once the flow has linked it and taken it live. */
export const RECORD_EXAMPLE = {
  id: FLOW_CTA_ID,
  name: CREATE_EXAMPLE.name,
  description: UPDATE_EXAMPLE.description,
  tags: UPDATE_EXAMPLE.tags,
  team: UPDATE_EXAMPLE.team,
  behaviourTags: [FLOW_TAG_NAME],
  startTime: 1795372800000,
  endTime: null,
  ctaStatus: 'live',
  rule: {
    ...RULE_EXAMPLE,
    frequency: { ...RULE_EXAMPLE.frequency, lifespan: RULE_EXAMPLE.frequency.lifeSpan },
    ctaValidTill: null,
  },
  experiment: EXPERIMENT_EXAMPLE,
  createdAt: 1795372000000,
  createdBy: 'ops@example.com',
  lastUpdatedAt: null,
  lastUpdatedBy: null,
  tenantId: 'default',
};

/** What the CTA examples need (exampleNeeds of their routes). */
export const EXAMPLE_NEEDS = {
  cta: `CTA ${FLOW_CTA_ID}: Create a CTA first`,
  editableCta: `CTA ${FLOW_CTA_ID} in draft or paused: Create a CTA first`,
  restore: `CTA ${FLOW_CTA_ID} and its audit entry 1: Create a CTA as the first write to an empty database`,
  testCta: `test CTA ${FLOW_TEST_CTA_ID}: Create a CTA, then Create a test CTA, on an empty database`,
};

/** The path parameter of the routes of one CTA. */
export const CTA_ID_PARAM = {
  name: 'ctaId',
  description: `numeric CTA id (${FLOW_CTA_ID}: the CTA the create example makes on an empty database)`,
  example: String(FLOW_CTA_ID),
};
