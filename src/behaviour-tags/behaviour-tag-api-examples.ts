import { FLOW_CTA_ID, FLOW_TAG_NAME } from '../ctas/cta-api-examples';

/**
 * The shared example tag (Swagger and the tests), linking the CTA the create example makes on an
 * empty database: any one shows, the rest hide. Without the name: the update body.
 */
export const TAG_RULES_EXAMPLE = {
  description: 'Any one store nudge shows, the rest hide; at most two resets a day',
  exposureRule: {
    session: { limit: 1 },
    window: { limit: 2, unit: 'days', value: 1 },
    lifespan: { limit: 20 },
  },
  ctaRelation: {
    shownCta: { rule: 'ANY', ctaList: [] },
    hideCta: { rule: 'REST', ctaList: [] },
  },
  linkedCtas: [String(FLOW_CTA_ID)],
};

/** The create body of the example tag. */
export const CREATE_TAG_EXAMPLE = { behaviourTagName: FLOW_TAG_NAME, ...TAG_RULES_EXAMPLE };
