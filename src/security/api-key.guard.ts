import { createHash, timingSafeEqual } from 'node:crypto';
import { CanActivate, ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { setAuditActor } from './operator';
import { DomainError } from '../common/domain-error';
import { ErrorCode } from '../common/error-code';
import type { AdminApiKey } from './admin-api-keys';
import { requiredRoleOf, roleAllows } from './admin-roles';

const digest = (value: string): Buffer => createHash('sha256').update(value).digest();

/**
 * Requires one of the configured API keys (docs/decisions/0010-roles-keys-and-tokens.md) in `Authorization: Bearer <key>`
 * or `x-api-key`. Either header holding a valid key is enough, so an app's own
 * bearer token beside a valid `x-api-key` does not fail the request. Keys are
 * compared as SHA-256 digests with `timingSafeEqual`: constant time, whatever the lengths.
 */
export class ApiKeyGuard implements CanActivate {
  private readonly keyDigests: Buffer[];

  constructor(keys: readonly string[]) {
    this.keyDigests = keys.map(digest);
  }

  canActivate(context: ExecutionContext): boolean {
    this.keyIndexOf(context.switchToHttp().getRequest<FastifyRequest>());
    return true;
  }

  /** The position of the request's key among the configured ones; no valid key → UNAUTHORIZED. */
  protected keyIndexOf({ headers }: FastifyRequest): number {
    const authorization = headers.authorization;
    const bearer = typeof authorization === 'string' ? /^Bearer\s+(.+)$/i.exec(authorization)?.[1] : undefined;
    const apiKey = headers['x-api-key'];
    const candidates = [bearer, typeof apiKey === 'string' ? apiKey : undefined].filter(
      (candidate): candidate is string => candidate !== undefined,
    );
    const index = candidates.map((candidate) => this.indexOf(candidate)).find((found) => found >= 0);
    if (index !== undefined) {
      return index;
    }
    throw new DomainError(ErrorCode.UNAUTHORIZED, 'a valid API key is required in Authorization: Bearer <key> or x-api-key');
  }

  private indexOf(candidate: string): number {
    const candidateDigest = digest(candidate);
    // Check every key, so the time taken does not tell which one matched.
    return this.keyDigests.reduce(
      (found, keyDigest, index) => (timingSafeEqual(keyDigest, candidateDigest) && found < 0 ? index : found),
      -1,
    );
  }
}

/**
 * The admin API's keys with their roles (docs/decisions/0010-roles-keys-and-tokens.md): the key first, then whether its role
 * allows the route (declared on the route with `@RequiresRole`), before anything else of the
 * request is looked at. The key's name becomes the actor of the request's audit entries.
 */
export class AdminKeyGuard extends ApiKeyGuard {
  constructor(private readonly keys: readonly AdminApiKey[]) {
    super(keys.map((key) => key.key));
  }

  override canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const key = this.keys[this.keyIndexOf(request)];
    const needed = requiredRoleOf(context.getHandler());
    if (!roleAllows(key.role, needed)) {
      throw new DomainError(ErrorCode.FORBIDDEN, `the key '${key.name}' has the role ${key.role}; this route needs ${needed}`);
    }
    setAuditActor(request, key.name);
    return true;
  }
}
