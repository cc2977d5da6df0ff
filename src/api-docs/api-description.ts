/** The prefixes the document names (the configured ones). */
export interface ApiPrefixes {
  adminPrefix: string;
  sdkPrefix: string;
}

/** The document's description: what the console is, and the five steps that make a CTA reach a device. */
export function apiDescription({ adminPrefix, sdkPrefix }: ApiPrefixes): string {
  return [
    `Decides which in-app nudges (CTAs) a mobile app shows to each user. Operators use the admin routes under /${adminPrefix}; ` +
      `the mobile SDK calls the routes under /${sdkPrefix}.`,
    '',
    '**Before you start.** If the service runs with ADMIN_API_KEYS, click *Authorize* and enter an admin key in its first slot, ' +
      "`admin-key` (and an SDK key in `sdk-key` for the SDK routes when SDK_API_KEYS is set, and a user's token in `appUserToken` for " +
      'launch and delta when SDK_JWT_SECRET or SDK_JWT_JWKS_URL is set); it stays across reloads of this page, and a 401 names ' +
      'the slot it expected. ' +
      'Every route takes an optional `x-tenant-id` header (default `default`): use the same one throughout. ' +
      'Writes of the admin API need a `user` header naming you (e.g. your email).',
    '',
    '**Quick start** — on an empty database the examples run in this order, each with *Try it out* → *Execute*. ' +
      'They also run top to bottom as this page lists them; an example that needs something first says so at the end of ' +
      'its summary ("example needs …"), and the others run on their own, in any order:',
    '',
    `1. **Define the events** the CTA reacts to: \`POST /${adminPrefix}/events\` (store_opened and purchase_completed with their properties, and app_rated, which no CTA uses).`,
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
