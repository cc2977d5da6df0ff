import type { RouteErrors } from '../common/api-error-responses';
import { ErrorCode } from '../common/error-code';
import { CREATE_EXAMPLE, FLOW_CTA_ID, FLOW_TAG_NAME, FLOW_USER_ID } from '../api-docs/flow-examples';
import { LAUNCH_EXAMPLE } from '../sdk/sdk-api-examples';

/**
 * Swagger example of `GET /app-users/{userId}/launch`: the flow user once the console's flow ran
 * (the example CTA live, linked by the example tag, and the device's state merged by a launch).
 */
export const EXPLAIN_EXAMPLE = {
  userId: FLOW_USER_ID,
  cohorts: ['all'],
  ctas: [
    {
      ctaId: String(FLOW_CTA_ID),
      name: CREATE_EXAMPLE.name,
      ctaStatus: 'live',
      served: true,
      reasons: [{ code: 'SERVED', message: 'served: live, and the user is in "all" of includes' }],
      behaviourTagName: FLOW_TAG_NAME,
      device: {
        machines: { 'store-77': '2' },
        lifespan: { count: 1, limit: 5, reached: false },
        window: { count: 1, limit: 2, reached: false },
        tag: { blocked: false, by: [], relation: 'ANY/REST' },
        expiredMachines: 0,
      },
    },
  ],
  launch: LAUNCH_EXAMPLE.data,
};

/** The path parameter of the explain route. */
export const EXPLAINED_USER_PARAM = {
  name: 'userId',
  description: 'the app user: a signed 64-bit decimal integer, as in the auth-userid header of a launch',
  example: FLOW_USER_ID,
};

/** The error answers of `GET /app-users/{userId}/launch` (LaunchExplainController). */
export const EXPLAIN_ERRORS = {
  400: {
    description:
      'INVALID_REQUEST: a userId that is not a signed 64-bit integer, `all` other than true or false, a repeated query parameter, or a malformed x-tenant-id',
    examples: [
      [ErrorCode.INVALID_REQUEST, 'userId must be a signed 64-bit decimal integer, not "user-123"'],
      [ErrorCode.INVALID_REQUEST, 'all must be true or false'],
    ],
  },
} satisfies RouteErrors;
