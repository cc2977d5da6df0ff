import type { SecuritySchemeObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';

/** Names of the security schemes (the slots of the Authorize dialog at /docs, docs/decisions/0014-admin-console.md). */
export const ADMIN_KEY_SCHEME = 'admin-key';
export const ADMIN_KEY_BEARER_SCHEME = 'admin-key-bearer';
export const SDK_KEY_SCHEME = 'sdk-key';
export const APP_USER_TOKEN_SCHEME = 'appUserToken';

export type KeyedApi = 'admin' | 'sdk';

/** The schemes that admit a request to each API; either one is enough (docs/decisions/0010-roles-keys-and-tokens.md). */
export const KEY_SCHEMES: Readonly<Record<KeyedApi, readonly string[]>> = {
  admin: [ADMIN_KEY_SCHEME, ADMIN_KEY_BEARER_SCHEME],
  sdk: [SDK_KEY_SCHEME],
};

/**
 * The security schemes, in the order the Authorize dialog lists them: the admin key first (what an operator
 * enters), then the SDK's. The descriptions are Markdown: header values are code spans, so a placeholder
 * such as `<key>` shows instead of being taken for an HTML tag.
 */
export function keySchemes({ adminPrefix, sdkPrefix }: { adminPrefix: string; sdkPrefix: string }): [string, SecuritySchemeObject][] {
  return [
    [
      ADMIN_KEY_SCHEME,
      {
        type: 'apiKey',
        in: 'header',
        name: 'x-api-key',
        description:
          `**Admin key**: what an operator enters to use the admin routes (\`/${adminPrefix}/…\`), one of the keys in ADMIN_API_KEYS, ` +
          `sent as \`x-api-key: <key>\`. Needed only when the service runs with ADMIN_API_KEYS. ` +
          `Fill this slot or ${ADMIN_KEY_BEARER_SCHEME}, not both: two different admin keys in one request are refused.`,
      },
    ],
    [
      ADMIN_KEY_BEARER_SCHEME,
      {
        type: 'http',
        scheme: 'bearer',
        description:
          `**Admin key as a bearer token**: the same admin key sent as \`Authorization: Bearer <key>\` instead of \`x-api-key\`, ` +
          `for clients that send Authorization (\`/${adminPrefix}/…\`). Leave it empty when ${ADMIN_KEY_SCHEME} is filled.`,
      },
    ],
    [
      SDK_KEY_SCHEME,
      {
        type: 'apiKey',
        in: 'header',
        name: 'x-api-key',
        description:
          `**SDK key**: for the routes the mobile SDK calls (\`/${sdkPrefix}/…\`), one of the keys in SDK_API_KEYS, sent as ` +
          '`x-api-key: <key>` (`Authorization: Bearer <key>` is accepted too, except on launch and delta when app-user tokens ' +
          `are configured: there the bearer is the token, see ${APP_USER_TOKEN_SCHEME}). An admin key opens no SDK route. ` +
          'Needed only when the service runs with SDK_API_KEYS.',
      },
    ],
    [
      APP_USER_TOKEN_SCHEME,
      {
        type: 'http',
        scheme: 'bearer',
        bearerFormat: 'JWT',
        description:
          "**App-user token**: the app user's own token for the SDK's launch and delta (a JWT: HS256 with SDK_JWT_SECRET, " +
          'RS256/ES256 from SDK_JWT_JWKS_URL), sent as `Authorization: Bearer <token>`; its user claim (SDK_JWT_USER_CLAIM, ' +
          'default `sub`) is the `auth-userid`. Needed only when the service runs with SDK_JWT_SECRET or SDK_JWT_JWKS_URL.',
      },
    ],
  ];
}
