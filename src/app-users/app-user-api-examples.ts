import type { ApiParamOptions } from '@nestjs/swagger';
import { BAD_TENANT_EXAMPLE, type ErrorExample, type RouteErrors } from '../common/api-error-responses';
import { ErrorCode } from '../common/error-code';
import { FLOW_CTA_ID, FLOW_TAG_NAME, FLOW_TEST_CTA_ID, FLOW_USER_ID } from '../api-docs/flow-examples';
import { DELTA_EXAMPLE } from '../sdk/sdk-api-examples';
import type { AppUserData, ErasedCounts } from './app-users.service';

/** The path parameter of both routes: the app user of the SDK examples. */
export const APP_USER_ID_PARAM: ApiParamOptions = {
  name: 'userId',
  description: `the app user: a signed 64-bit decimal integer, as devices send it in auth-userid (${FLOW_USER_ID}: the user of the SDK examples)`,
  example: FLOW_USER_ID,
};

const [storedCta] = DELTA_EXAMPLE.ctas;
const [storedTag] = DELTA_EXAMPLE.behaviourTags;

/**
 * The user of the console's flow once the launch example with state has run and the test CTA example
 * lists them: the delta's machine (its reset one deleted), lists and tag lists, in a static cohort.
 */
export const APP_USER_EXAMPLE: AppUserData = {
  userId: FLOW_USER_ID,
  state: {
    ctas: [
      {
        ctaId: String(FLOW_CTA_ID),
        activeStateMachines: { 'store-77': storedCta.activeStateMachines['store-77'] },
        resetAt: storedCta.resetAt,
        actionDoneAt: storedCta.actionDoneAt,
      },
    ],
    behaviourTags: [
      { behaviourTagName: FLOW_TAG_NAME, activeCtas: storedTag.ctaRelation.activeCtas, ctasResetAt: storedTag.exposureRule.ctasResetAt },
    ],
    recentActions: storedCta.actionDoneAt.map((at) => ({ ctaId: String(FLOW_CTA_ID), at })),
  },
  cohorts: ['beta-testers'],
  testCtas: [FLOW_TEST_CTA_ID],
  auditEntries: [6],
};

export const ERASED_EXAMPLE: ErasedCounts = { state: true, cohorts: 1, testCtas: 1, auditEntries: 1 };

const BAD_USER_ID_EXAMPLE: ErrorExample = [ErrorCode.INVALID_REQUEST, 'userId "abc" is not a signed 64-bit integer'];

/** The error answers of AppUsersController's routes. */
export const APP_USER_ERRORS = {
  400: {
    description: 'INVALID_REQUEST: a userId that is not a signed 64-bit decimal integer, or a malformed x-tenant-id',
    examples: [BAD_USER_ID_EXAMPLE, BAD_TENANT_EXAMPLE],
  },
} satisfies RouteErrors;
