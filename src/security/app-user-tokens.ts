/**
 * App-user tokens on the SDK state-machine routes (docs/decisions/0010-roles-keys-and-tokens.md, app-user tokens): the app's
 * own user token, sent as `Authorization: Bearer <token>`, must name the user of `auth-userid`.
 */

/**
 * The built-in verification with `jose`: exactly one of `secret` (HS256) and `jwksUrl`
 * (RS256/ES256 keys from a JSON Web Key Set).
 */
export interface AppUserTokenOptions {
  /** The HS256 shared secret. */
  secret?: string;
  /** An http(s) URL serving a JSON Web Key Set; keys are cached and refetched for an unknown `kid` at most once a minute. */
  jwksUrl?: string;
  /** Accepted `iss` values; default any. */
  issuer?: string | string[];
  /** Accepted `aud` values (one must match); default any. */
  audience?: string | string[];
  /** The claim holding the app user's id; default `sub`. */
  userClaim?: string;
  /** How many verified tokens are kept (each until it expires); default 10 000. */
  maxCachedTokens?: number;
}

/**
 * The port a host may implement instead (module option `appUserTokenVerifier`), e.g. with its
 * own session service.
 */
export interface AppUserTokenVerifier {
  /**
   * The app user the token names (a decimal string or an integer; compared with `auth-userid`
   * as signed 64-bit integers), or null when the token is not valid (401 UNAUTHORIZED).
   * A `DomainError` thrown answers as itself (e.g. UNAUTHORIZED with the reason).
   */
  userIdOf(token: string): Promise<string | number | bigint | null>;
}

export const DEFAULT_USER_CLAIM = 'sub';
export const DEFAULT_MAX_CACHED_TOKENS = 10_000;

/** What each option is called where it was given: module options, or the standalone service's variables. */
export type AppUserTokenOptionNames = Readonly<Record<keyof AppUserTokenOptions, string>>;

export const APP_USER_TOKEN_MODULE_OPTION_NAMES: AppUserTokenOptionNames = {
  secret: 'appUserTokens.secret',
  jwksUrl: 'appUserTokens.jwksUrl',
  issuer: 'appUserTokens.issuer',
  audience: 'appUserTokens.audience',
  userClaim: 'appUserTokens.userClaim',
  maxCachedTokens: 'appUserTokens.maxCachedTokens',
};

export interface AppUserTokenOptionsProblem {
  /** The option or variable at fault, as `names` calls it. */
  name: string;
  problem: string;
}

const isHttpUrl = (value: string): boolean => {
  try {
    return ['http:', 'https:'].includes(new URL(value).protocol);
  } catch {
    return false;
  }
};

/**
 * The first thing wrong with the options, named as `names` calls it, or null. Checked when the
 * service or the module starts, so a misconfiguration never turns into 401s for every app user.
 */
export function appUserTokenOptionsProblem(
  options: AppUserTokenOptions,
  names: AppUserTokenOptionNames,
): AppUserTokenOptionsProblem | null {
  const { secret, jwksUrl, userClaim, maxCachedTokens } = options;
  if (secret !== undefined && jwksUrl !== undefined) {
    return { name: names.secret, problem: `and ${names.jwksUrl} are both set; set one (HS256 secret or RS256/ES256 key set)` };
  }
  if (secret === undefined && jwksUrl === undefined) {
    const given = (['issuer', 'audience', 'userClaim', 'maxCachedTokens'] as const).find((name) => options[name] !== undefined);
    return given === undefined
      ? { name: names.secret, problem: `or ${names.jwksUrl} is required` }
      : { name: names[given], problem: `needs ${names.secret} or ${names.jwksUrl} to verify app-user tokens with` };
  }
  if (secret !== undefined && secret.trim() === '') {
    return { name: names.secret, problem: 'is empty' };
  }
  if (jwksUrl !== undefined && !isHttpUrl(jwksUrl)) {
    return { name: names.jwksUrl, problem: `must be an http(s) URL, got '${jwksUrl}'` };
  }
  if (userClaim !== undefined && userClaim.trim() === '') {
    return { name: names.userClaim, problem: 'is empty' };
  }
  if (maxCachedTokens !== undefined && !(Number.isSafeInteger(maxCachedTokens) && maxCachedTokens >= 1)) {
    return { name: names.maxCachedTokens, problem: `must be a positive integer, got ${maxCachedTokens}` };
  }
  return null;
}
