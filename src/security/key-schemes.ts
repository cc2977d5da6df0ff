import type { SecuritySchemeObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';

/** Names of the security schemes (the slots of the Authorize dialog at /docs, docs/decisions/0014-admin-console.md). */
export const ADMIN_KEY_SCHEME = 'admin-key';
export const ADMIN_KEY_BEARER_SCHEME = 'admin-key-bearer';
export const SDK_KEY_SCHEME = 'sdk-key';

export type KeyedApi = 'admin' | 'sdk';

/** The schemes that admit a request to each API; either one is enough (docs/decisions/0010-roles-keys-and-tokens.md). */
export const KEY_SCHEMES: Readonly<Record<KeyedApi, readonly string[]>> = {
  admin: [ADMIN_KEY_SCHEME, ADMIN_KEY_BEARER_SCHEME],
  sdk: [SDK_KEY_SCHEME],
};

/** The security schemes, named and described for the Authorize dialog. */
export function keySchemes({ adminPrefix, sdkPrefix }: { adminPrefix: string; sdkPrefix: string }): [string, SecuritySchemeObject][] {
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
