/** The CTA routes' examples, beside the console flow's shared ones (api-docs/flow-examples.ts). */

import { BAD_TENANT_EXAMPLE, type ErrorExample, type RouteErrors } from '../common/api-error-responses';
import { ErrorCode } from '../common/error-code';
import {
  CREATE_EXAMPLE,
  FLOW_CTA_ID,
  FLOW_TEST_CTA_ID,
  FLOW_USER_ID,
  RECORD_EXAMPLE,
  RULE_EXAMPLE,
  UPDATE_EXAMPLE,
} from '../api-docs/flow-examples';

export const PAGE_EXAMPLE = {
  ctas: [RECORD_EXAMPLE],
  totalEntries: 1,
  totalPages: 1,
  pageNumber: 0,
  pageSize: 10,
  statusWiseCount: { draft: 0, paused: 0, live: 1, scheduled: 0, concluded: 0, terminated: 0 },
};

export const FILTER_VALUES_EXAMPLE = {
  names: ['first-purchase-reminder'],
  teams: ['growth'],
  tags: ['onboarding', 'store'],
  createdBy: ['ops@example.com'],
};

/** The create example as the validate endpoint checks it, valid whatever CTAs exist: the name is optional there. */
const { name: _named, ...VALIDATE_EXAMPLE } = CREATE_EXAMPLE;

/** A rule with problems of both kinds, for the validate endpoint's examples. */
const INVALID_EXAMPLE = {
  ...CREATE_EXAMPLE,
  rule: {
    ...RULE_EXAMPLE,
    stateToAction: { '1': 'store_banner', '2': 'popup' },
    stateTransition: {
      store_opened: {
        '0': [
          {
            transitionTo: 1,
            filters: {
              operator: 'AND',
              filter: [{ propertyName: 'source', propertyType: 'string', comparisonType: 'EQUALS', comparisonValue: 'home' }],
            },
          },
        ],
      },
    },
  },
};

/** The request bodies of the CTA routes, named as Swagger UI lists them. */
export const CTA_BODY_EXAMPLES = {
  create: { 'first-purchase-reminder': { summary: 'a banner, then a popup, for new users in the store', value: CREATE_EXAMPLE } },
  validate: {
    // Without its name: the create example's name, once taken, would make it invalid.
    valid: { summary: 'the create example without its name', value: VALIDATE_EXAMPLE },
    invalid: { summary: 'a rule with two problems', value: INVALID_EXAMPLE },
  },
  update: {
    'first-purchase-reminder': {
      summary: 'the created CTA, unchanged (times omitted, so kept): also taken while it is live',
      value: UPDATE_EXAMPLE,
    },
  },
};

/** What an empty tenant (no event definitions, no cohorts) answers for the two body examples. */
const NO_DEFINITIONS_WARNINGS = {
  storeOpened: { path: 'rule.stateTransition.store_opened', message: 'event "store_opened" is not in the tenant\'s event definitions' },
  groupByKey: { path: 'rule.groupByConfig.groupByKeys[0]', message: '"storeId" is not a property of any event of rule.stateTransition' },
  contextParam: { path: 'rule.contextParams[0]', message: '"storeId" is not a property of any event of rule.stateTransition' },
  cohort: { path: 'rule.cohortEligibility.excludes[0]', message: '"paying_users" is not a cohort of the tenant: no user is in it' },
};

/** The validate endpoint's answers to the two body examples. */
export const VALIDATION_EXAMPLES = {
  valid: {
    summary: 'valid, with warnings (no event definitions yet)',
    value: {
      data: {
        valid: true,
        errors: [],
        warnings: [
          NO_DEFINITIONS_WARNINGS.storeOpened,
          {
            path: 'rule.stateTransition.purchase_completed',
            message: 'event "purchase_completed" is not in the tenant\'s event definitions',
          },
          NO_DEFINITIONS_WARNINGS.groupByKey,
          NO_DEFINITIONS_WARNINGS.contextParam,
          NO_DEFINITIONS_WARNINGS.cohort,
        ],
      },
    },
  },
  invalid: {
    summary: 'invalid: every problem at its path',
    value: {
      data: {
        valid: false,
        errors: [
          { path: 'rule.stateToAction.2', message: '"popup" is not an actionId of rule.actions' },
          {
            path: 'rule.stateTransition.store_opened.0[0].filters.filter[0].comparisonType',
            message: '"EQUALS" is not one of =, != for propertyType string',
          },
        ],
        warnings: [
          NO_DEFINITIONS_WARNINGS.storeOpened,
          { path: 'rule.stateToAction.2', message: 'state "2" is never reached: no transition leads to it from "0"' },
          { path: 'rule.resetStates[0]', message: 'state "3" is never reached: no transition leads to it from "0"' },
          NO_DEFINITIONS_WARNINGS.groupByKey,
          NO_DEFINITIONS_WARNINGS.contextParam,
          NO_DEFINITIONS_WARNINGS.cohort,
        ],
      },
    },
  },
};

export const UNKNOWN_CTA_EXAMPLE: ErrorExample = [ErrorCode.CTA_ID_INVALID, 'CTA 99 does not exist'];

