import { Logger } from '@nestjs/common';
import { createRemoteJWKSet, errors, JWTPayload, jwtVerify, JWTVerifyGetKey } from 'jose';
import { LRUCache } from 'lru-cache';
import type { Clock } from '../common/clock';
import { DomainError } from '../common/domain-error';
import { ErrorCode } from '../common/error-code';
import { AppUserTokenOptions, AppUserTokenVerifier, DEFAULT_MAX_CACHED_TOKENS, DEFAULT_USER_CLAIM } from './app-user-tokens';

/** Tokens issued a little in the future or expired a moment ago still pass (clocks differ). */
export const CLOCK_TOLERANCE_SECONDS = 30;
/** A key set is refetched for an unknown `kid` at most this often. */
export const JWKS_COOLDOWN_MS = 60_000;
/**
 * A verified token is cached until it expires, but at most this long (also when it has no
 * `exp`), so a key taken out of the key set stops working within it.
 */
export const MAX_TOKEN_CACHE_MS = 10 * 60_000;
/** While the key set is unreachable, one warning per this interval at most. */
const KEY_SET_WARNING_INTERVAL_MS = 5_000;
/** RFC 7518 §3.2: an HS256 key is at least as long as the hash. */
const MIN_SECRET_BYTES = 32;

const HS256 = ['HS256'];
const KEY_SET_ALGORITHMS = ['RS256', 'ES256'];

const unauthorized = (reason: string): DomainError => new DomainError(ErrorCode.UNAUTHORIZED, `the app-user token ${reason}`);

/** Answers the API docs show as examples. */
export const TOKEN_EXPIRED_MESSAGE = 'the app-user token has expired';
export const KEY_SET_UNAVAILABLE_MESSAGE = 'the keys to verify app-user tokens are unavailable, retry later';

/** The key set could not be fetched or read: the token is not at fault, so the client retries rather than logging out. */
class KeySetUnavailable extends Error {}

/** Answers for the token failures jose reports; anything else is the service's own failure. */
function refusalOf(error: unknown): DomainError | null {
  if (error instanceof errors.JWTExpired) return new DomainError(ErrorCode.UNAUTHORIZED, TOKEN_EXPIRED_MESSAGE);
  if (error instanceof errors.JWTClaimValidationFailed) return unauthorized(`is refused: ${error.message}`);
  if (error instanceof errors.JOSEAlgNotAllowed) return unauthorized('is signed with an algorithm that is not accepted');
  if (error instanceof errors.JWSSignatureVerificationFailed) return unauthorized('has a signature that does not verify');
  if (error instanceof errors.JWKSNoMatchingKey || error instanceof errors.JWKSMultipleMatchingKeys) {
    return unauthorized('names a key (kid) that the key set does not hold');
  }
  if (error instanceof errors.JWSInvalid || error instanceof errors.JWTInvalid || error instanceof errors.JOSENotSupported) {
    return unauthorized('is malformed');
  }
  return null;
}

/**
 * The key set at `url` through jose's remote JWKS (cached; refetched for an unknown `kid` at
 * most once a minute). A failure to fetch it is told apart from a token naming an unknown key.
 */
function remoteKeySet(url: string): JWTVerifyGetKey {
  const keySet = createRemoteJWKSet(new URL(url), { cooldownDuration: JWKS_COOLDOWN_MS });
  return async (header, token) => {
    try {
      return await keySet(header, token);
    } catch (error) {
      if (refusalOf(error) !== null) throw error;
      throw new KeySetUnavailable(error instanceof Error ? error.message : String(error));
    }
  };
}

/**
 * The built-in `AppUserTokenVerifier`: jose's `jwtVerify` with the configured key, algorithms,
 * issuer, audience and 30 s of clock tolerance. Verified tokens are kept in a bounded LRU until
 * they expire, so a launch pays for a signature once per token, not once per request.
 */
export class JoseAppUserTokenVerifier implements AppUserTokenVerifier {
  private readonly logger = new Logger('AppUserTokens');
  private readonly key: Uint8Array | JWTVerifyGetKey;
  private readonly algorithms: string[];
  private readonly userClaim: string;
  /** token → the user claim's value; each entry lives until its token expires, at most MAX_TOKEN_CACHE_MS. */
  private readonly verified: LRUCache<string, string | number>;
  private lastKeySetWarningAt = -Infinity;

  constructor(
    private readonly options: AppUserTokenOptions,
    private readonly clock: Clock,
  ) {
    if (options.secret !== undefined) {
      this.key = new TextEncoder().encode(options.secret);
      this.algorithms = HS256;
      if (this.key.length < MIN_SECRET_BYTES) {
        this.logger.warn(`the app-user token secret is shorter than ${MIN_SECRET_BYTES} bytes: tokens signed with it are easier to forge`);
      }
    } else {
      this.key = remoteKeySet(options.jwksUrl as string);
      this.algorithms = KEY_SET_ALGORITHMS;
    }
    this.userClaim = options.userClaim ?? DEFAULT_USER_CLAIM;
    this.verified = new LRUCache({
      max: options.maxCachedTokens ?? DEFAULT_MAX_CACHED_TOKENS,
      // Entries expire on the service's clock, the one tokens are checked against, read at every
      // lookup (lru-cache would otherwise reuse a reading for a millisecond).
      perf: { now: () => clock.now() },
      ttlResolution: 0,
      ttlAutopurge: false,
    });
  }

  /** How many verified tokens are cached (bounded by `maxCachedTokens`). */
  get cachedTokens(): number {
    return this.verified.size;
  }

  async userIdOf(token: string): Promise<string | number> {
    const cached = this.verified.get(token);
    if (cached !== undefined) {
      return cached;
    }
    const payload = await this.verify(token);
    const userId = payload[this.userClaim];
    if (typeof userId !== 'string' && typeof userId !== 'number') {
      throw unauthorized(`has no '${this.userClaim}' claim naming the app user`);
    }
    const now = this.clock.now();
    const expiresAt = payload.exp === undefined ? Infinity : payload.exp * 1000;
    // A token inside its clock tolerance after expiry passes but is not cached.
    if (expiresAt > now) {
      this.verified.set(token, userId, { ttl: Math.min(expiresAt - now, MAX_TOKEN_CACHE_MS) });
    }
    return userId;
  }

  private async verify(token: string): Promise<JWTPayload> {
    const options = {
      algorithms: this.algorithms,
      issuer: this.options.issuer,
      audience: this.options.audience,
      clockTolerance: CLOCK_TOLERANCE_SECONDS,
      currentDate: new Date(this.clock.now()),
    };
    try {
      const { payload } =
        typeof this.key === 'function' ? await jwtVerify(token, this.key, options) : await jwtVerify(token, this.key, options);
      return payload;
    } catch (error) {
      const refusal = refusalOf(error);
      if (refusal !== null) {
        throw refusal;
      }
      if (error instanceof KeySetUnavailable) {
        this.warnKeySetUnavailable(error.message);
        throw new DomainError(ErrorCode.SERVICE_UNAVAILABLE, KEY_SET_UNAVAILABLE_MESSAGE, { 'retry-after': '5' });
      }
      throw error;
    }
  }

  private warnKeySetUnavailable(cause: string): void {
    const now = this.clock.now();
    if (now - this.lastKeySetWarningAt >= KEY_SET_WARNING_INTERVAL_MS) {
      this.lastKeySetWarningAt = now;
      this.logger.warn(`the key set at ${this.options.jwksUrl} could not be read (app-user tokens answer 503): ${cause}`);
    }
  }
}
