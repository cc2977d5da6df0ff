import { exampleNeedsText } from '../api-docs/endpoint';
import type { RouteErrors } from '../common/api-error-responses';
import { ErrorCode } from '../common/error-code';
import { MAX_SIMULATED_EVENTS } from './simulate-request';
import { CREATE_EXAMPLE, FLOW_CTA_ID } from '../api-docs/flow-examples';
import { EXAMPLE_TIME } from '../sdk/sdk-api-examples';
import { UNMOVED } from './journey-simulator';

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
    resetAt: [at(-3 * 24 * 60)],
    actionDoneAt: [at(-3 * 24 * 60), at(-60)],
  },
  events: [
    { eventName: 'store_opened', properties: store('store-77', 'home', 0), at: at(0) },
    { eventName: 'purchase_completed', properties: { storeId: 'store-77' }, at: at(1) },
    { eventName: 'store_opened', properties: store('store-77', 'home', 650), at: at(2) },
  ],
};

/** A step of the answers below: the defaults of a step that did nothing, then what happened. */
const step = (event: number, eventName: string, happened: Record<string, unknown>) => ({
  event,
  eventName,
  machineId: 'store-77',
  ...UNMOVED,
  ...happened,
});
const BANNER = { actionId: 'store_banner', type: 'NUDGE_UI', shown: true };
const POPUP = { actionId: 'discount_popup', type: 'POPUP', shown: true };

export const SIMULATE_BODY_RESULT = {
  steps: [
    step(0, 'store_opened', {
      to: '0',
      skipped: { code: 'FILTERS_FAILED', message: 'no condition for state "0" passed (1 condition tried)' },
      created: true,
    }),
    step(1, 'store_opened', {
      machineId: 'store-12',
      skipped: { code: 'MACHINE_CAP', message: '1 machine active, at most 1 (maxActiveStateMachineCount)' },
    }),
    step(2, 'store_opened', { from: '0', to: '1', condition: 'rule.stateTransition.store_opened.0[0]', action: BANNER }),
    step(3, 'store_opened', { from: '1', to: '2', condition: 'rule.stateTransition.store_opened.1[0]', action: POPUP }),
    step(4, 'purchase_completed', { from: '2', to: '3', condition: 'rule.stateTransition.purchase_completed.2[0]', reset: true }),
    step(5, 'store_opened', {
      skipped: { code: 'FREQUENCY_REACHED', message: 'the session limit 1 is reached: 1 reset in this session', cap: 'session' },
    }),
  ],
  state: { activeStateMachines: {}, resetAt: [at(4)], actionDoneAt: [at(2), at(3)] },
};

export const SIMULATE_ID_RESULT = {
  steps: [
    step(0, 'store_opened', { from: '1', to: '2', condition: 'rule.stateTransition.store_opened.1[0]', action: POPUP }),
    step(1, 'purchase_completed', { from: '2', to: '3', condition: 'rule.stateTransition.purchase_completed.2[0]', reset: true }),
    step(2, 'store_opened', {
      skipped: { code: 'FREQUENCY_REACHED', message: 'the window limit 2 is reached: 2 resets in the last 7 days', cap: 'window' },
    }),
  ],
  state: {
    activeStateMachines: {},
    resetAt: [...SIMULATE_ID_EXAMPLE.state.resetAt, at(1)],
    actionDoneAt: [...SIMULATE_ID_EXAMPLE.state.actionDoneAt, at(0)],
  },
};

/** The request bodies of `POST /ctas/simulate`, named as Swagger UI lists them. */
export const SIMULATE_BODY_EXAMPLES = {
  'a new journey': {
    summary: "the example CTA's body through two stores, a purchase and the session cap",
    value: SIMULATE_BODY_EXAMPLE,
  },
  'a CTA by id': {
    summary: `CTA ${FLOW_CTA_ID}, for a user already in state 1 ${exampleNeedsText(`CTA ${FLOW_CTA_ID}: Create a CTA first`)}`,
    value: SIMULATE_ID_EXAMPLE,
  },
};

/** The error answers of `POST /ctas/simulate` (SimulateController). */
export const SIMULATE_ERRORS = {
  400: {
    description:
      'INVALID_REQUEST: a CTA body create would refuse (every problem named at its path, as create names them), more than ' +
      `${MAX_SIMULATED_EVENTS} events or none, a malformed event or state (named at its path), events out of time order, an ` +
      'engine other than "newest" or "legacy", or a malformed x-tenant-id; CTA_ID_INVALID: cta.id names no CTA of the tenant',
    examples: [
      [
        ErrorCode.INVALID_REQUEST,
        'cta.rule.stateTransition.store_opened.0[0].filters.filter[0].comparisonType: "EQUALS" is not one of =, != for propertyType string',
      ],
      [ErrorCode.INVALID_REQUEST, `events: must be an array of 1 to ${MAX_SIMULATED_EVENTS} events, not 1001 events`],
      [ErrorCode.INVALID_REQUEST, 'engine: must be "newest" or "legacy" (default "newest"), not "v2"'],
      [ErrorCode.CTA_ID_INVALID, 'CTA 99 does not exist'],
    ],
  },
} satisfies RouteErrors;