/** The error answers of the CTA routes (CtasController, CtaFiltersController). */
export const CTA_ERRORS = {
  create: {
    400: {
      description:
        'INVALID_REQUEST: missing or invalid fields or rule (the message lists every problem with its field path), a time outside ' +
        '[now - 2 min, now + 5 years], endTime not after startTime, or a missing user header; ' +
        'CTA_DUPLICATE_NAME: the tenant already has a CTA of that name (case-sensitive)',
      examples: [
        [ErrorCode.INVALID_REQUEST, 'name must be a string; tags must be an array; rule is required'],
        [ErrorCode.INVALID_REQUEST, "header 'user' is required"],
        [ErrorCode.CTA_DUPLICATE_NAME, "a CTA named 'first-purchase-reminder' already exists"],
      ],
    },
  },
  validate: {
    400: {
      description: 'INVALID_REQUEST: the body is not a JSON object, or a malformed x-tenant-id',
      examples: [[ErrorCode.INVALID_REQUEST, 'the body must be a JSON object: a CTA create body (name optional)']],
    },
  },
  list: {
    400: {
      description:
        'CTA_STATUS_INVALID: status is not one of draft, paused, live, scheduled, concluded, terminated; ' +
        'INVALID_REQUEST: pageSize not a decimal integer 1-100, pageNumber not a decimal integer ≥ 0, or a repeated parameter',
      examples: [
        [ErrorCode.CTA_STATUS_INVALID, 'status must be one of draft, paused, live, scheduled, concluded, terminated'],
        [ErrorCode.INVALID_REQUEST, 'pageSize must be a decimal integer between 1 and 100'],
      ],
    },
  },
  get: {
    400: { description: 'CTA_ID_INVALID: no such CTA in the tenant, a non-numeric id, or a test CTA', examples: [UNKNOWN_CTA_EXAMPLE] },
  },
  update: {
    400: {
      description:
        'INVALID_REQUEST: invalid fields or rule (every problem listed), `name` in the body, a time outside the window, endTime not after startTime, ' +
        'or a missing user header; CTA_ID_INVALID: no such CTA (or a test CTA); CTA_STATUS_UPDATE_INVALID: the CTA is concluded or ' +
        'terminated, or it is live or scheduled and the update changes its state graph or moves its times as the status does not allow ' +
        '(the message names what differs and the way out)',
      examples: [
        [ErrorCode.INVALID_REQUEST, 'name cannot be changed on update'],
        UNKNOWN_CTA_EXAMPLE,
        [ErrorCode.CTA_STATUS_UPDATE_INVALID, 'rule.stateTransition: state "4" is new; pause CTA 1 to change its states'],
        [ErrorCode.CTA_STATUS_UPDATE_INVALID, 'CTA 1 is concluded; concluded and terminated CTAs cannot be edited'],
      ],
    },
  },
  restore: {
    400: {
      description:
        "INVALID_REQUEST: the audit entry does not exist or is not one of this CTA's, the restored rule or times no longer pass " +
        "an update's validation, or a missing user header; CTA_ID_INVALID: no such CTA (or a test CTA); " +
        'CTA_STATUS_UPDATE_INVALID: the CTA is concluded or terminated, or live or scheduled and the version changes its state graph',
      examples: [
        [ErrorCode.INVALID_REQUEST, `audit entry '7' is not an entry of CTA ${FLOW_CTA_ID}`],
        UNKNOWN_CTA_EXAMPLE,
        [ErrorCode.CTA_STATUS_UPDATE_INVALID, `rule.stateToAction: state "2" would be gone; pause CTA ${FLOW_CTA_ID} to change its states`],
      ],
    },
  },
  filters: { 400: { description: 'INVALID_REQUEST: a malformed x-tenant-id', examples: [BAD_TENANT_EXAMPLE] } },
} satisfies Record<string, RouteErrors>;

/** The path parameter of the test CTA delete. */
export const TEST_CTA_ID_PARAM = {
  name: 'ctaId',
  description: `a test CTA id (${FLOW_TEST_CTA_ID}: the test CTA example, created after the CTA example on an empty database)`,
  example: String(FLOW_TEST_CTA_ID),
};

/** The example rule as the real admin panel's test-journey builder sends it: no cohorts, no lifetime cap. */
const { cohortEligibility: _everyone, ...PANEL_TEST_RULE } = {
  ...RULE_EXAMPLE,
  frequency: { session: RULE_EXAMPLE.frequency.session, window: RULE_EXAMPLE.frequency.window },
};

export const TEST_CTA_BODY_EXAMPLES = {
  testCta: {
    summary: 'the example rule, for one user, for an hour',
    value: { userIds: [Number(FLOW_USER_ID)], expiresInMinutes: 60, rule: RULE_EXAMPLE },
  },
  panelTestJourney: {
    summary: 'as the admin panel builds it: no cohortEligibility, no lifetime cap',
    value: { userIds: [Number(FLOW_USER_ID)], expiresInMinutes: 30, rule: PANEL_TEST_RULE },
  },
};

/** The error answers of the test CTA routes (TestCtasController). */
export const TEST_CTA_ERRORS = {
  create: {
    400: {
      description:
        'CTA_CREATION_ERROR: invalid userIds (empty, over 1000, entries not 64-bit integers), expiresInMinutes outside 1-43200, ' +
        'a malformed previousCtaId or an invalid rule (one message lists every problem with its field path); INVALID_REQUEST: missing user header',
      examples: [
        [ErrorCode.CTA_CREATION_ERROR, 'userIds must be an array; expiresInMinutes must not be greater than 43200'],
        [
          ErrorCode.CTA_CREATION_ERROR,
          'userIds[1] must be a user id: an integer (a decimal string beyond 2^53) that fits a signed 64-bit long; ' +
            'rule.stateToAction.2: "popup" is not an actionId of rule.actions',
        ],
        [ErrorCode.INVALID_REQUEST, "header 'user' is required"],
      ],
    },
  },
  delete: {
    400: {
      description: 'CTA_ID_INVALID: no test CTA of that id in the tenant (normal CTAs are not deleted here)',
      examples: [UNKNOWN_CTA_EXAMPLE],
    },
  },
} satisfies Record<string, RouteErrors>;
