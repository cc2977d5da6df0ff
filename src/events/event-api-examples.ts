import { BAD_TENANT_EXAMPLE, type ErrorAnswer, type RouteErrors } from '../common/api-error-responses';
import { ErrorCode } from '../common/error-code';
import type { EventDefinition } from './event-definition.types';

/** The events of the CTA create example's rule, with the properties its filters, contextParams and groupByKeys use. */
export const STORE_OPENED: EventDefinition = {
  eventName: 'store_opened',
  properties: [
    { propertyName: 'storeId', type: 'String', isMandatory: true, expectedValue: null, description: 'the store the user opened' },
    {
      propertyName: 'source',
      type: 'String',
      isMandatory: false,
      expectedValue: 'home',
      description: 'the screen the store was opened from',
    },
    {
      propertyName: 'cartValue',
      type: 'Double',
      isMandatory: false,
      expectedValue: null,
      description: "the cart's value when the store opened",
    },
  ],
};
export const PURCHASE_COMPLETED: EventDefinition = {
  eventName: 'purchase_completed',
  properties: [
    { propertyName: 'storeId', type: 'String', isMandatory: true, expectedValue: null, description: 'the store of the purchase' },
    { propertyName: 'orderValue', type: 'Double', isMandatory: true, expectedValue: null, description: null },
  ],
};

/** An event no example CTA reacts to: the delete example removes it (the others are in use once CTA 1 runs). */
export const APP_RATED: EventDefinition = {
  eventName: 'app_rated',
  properties: [{ propertyName: 'stars', type: 'Integer', isMandatory: true, expectedValue: null, description: 'the rating, 1 to 5' }],
};

/** The path parameter of the routes of one event. */
export const EVENT_NAME_PARAM = {
  name: 'eventName',
  description: 'the event name, URL-encoded (store_opened: an event the create example defines)',
  example: STORE_OPENED.eventName,
};
export const DELETED_EVENT_PARAM = {
  name: 'eventName',
  description: 'the event name, URL-encoded (app_rated: the event of the create example that no CTA uses)',
  example: APP_RATED.eventName,
};

/** What the event examples need (exampleNeeds of their routes). */
export const EVENT_EXAMPLE_NEEDS = {
  storeOpened: 'the event store_opened: Create or update event definitions first',
  deletedEvent: 'the event app_rated: Create or update event definitions first',
};

export const EVENT_BODY_EXAMPLES = {
  upsert: {
    'store events': {
      summary: 'the events the CTA create example reacts to, and app_rated, which the delete example removes',
      value: { events: [STORE_OPENED, PURCHASE_COMPLETED, APP_RATED] },
    },
  },
  replaceProperties: {
    store_opened: { summary: 'the properties of store_opened, as created', value: { properties: STORE_OPENED.properties } },
  },
};

const BAD_TENANT: ErrorAnswer = { description: 'INVALID_REQUEST: malformed x-tenant-id', examples: [BAD_TENANT_EXAMPLE] };
const UNKNOWN_EVENT: ErrorAnswer = {
  description: 'EVENT_NOT_FOUND: the tenant has no event of this name',
  examples: [[ErrorCode.EVENT_NOT_FOUND, "event 'store_closed' does not exist"]],
};

/** The error answers of the event definition routes (EventsController). */
export const EVENT_ERRORS = {
  upsert: {
    400: {
      description:
        'INVALID_REQUEST: an invalid body (the message lists every problem with its field path), an event name twice in the body, a property name twice in one event, malformed x-tenant-id or x-source, malformed JSON',
      examples: [
        [ErrorCode.INVALID_REQUEST, 'events[0].eventName must be a string; events[0].properties[1].isMandatory is required'],
        [ErrorCode.INVALID_REQUEST, "event 'store_opened' appears more than once in events"],
      ],
    },
  },
  list: { 400: BAD_TENANT },
  get: { 400: BAD_TENANT, 404: UNKNOWN_EVENT },
  replaceProperties: {
    400: {
      description:
        'INVALID_REQUEST: an invalid body (the message lists every problem with its field path), a property name twice, malformed x-tenant-id or x-source, malformed JSON',
      examples: [
        [ErrorCode.INVALID_REQUEST, 'properties[0].isMandatory must be a boolean value'],
        [ErrorCode.INVALID_REQUEST, "event 'store_opened' has the property 'storeId' more than once"],
      ],
    },
    404: UNKNOWN_EVENT,
  },
  delete: {
    400: {
      description:
        'EVENT_IN_USE: the rules of live, scheduled or paused CTAs (named in the message) react to the event; INVALID_REQUEST: malformed x-tenant-id',
      examples: [
        [
          ErrorCode.EVENT_IN_USE,
          "event 'store_opened' is used by the rules of live, scheduled or paused CTAs 1; conclude, terminate or edit them first",
        ],
        BAD_TENANT_EXAMPLE,
      ],
    },
    404: UNKNOWN_EVENT,
  },
} satisfies Record<string, RouteErrors>;
