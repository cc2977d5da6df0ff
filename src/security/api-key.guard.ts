import { createHash, timingSafeEqual } from 'node:crypto';
import { CanActivate, ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { DomainError } from '../common/domain-error';
import { ErrorCode } from '../common/error-code';

const digest = (value: string): Buffer => createHash('sha256').update(value).digest();

/**
 * Requires one of the configured API keys (DESIGN §15) in `Authorization: Bearer <key>`
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
    const { headers } = context.switchToHttp().getRequest<FastifyRequest>();
    const authorization = headers.authorization;
    const bearer = typeof authorization === 'string' ? /^Bearer\s+(.+)$/i.exec(authorization)?.[1] : undefined;
    const apiKey = headers['x-api-key'];
    const candidates = [bearer, typeof apiKey === 'string' ? apiKey : undefined].filter(
      (candidate): candidate is string => candidate !== undefined,
    );
    if (candidates.some((candidate) => this.isKey(candidate))) {
      return true;
    }
    throw new DomainError(
      ErrorCode.UNAUTHORIZED,
      'a valid API key is required in Authorization: Bearer <key> or x-api-key',
    );
  }

  private isKey(candidate: string): boolean {
    const candidateDigest = digest(candidate);
    // Check every key, so the time taken does not tell which one matched.
    return this.keyDigests.reduce((matched, keyDigest) => timingSafeEqual(keyDigest, candidateDigest) || matched, false);
  }
}
