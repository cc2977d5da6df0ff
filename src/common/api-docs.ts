import type { SecuritySchemeObject, TagObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';

/**
 * What the Swagger UI at /docs shows around the routes (DESIGN §22): the tags in the
 * order an operator works through them, the key slots of the Authorize dialog, and
 * the quick start.
 */

/** The tag of each group of routes; `@ApiTags(API_TAG.ctas)`. */
export const API_TAG = {
  ctas: 'CTAs',
  ctaStatus: 'CTA status',
  behaviourTags: 'Behaviour tags',
  cohorts: 'Cohorts',
  events: 'Event definitions',
  nudgePreviews: 'Nudge previews',
  sdk: 'SDK',
  audit: 'Audit',
  operations: 'Operations',
} as const;

/** In working order; the document lists those that have routes. */
export const API_TAGS: readonly TagObject[] = [
  {
    name: API_TAG.ctas,
    description:
      'Calls to action: create one (it starts in draft), read, edit while draft or paused, list with filters and paging. ' +
      'Test CTAs are live at once and served only to the users listed, until they expire.',
  },
  {
    name: API_TAG.ctaStatus,
    description:
      'The lifecycle: draft → live (or scheduled) → paused → live … → concluded or terminated. ' +
      'Devices get a CTA only while it is live (or scheduled and past its startTime).',
  },
  {
    name: API_TAG.behaviourTags,
    description:
      'Group CTAs that devices coordinate: exposure limits for the group, and which CTAs hide while another shows ' +
      '(shownCta ANY with hideCta REST, or LIST with LIST). A tag changes only while none of its CTAs is live or scheduled.',
  },
  {
    name: API_TAG.cohorts,
    description:
      "Who a CTA is for: cohorts named in the rule's cohortEligibility (`all` is everyone). Static cohorts are lists of user ids " +
      '(JSON, or CSV uploads of up to a million ids); rule cohorts hold for launches by app version, package, hotpatch or a stable percentage of users.',
  },
  {
    name: API_TAG.events,
    description:
      'The app events CTA rules react to (the keys of rule.stateTransition) and their properties (what filters compare). ' +
      'Define them before the CTAs that use them.',
  },
  {
    name: API_TAG.nudgePreviews,
    description: 'Store a nudge template for a while, so a device can show it before the CTA goes live.',
  },
  {
    name: API_TAG.sdk,
    description:
      'What the mobile SDK calls: at launch, the CTAs active for the user with their state; while running, the state it changed; ' +
      'nudge previews. Send auth-userid (the app user) and api_version 1.',
  },
  {
    name: API_TAG.audit,
    description: 'Who changed what and when, with the record before and after.',
  },
  {
    name: API_TAG.operations,
    description: 'Liveness, readiness and Prometheus metrics, for the platform; no key needed.',
  },
];

/** Names of the security schemes (the slots of the Authorize dialog). */
export const ADMIN_KEY_SCHEME = 'admin-key';
export const ADMIN_KEY_BEARER_SCHEME = 'admin-key-bearer';
export const SDK_KEY_SCHEME = 'sdk-key';

export type KeyedApi = 'admin' | 'sdk';

/** The schemes that admit a request to each API; either one is enough (DESIGN §15). */
export const KEY_SCHEMES: Readonly<Record<KeyedApi, readonly string[]>> = {
  admin: [ADMIN_KEY_SCHEME, ADMIN_KEY_BEARER_SCHEME],
  sdk: [SDK_KEY_SCHEME],
};

export interface ApiPrefixes {
  adminPrefix: string;
  sdkPrefix: string;
}

/** The security schemes, named and described for the Authorize dialog. */
export function keySchemes({ adminPrefix, sdkPrefix }: ApiPrefixes): [string, SecuritySchemeObject][] {
  return [
    [
      ADMIN_KEY_SCHEME,
      {
        type: 'apiKey',
        in: 'header',
        name: 'x-api-key',
        description:
          `**Admin key** for the admin routes (/${adminPrefix}/…): one of the keys in ADMIN_API_KEYS, sent as x-api-key. ` +
          'Needed only when the service runs with ADMIN_API_KEYS. Fill this slot or admin-key-bearer, not both.',
      },
    ],
    [
      ADMIN_KEY_BEARER_SCHEME,
      {
        type: 'http',
        scheme: 'bearer',
        description: `**Admin key as a bearer token** (Authorization: Bearer <key>) for the admin routes (/${adminPrefix}/…): the same keys as admin-key, for clients that send Authorization.`,
      },
    ],
    [
      SDK_KEY_SCHEME,
      {
        type: 'apiKey',
        in: 'header',
        name: 'x-api-key',
        description:
          `**SDK key** for the SDK routes (/${sdkPrefix}/…): one of the keys in SDK_API_KEYS, sent as x-api-key (Authorization: Bearer <key> ` +
          'is accepted too, except on launch and delta when app-user tokens are configured: there the bearer is the token, see appUserToken). ' +
          'Needed only when the service runs with SDK_API_KEYS.',
      },
    ],
  ];
}

/** The document's description: what the console is, and the five steps that make a CTA reach a device. */
export function apiDescription({ adminPrefix, sdkPrefix }: ApiPrefixes): string {
  return [
    `Decides which in-app nudges (CTAs) a mobile app shows to each user. Operators use the admin routes under /${adminPrefix}; ` +
      `the mobile SDK calls the routes under /${sdkPrefix}.`,
    '',
    '**Before you start.** If the service runs with ADMIN_API_KEYS, click *Authorize* and enter an admin key in `admin-key` ' +
      "(and an SDK key in `sdk-key` for the SDK routes when SDK_API_KEYS is set, and a user's token in `appUserToken` for " +
      'launch and delta when SDK_JWT_SECRET or SDK_JWT_JWKS_URL is set); it stays across reloads of this page. ' +
      'Every route takes an optional `x-tenant-id` header (default `default`): use the same one throughout. ' +
      'Writes of the admin API need a `user` header naming you (e.g. your email).',
    '',
    '**Quick start** — on an empty database the examples run in this order, each with *Try it out* → *Execute*:',
    '',
    `1. **Define the events** the CTA reacts to: \`POST /${adminPrefix}/events\` (store_opened and purchase_completed with their properties).`,
    `2. **Create a CTA**: \`POST /${adminPrefix}/ctas\`. It starts in draft; the answer \`{"data": 1}\` is its id (the first CTA gets 1).`,
    `3. **Link it to a behaviour tag**: \`POST /${adminPrefix}/behaviour-tags\` (store-nudges, linking CTA 1).`,
    `4. **Go live**: \`PUT /${adminPrefix}/ctas/1/live\`. \`GET /${adminPrefix}/ctas/1\` now shows ctaStatus live and the tag.`,
    `5. **Launch as a device**: \`POST /${sdkPrefix}/active/state-machines\` with \`auth-userid\` and \`api_version: 1\` ` +
      '(without api_version the answer is empty: `{"data":{"ctas":null,"behaviourTags":null}}`): CTA 1 is served with its tag.',
    '',
    '**Errors** answer `{"error": {"message", "code"}}`. A refused body is named in one message listing every problem ' +
      '(up to 20, separated by "; "), each with its field path, e.g. `name must be a string; tags must be an array`; ' +
      'times are shown as ISO 8601 beside the epoch milliseconds sent. Each response below shows an example of its codes.',
  ].join('\n');
}
