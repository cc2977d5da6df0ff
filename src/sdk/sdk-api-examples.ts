import type { ApiHeaderOptions } from '@nestjs/swagger';
import { TAG_RULES_EXAMPLE } from '../behaviour-tags/behaviour-tag-api-examples';
import type { ErrorExample, RouteErrors } from '../common/api-error-responses';
import { ErrorCode } from '../common/error-code';
import { FLOW_CTA_ID, FLOW_TAG_NAME, FLOW_USER_ID, RULE_EXAMPLE } from '../api-docs/flow-examples';

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

/** The headers of the state-machine routes beside the tenant: the user and the client (SdkUserId, SdkClientInfo). */
export const SDK_CLIENT_HEADERS: ApiHeaderOptions[] = [
  {
    name: 'auth-userid',
    required: true,
    example: FLOW_USER_ID,
    description:
      'the app user: a signed 64-bit decimal integer (the id the app knows the user by); with app-user tokens ' +
      'configured, the user their token names',
  },
  {
    name: 'api_version',
    required: false,
    example: '1',
    description:
      'the SDK protocol version; send 1. Absent, not an integer or below 1 (older SDKs): the launch answers ' +
      '`{"data":{"ctas":null,"behaviourTags":null}}` and the delta `{"data":false}`, and nothing is stored',
  },
  { name: 'app_version', required: false, description: 'the app version, read by rule cohorts (appVersion), e.g. 5.2.0' },
  { name: 'package_name', required: false, description: 'the app package, read by rule cohorts (packageName), e.g. com.example.shop' },
  { name: 'hotpatch_version', required: false, description: 'read by rule cohorts (hotpatchVersion); also accepted as codepush_version' },
];

export const SDK_BODY_EXAMPLES = {
  launch: {
    'first launch': { summary: 'no state on the device yet', value: {} },
    'with state': { summary: 'the state the device holds for the example CTA, merged first', value: DELTA_EXAMPLE },
  },
  delta: { delta: { summary: 'the state the device holds for the example CTA', value: DELTA_EXAMPLE } },
};

const MALFORMED_SNAPSHOTS_EXAMPLE: ErrorExample = [
  ErrorCode.INVALID_REQUEST,
  'invalid request: ctas[0].activeStateMachines.m1.currentState must be a string; ctas[0].resetAt[1] must be an integer (epoch milliseconds)',
];
const MISSING_USER_EXAMPLE: ErrorExample = [ErrorCode.INVALID_REQUEST, "header 'auth-userid' is required"];

/** The error answers of the state-machine routes (SdkStateController). */
export const SDK_ERRORS = {
  launch: {
    400: {
      description:
        "INVALID_REQUEST: a malformed snapshot body ('invalid request: ' and every problem at its path, up to 20), or a missing or malformed auth-userid or x-tenant-id",
      examples: [MALFORMED_SNAPSHOTS_EXAMPLE, MISSING_USER_EXAMPLE],
    },
  },
  delta: {
    400: {
      description:
        "INVALID_REQUEST: a malformed snapshot body ('invalid request: ' and every problem at its path, up to 20; nothing is stored), " +
        'or a missing or malformed auth-userid or x-tenant-id',
      examples: [MALFORMED_SNAPSHOTS_EXAMPLE, MISSING_USER_EXAMPLE],
    },
  },
} satisfies Record<string, RouteErrors>;
