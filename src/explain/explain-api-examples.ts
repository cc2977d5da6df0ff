import { CREATE_EXAMPLE, FLOW_CTA_ID, FLOW_TAG_NAME, FLOW_USER_ID } from '../ctas/cta-api-examples';
import { LAUNCH_EXAMPLE } from '../sdk/sdk-api-examples';

/**
 * Swagger example of `GET /app-users/{userId}/launch`: the flow user once the console's flow ran
 * (the example CTA live, linked by the example tag, and the device's state merged by a launch).
 */
export const EXPLAIN_EXAMPLE = {
  userId: FLOW_USER_ID,
  cohorts: ['all'],
  launch: LAUNCH_EXAMPLE.data,
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
};
