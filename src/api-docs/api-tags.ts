import type { TagObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';

/** The tag of each group of routes in the Swagger UI at /docs (docs/decisions/0014-admin-console.md); `@ApiTags(API_TAG.ctas)`. */
export const API_TAG = {
  ctas: 'CTAs',
  behaviourTags: 'Behaviour tags',
  ctaStatus: 'CTA status',
  cohorts: 'Cohorts',
  exposurePolicy: 'Exposure policy',
  events: 'Event definitions',
  nudgePreviews: 'Nudge previews',
  sdk: 'SDK',
  audit: 'Audit',
  insights: 'Insights',
  appUsers: 'App users',
  support: 'Support tools',
  operatorView: 'Operator view',
  operations: 'Operations',
} as const;

/**
 * In the order an operator works through them: a CTA is linked to its behaviour tag before it goes live (a
 * tag changes only while none of its CTAs runs), so the page's examples also run top to bottom. The document
 * lists those that have routes.
 */
export const API_TAGS: readonly TagObject[] = [
  {
    name: API_TAG.ctas,
    description:
      'Calls to action: create one (it starts in draft), read, edit while draft or paused, list with filters and paging. ' +
      'Test CTAs are live at once and served only to the users listed, until they expire.',
  },
  {
    name: API_TAG.behaviourTags,
    description:
      'Group CTAs that devices coordinate: exposure limits for the group, and which CTAs hide while another shows ' +
      '(shownCta ANY with hideCta REST, or LIST with LIST). A tag changes only while none of its CTAs is live or scheduled.',
  },
  {
    name: API_TAG.ctaStatus,
    description:
      'The lifecycle: draft → live (or scheduled) → paused → live … → concluded or terminated. ' +
      'Devices get a CTA only while it is live (or scheduled and past its startTime). ' +
      "With approvals required (APPROVALS_REQUIRED), live and schedule also need another key's approval of the current content: " +
      'POST /ctas/{id}/approve.',
  },
  {
    name: API_TAG.cohorts,
    description:
      "Who a CTA is for: cohorts named in the rule's cohortEligibility (`all` is everyone). Static cohorts are lists of user ids " +
      '(JSON, or CSV uploads of up to a million ids); rule cohorts hold for launches by app version, package, hotpatch or a stable percentage of users.',
  },
  {
    name: API_TAG.exposurePolicy,
    description:
      'A cap on nudges across all CTAs: no user gets more than maxActions actions in a rolling window or a calendar day, whatever ' +
      'each CTA allows. Over it, launches serve only capExempt CTAs and test CTAs; explain says why and when a slot frees.',
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
    name: API_TAG.insights,
    description:
      'Is it working? Per CTA and day: actions devices ran, journeys completed (resets), users reached for the first time; ' +
      'and where its users stand now. Counted exactly when deltas are stored.',
  },
  {
    name: API_TAG.audit,
    description:
      'Who changed what and when, with the record before and after. A CTA goes back to one of its versions with ' +
      "the restore route (under CTAs), taking an auditId of the CTA's history.",
  },
  {
    name: API_TAG.appUsers,
    description: "One app user's data (GDPR): everything stored about them, and erasing it for good, on every instance. Role admin.",
  },
  {
    name: API_TAG.support,
    description:
      "Answer support's questions without a device: why a user gets (or does not get) a CTA at launch, and what a device will " +
      'do with a CTA for a sequence of app events, step by step. Read-only: a viewer key is enough.',
  },
  {
    name: API_TAG.operatorView,
    description:
      'The web application for people at /{admin}/ui/ (campaigns, charts, a user explained, approvals, history, audit) ' +
      'and what it asks first: who the key is and what it may change.',
  },
  {
    name: API_TAG.operations,
    description: 'Liveness, readiness and Prometheus metrics, for the platform; no key needed.',
  },
];
