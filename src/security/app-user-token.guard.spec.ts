import type { ExecutionContext } from '@nestjs/common';
import { DomainError } from '../common/domain-error';
import { ErrorCode } from '../common/error-code';
import { AppUserTokenGuard } from './app-user-token.guard';
import type { AppUserTokenVerifier } from './app-user-tokens';

const contextWith = (headers: Record<string, string>): ExecutionContext =>
  ({ switchToHttp: () => ({ getRequest: () => ({ headers }) }) }) as unknown as ExecutionContext;

/** A host's verifier: session tokens `session-<anything>` name the user the test maps them to. */
const hostVerifier = (users: Record<string, string | number | bigint | null>): AppUserTokenVerifier => ({
  userIdOf: (token) => Promise.resolve(token in users ? users[token] : null),
});

const refusal = async (attempt: Promise<unknown>): Promise<{ code: ErrorCode; message: string }> => {
  const error = await attempt.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(DomainError);
  return { code: (error as DomainError).code, message: (error as DomainError).message };
};

describe('AppUserTokenGuard', () => {
  it('lets every request through when no verifier is configured (auth-userid is trusted)', () => {
    expect(new AppUserTokenGuard(null).canActivate(contextWith({}))).toBe(true);
  });

  describe('with a host verifier', () => {
    const guard = new AppUserTokenGuard(
      hostVerifier({ 'session-a': '42', 'session-b': 42, 'session-c': 42n, 'session-d': 2 ** 53, 'session-e': '-0042' }),
    );
    const check = (token: string | null, userId: string) =>
      Promise.resolve(
        guard.canActivate(contextWith({ 'auth-userid': userId, ...(token === null ? {} : { authorization: `Bearer ${token}` }) })),
      );

    it.each([
      ['a string', 'session-a', '42'],
      ['a number', 'session-b', '042'],
      ['a bigint', 'session-c', '42'],
      ['a negative id with leading zeros', 'session-e', '-42'],
    ])('admits a token naming the auth-userid as %s', async (_, token, userId) => {
      await expect(check(token, userId)).resolves.toBe(true);
    });

    it('refuses a missing or unknown token with 401, another user or an inexact number with 403', async () => {
      expect(await refusal(check(null, '42'))).toEqual({
        code: ErrorCode.UNAUTHORIZED,
        message: "the app user's token is required in Authorization: Bearer (Authorize: appUserToken)",
      });
      expect(await refusal(check('session-z', '42'))).toEqual({ code: ErrorCode.UNAUTHORIZED, message: 'the app-user token is not valid' });
      expect((await refusal(check('session-a', '43'))).code).toBe(ErrorCode.FORBIDDEN);
      // 2^53 came through JSON as a rounded number: it cannot be told apart from 2^53 + 1.
      expect((await refusal(check('session-d', String(2 ** 53)))).code).toBe(ErrorCode.FORBIDDEN);
    });

    it("answers the verifier's own DomainError as it is", async () => {
      const failing = new AppUserTokenGuard({
        userIdOf: () => Promise.reject(new DomainError(ErrorCode.SERVICE_UNAVAILABLE, 'sessions are down')),
      });
      const attempt = Promise.resolve(failing.canActivate(contextWith({ authorization: 'Bearer t', 'auth-userid': '1' })));
      expect(await refusal(attempt)).toEqual({ code: ErrorCode.SERVICE_UNAVAILABLE, message: 'sessions are down' });
    });
  });
});
