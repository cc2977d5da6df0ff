import { CREATE_EXAMPLE, FLOW_CTA_ID } from '../ctas/cta-api-examples';
import { EXAMPLE_TIME } from '../sdk/sdk-api-examples';

/**
 * Swagger examples of `POST /ctas/simulate`: the shared example CTA's journey through one store,
 * and CTA 1 (what the console's flow creates) by id, from a state the user already has.
 */

const store = (storeId: string, source: string, cartValue: number) => ({ storeId, source, cartValue });
const at = (minutes: number): number => EXAMPLE_TIME + minutes * 60_000;

export const SIMULATE_BODY_EXAMPLE = {
  cta: CREATE_EXAMPLE,
  events: [
    { eventName: 'store_opened', properties: store('store-77', 'search', 900), at: at(0) },
    { eventName: 'store_opened', properties: store('store-12', 'home', 650), at: at(1) },
    { eventName: 'store_opened', properties: store('store-77', 'home', 650), at: at(2) },
    { eventName: 'store_opened', properties: store('store-77', 'home', 0), at: at(3) },
    { eventName: 'purchase_completed', properties: { storeId: 'store-77' }, at: at(4) },
    { eventName: 'store_opened', properties: store('store-77', 'home', 650), at: at(5) },
  ],
};

export const SIMULATE_ID_EXAMPLE = {
  cta: { id: FLOW_CTA_ID },
  state: {
    activeStateMachines: {
      'store-77': { currentState: '1', lastTransitionAt: at(-60), createdAt: at(-60), context: { storeId: 'store-77' } },
    },
    resetAt: [at(-3 * 24 * 60), at(-2 * 24 * 60)],
    actionDoneAt: [at(-60)],
  },
  events: [
    { eventName: 'store_opened', properties: store('store-77', 'home', 0), at: at(0) },
    { eventName: 'purchase_completed', properties: { storeId: 'store-77' }, at: at(1) },
  ],
};

export const SIMULATE_BODY_RESULT = {};
export const SIMULATE_ID_RESULT = {};
