import * as jose from 'jose';
import { Clock } from '../common/clock';
import { DomainError } from '../common/domain-error';
import { ErrorCode } from '../common/error-code';
import { JoseAppUserTokenVerifier, MAX_TOKEN_CACHE_MS } from './jose-app-user-token-verifier';

// Counts the signature checks, to tell a cache hit from a verification.
jest.mock('jose', () => {
  const actual = jest.requireActual('jose');
  return { ...actual, jwtVerify: jest.fn(actual.jwtVerify) };
});
const verifications = jose.jwtVerify as jest.Mock;

const SECRET = 'a-secret-of-at-least-thirty-two-bytes';

class MovableClock extends Clock {
  at = Date.UTC(2026, 10, 25, 12);
  override now(): number {
    return this.at;
  }
}

const token = (clock: Clock, sub: string, expiresIn: number | null = 3600): Promise<string> => {
  const seconds = Math.floor(clock.now() / 1000);
  const jwt = new jose.SignJWT({ sub }).setProtectedHeader({ alg: 'HS256' }).setIssuedAt(seconds);
  return (expiresIn === null ? jwt : jwt.setExpirationTime(seconds + expiresIn)).sign(new TextEncoder().encode(SECRET));
};

describe('JoseAppUserTokenVerifier', () => {
  let clock: MovableClock;
  beforeEach(() => {
    clock = new MovableClock();
    verifications.mockClear();
  });

  it('checks a signature once per token, then answers from the cache', async () => {
    const verifier = new JoseAppUserTokenVerifier({ secret: SECRET }, clock);
    const first = await token(clock, '42');
    for (let call = 0; call < 3; call++) {
      await expect(verifier.userIdOf(first)).resolves.toBe('42');
    }
    expect(verifications).toHaveBeenCalledTimes(1);
  });

  it('keeps at most maxCachedTokens tokens, dropping the least recently used', async () => {
    const verifier = new JoseAppUserTokenVerifier({ secret: SECRET, maxCachedTokens: 2 }, clock);
    const [a, b, c] = await Promise.all(['1', '2', '3'].map((user) => token(clock, user)));
    await verifier.userIdOf(a);
    await verifier.userIdOf(b);
    await verifier.userIdOf(a);
    await verifier.userIdOf(c);
    expect(verifier.cachedTokens).toBe(2);
    expect(verifications).toHaveBeenCalledTimes(3);
    await verifier.userIdOf(a);
    expect(verifications).toHaveBeenCalledTimes(3);
    await verifier.userIdOf(b);
    expect(verifications).toHaveBeenCalledTimes(4);
  });

  it('verifies a cached token again once it expires, or after ten minutes when it has no exp', async () => {
    const verifier = new JoseAppUserTokenVerifier({ secret: SECRET }, clock);
    const expiring = await token(clock, '42', 60);
    const lasting = await token(clock, '43', null);
    await verifier.userIdOf(expiring);
    await verifier.userIdOf(lasting);
    clock.at += 61_000;
    // Expired a second ago: inside the clock tolerance, so valid, but verified again.
    await expect(verifier.userIdOf(expiring)).resolves.toBe('42');
    await verifier.userIdOf(lasting);
    expect(verifications).toHaveBeenCalledTimes(3);
    clock.at += MAX_TOKEN_CACHE_MS;
    await verifier.userIdOf(lasting);
    expect(verifications).toHaveBeenCalledTimes(4);
    await expect(verifier.userIdOf(expiring)).rejects.toEqual(new DomainError(ErrorCode.UNAUTHORIZED, 'the app-user token has expired'));
  });

  it('does not cache refusals', async () => {
    const verifier = new JoseAppUserTokenVerifier({ secret: SECRET, issuer: 'https://auth.example.com' }, clock);
    const foreign = await token(clock, '42');
    await expect(verifier.userIdOf(foreign)).rejects.toMatchObject({ code: ErrorCode.UNAUTHORIZED });
    await expect(verifier.userIdOf(foreign)).rejects.toMatchObject({ code: ErrorCode.UNAUTHORIZED });
    expect(verifications).toHaveBeenCalledTimes(2);
    expect(verifier.cachedTokens).toBe(0);
  });
});
