import { BAD_TENANT_EXAMPLE, type RouteErrors } from '../common/api-error-responses';
import { exampleNeedsText } from '../api-docs/endpoint';
import { ErrorCode } from '../common/error-code';
import { FLOW_CTA_ID, FLOW_TAG_NAME } from '../api-docs/flow-examples';

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

/** The path parameter of the tag routes. */
export const TAG_NAME_PARAM = {
  name: 'behaviourTagName',
  description: `the tag name, URL-encoded (${FLOW_TAG_NAME}: the tag the create example makes)`,
  example: FLOW_TAG_NAME,
};

/** What the tag examples need: the create example's is in its body example's summary, the update's in the route's. */
export const TAG_EXAMPLE_NEEDS = {
  create: `CTA ${FLOW_CTA_ID} in draft or paused: Create a CTA first`,
  update: `the tag ${FLOW_TAG_NAME}, and CTA ${FLOW_CTA_ID} neither live nor scheduled: the create example first`,
};

export const TAG_BODY_EXAMPLES = {
  create: {
    [FLOW_TAG_NAME]: { summary: `links CTA ${FLOW_CTA_ID} ${exampleNeedsText(TAG_EXAMPLE_NEEDS.create)}`, value: CREATE_TAG_EXAMPLE },
  },
  update: { [FLOW_TAG_NAME]: { summary: 'the created tag, unchanged', value: TAG_RULES_EXAMPLE } },
};

export const TAG_LIST_EXAMPLE = {
  behaviourTags: [
    {
      name: FLOW_TAG_NAME,
      description: TAG_RULES_EXAMPLE.description,
      createdAt: 1795372967296,
      createdBy: 'alice@example.com',
      lastUpdatedAt: 1795372967296,
      lastUpdatedBy: 'alice@example.com',
      exposureRule: TAG_RULES_EXAMPLE.exposureRule,
      ctaRelation: TAG_RULES_EXAMPLE.ctaRelation,
      linkedCtas: TAG_RULES_EXAMPLE.linkedCtas,
      tenantId: 'default',
    },
  ],
};

/** The rules of a tag's links, as the create and update descriptions and their 400s name them. */
export const LINK_RULES =
  'every linkedCtas id must be an existing non-test CTA of the tenant and not linked by another tag; every ctaList id must be in linkedCtas; ' +
  'ctaRelation is one of the two pairs devices understand: shownCta ANY with hideCta REST (both ctaLists empty) or shownCta LIST with hideCta LIST ' +
  '(docs/rule-reference.md)';

const MISSING_USER = [ErrorCode.INVALID_REQUEST, "header 'user' is required"] as const;

/** The error answers of the tag routes (BehaviourTagsController). */
export const TAG_ERRORS = {
  create: {
    400: {
      description:
        'CAMPAIGN_DUPLICATE_NAME: the tenant already has a tag of this name; ' +
        `CAMPAIGN_INVALID: an invalid body (the message lists every problem with its field path), or a broken rule (${LINK_RULES}; linked CTAs draft or paused); ` +
        "INVALID_REQUEST: missing 'user' header, malformed x-tenant-id or malformed JSON",
      examples: [
        [ErrorCode.CAMPAIGN_DUPLICATE_NAME, `behaviourTagName: a behaviour tag named '${FLOW_TAG_NAME}' already exists`],
        [ErrorCode.CAMPAIGN_INVALID, 'linkedCtas: CTA 99 does not exist'],
        [
          ErrorCode.CAMPAIGN_INVALID,
          'exposureRule.window.unit "months" cannot be stored: a month has no fixed length (28 to 31 days), so devices cannot count one; ' +
            'use days (e.g. 30); linkedCtas is required',
        ],
        MISSING_USER,
      ],
    },
  },
  update: {
    400: {
      description:
        'CAMPAIGN_INVALID: no tag of this name, an invalid body (the message lists every problem with its field path), a behaviourTagName in the body ' +
        `other than the path's, or a broken rule (${LINK_RULES}; no linked CTA live or scheduled); ` +
        "INVALID_REQUEST: missing 'user' header, malformed x-tenant-id or malformed JSON",
      examples: [
        [
          ErrorCode.CAMPAIGN_INVALID,
          `behaviour tag '${FLOW_TAG_NAME}' can change only while none of its CTAs is live or scheduled; CTA ${FLOW_CTA_ID} is live`,
        ],
        [ErrorCode.CAMPAIGN_INVALID, "behaviour tag 'spring-sale' does not exist"],
        MISSING_USER,
      ],
    },
  },
  list: { 400: { description: 'INVALID_REQUEST: malformed x-tenant-id', examples: [BAD_TENANT_EXAMPLE] } },
} satisfies Record<string, RouteErrors>;
