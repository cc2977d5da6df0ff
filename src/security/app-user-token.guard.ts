import { applyDecorators, CanActivate, ExecutionContext, FactoryProvider, Inject, Injectable, UseGuards } from '@nestjs/common';
import { ApiForbiddenResponse, ApiSecurity, ApiServiceUnavailableResponse, ApiUnauthorizedResponse } from '@nestjs/swagger';
import type { OpenAPIObject } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { Clock } from '../common/clock';
import { DomainError } from '../common/domain-error';
import { errorExamples, SERVICE_UNAVAILABLE_EXAMPLE } from '../common/api-error-responses';
import { ErrorEnvelopeDto } from '../common/envelope';
import { ErrorCode } from '../common/error-code';
import { UNAUTHORIZED_ANSWERS } from './api-key.guard';
import { APP_USER_TOKEN_SCHEME, SDK_KEY_SCHEME } from './key-schemes';
import { parseSdkUserId } from '../common/request-headers';
import { userIdValue } from '../common/user-id';
import { ORCHESTRATION_SETTINGS, OrchestrationSettings } from '../orchestration-options';
import type { AppUserTokenVerifier } from './app-user-tokens';
import { JoseAppUserTokenVerifier, KEY_SET_UNAVAILABLE_MESSAGE, TOKEN_EXPIRED_MESSAGE } from './jose-app-user-token-verifier';

/** The verifier of the module: the host's own, the built-in one from `appUserTokens`, or none (tokens not checked). */
export const APP_USER_TOKEN_VERIFIER = Symbol('APP_USER_TOKEN_VERIFIER');

export const appUserTokenVerifierProvider: FactoryProvider<AppUserTokenVerifier | null> = {
  provide: APP_USER_TOKEN_VERIFIER,
  inject: [ORCHESTRATION_SETTINGS, Clock],
  useFactory: (settings: OrchestrationSettings, clock: Clock) =>
    settings.appUserTokenVerifier ?? (settings.appUserTokens ? new JoseAppUserTokenVerifier(settings.appUserTokens, clock) : null),
};

const BEARER = /^Bearer +(\S+)$/i;
const TOKEN_REQUIRED_MESSAGE = `the app user's token is required in Authorization: Bearer (Authorize: ${APP_USER_TOKEN_SCHEME})`;
const ANOTHER_USERS_TOKEN_MESSAGE = "the app-user token is another user's: its user is not the auth-userid";

/**
 * App-user tokens (docs/decisions/0010-roles-keys-and-tokens.md): when a verifier is configured, the request's
 * `Authorization: Bearer` token must be a valid app-user token (else 401) naming the user
 * of `auth-userid` (else 403). Runs after the mount's guards (the SDK API key in `x-api-key`).
 */
@Injectable()
export class AppUserTokenGuard implements CanActivate {
  constructor(@Inject(APP_USER_TOKEN_VERIFIER) private readonly verifier: AppUserTokenVerifier | null) {}

  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    if (this.verifier === null) {
      return true;
    }
    return this.admits(this.verifier, context.switchToHttp().getRequest<FastifyRequest>().headers);
  }

  private async admits(verifier: AppUserTokenVerifier, headers: FastifyRequest['headers']): Promise<boolean> {
    const authorization = headers.authorization;
    const token = typeof authorization === 'string' ? BEARER.exec(authorization)?.[1] : undefined;
    if (token === undefined) {
      throw new DomainError(ErrorCode.UNAUTHORIZED, TOKEN_REQUIRED_MESSAGE);
    }
    const tokenUserId = await verifier.userIdOf(token);
    if (tokenUserId === null) {
      throw new DomainError(ErrorCode.UNAUTHORIZED, 'the app-user token is not valid');
    }
    const userId = parseSdkUserId(headers);
    if (userIdValue(tokenUserId) !== userId) {
      throw new DomainError(ErrorCode.FORBIDDEN, ANOTHER_USERS_TOKEN_MESSAGE);
    }
    return true;
  }
}

/**
 * Requires the app user's token (when the module verifies them) on an SDK route, and documents
 * it: the `appUserToken` scheme (with the SDK key in x-api-key when keys are configured), 401, 403, 503.
 */
export const RequireAppUserToken = (): MethodDecorator =>
  applyDecorators(
    UseGuards(AppUserTokenGuard),
    ApiSecurity(APP_USER_TOKEN_SCHEME),
    ApiUnauthorizedResponse({
      type: ErrorEnvelopeDto,
      description:
        'UNAUTHORIZED: app-user tokens are configured and the bearer of Authorization is missing, malformed, badly signed, ' +
        'expired or unsigned (alg none); or SDK keys are configured and x-api-key holds none',
      examples: errorExamples([
        [ErrorCode.UNAUTHORIZED, TOKEN_REQUIRED_MESSAGE],
        [ErrorCode.UNAUTHORIZED, TOKEN_EXPIRED_MESSAGE],
        ...UNAUTHORIZED_ANSWERS.sdk.examples,
      ]),
    }),
    ApiForbiddenResponse({
      type: ErrorEnvelopeDto,
      description: 'FORBIDDEN: the app-user token is valid but names another user than auth-userid',
      examples: errorExamples([[ErrorCode.FORBIDDEN, ANOTHER_USERS_TOKEN_MESSAGE]]),
    }),
    ApiServiceUnavailableResponse({
      type: ErrorEnvelopeDto,
      headers: { 'retry-after': { description: 'seconds to wait before retrying', schema: { type: 'integer' } } },
      description:
        'SERVICE_UNAVAILABLE: the database is unreachable, or the key set of app-user tokens (SDK_JWT_JWKS_URL) is and the ' +
        "token's key is not held; retry after Retry-After seconds",
      examples: errorExamples([SERVICE_UNAVAILABLE_EXAMPLE, [ErrorCode.SERVICE_UNAVAILABLE, KEY_SET_UNAVAILABLE_MESSAGE]]),
    }),
  );

/**
 * Sets the requirement of the operations marked by `RequireAppUserToken` to the token together with
 * the SDK key in x-api-key. (Swagger appends the method's requirement to the mount's, which would
 * read "the key or the token"; on these routes the bearer is the app user's token and the key must
 * come in x-api-key beside it.) The scheme itself is one of `keySchemes`.
 */
export function withAppUserTokenSecurity(document: OpenAPIObject): OpenAPIObject {
  for (const operations of Object.values(document.paths)) {
    for (const operation of Object.values(operations)) {
      const security = operation && typeof operation === 'object' && 'security' in operation ? operation.security : undefined;
      if (Array.isArray(security) && security.some((requirement) => APP_USER_TOKEN_SCHEME in requirement)) {
        operation.security = [{ [APP_USER_TOKEN_SCHEME]: [], [SDK_KEY_SCHEME]: [] }];
      }
    }
  }
  return document;
}
