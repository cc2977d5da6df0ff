import rateLimit from '@fastify/rate-limit';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyRequest } from 'fastify';
import { DomainError } from '../common/domain-error';
import { ErrorCode } from '../common/error-code';
import { occupiedPaths, ROOT_PREFIX, underPrefix } from '../common/path-prefix';
import { adminRouteRoots } from '../cta-orchestration.module';
import { sdkUserOf } from '../common/request-headers';
import type { AppConfig } from '../config/app-config';

const RATE_WINDOW_MS = 60_000;

/** Which limit a request counts against, or null for routes outside both APIs (health, docs, metrics). */
type RateLimitedApi = 'admin' | 'sdk';

/**
 * Per-minute rate limits of the standalone app (docs/decisions/0010-roles-keys-and-tokens.md): per client IP on
 * admin routes, per (tenant, user) on SDK routes (per IP when the SDK call
 * carries no user). Off unless configured, so tests and benchmarks are never
 * throttled. Over the limit → 429 RATE_LIMITED with `Retry-After`.
 */
export async function registerRateLimits(app: NestFastifyApplication, config: AppConfig): Promise<void> {
  if (config.adminRateLimitPerMinute === 0 && config.sdkRateLimitPerMinute === 0) {
    return;
  }
  // The root alias counts the admin routes it serves there (`/ctas/…`), not every path.
  const rootRoutes = config.adminPrefixAliases.includes(ROOT_PREFIX) ? adminRouteRoots() : [];
  const isAdminPath = [config.adminPrefix, ...config.adminPrefixAliases]
    .flatMap((prefix) => occupiedPaths(prefix, rootRoutes))
    .map(underPrefix);
  const isSdkPath = underPrefix(config.sdkPrefix);
  const apiOf = (request: FastifyRequest): RateLimitedApi | null => {
    if (isSdkPath(request.url)) return config.sdkRateLimitPerMinute > 0 ? 'sdk' : null;
    if (isAdminPath.some((isUnder) => isUnder(request.url))) return config.adminRateLimitPerMinute > 0 ? 'admin' : null;
    return null;
  };
  await app.register(rateLimit, {
    global: true,
    timeWindow: RATE_WINDOW_MS,
    allowList: (request) => apiOf(request) === null,
    max: (request) => (apiOf(request) === 'sdk' ? config.sdkRateLimitPerMinute : config.adminRateLimitPerMinute),
    keyGenerator: (request) => {
      if (apiOf(request) === 'admin') {
        return `admin:${request.ip}`;
      }
      const user = sdkUserOf(request.headers);
      return user === null ? `sdk-ip:${request.ip}` : `sdk:${user.tenantId}:${user.userId}`;
    },
    errorResponseBuilder: (_request, context) =>
      new DomainError(ErrorCode.RATE_LIMITED, `rate limit of ${context.max} requests a minute exceeded, retry in ${context.after}`),
  });
}
