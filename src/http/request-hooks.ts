import fastifyCors from '@fastify/cors';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { Logger as PinoLogger } from 'pino';
import { APP_LOGGER, logAccess } from '../common/app-logger';
import { underPrefix } from '../common/path-prefix';
import type { AppConfig } from '../config/app-config';
import { MetricsService } from '../metrics/metrics.service';
import { registerRateLimits } from '../security/rate-limits';
import { withResponseHeaders } from './security-headers';

/** What the admin panel calls cross-origin (the plugin's default is GET, HEAD and POST only). */
const CORS_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** The standalone app's work around every request: response headers, rate limits, CORS, metrics and access log. */
export async function registerRequestHooks(app: NestFastifyApplication, config: AppConfig): Promise<void> {
  const fastify = app.getHttpAdapter().getInstance();
  // The first request hook of ours, so that the answers of the ones after it (CORS preflights,
  // 429s) carry the headers too; a request hook rather than onSend, whose hook runner would
  // cost every SDK call more than the headers themselves.
  fastify.addHook('onRequest', (request, reply, done) => {
    withResponseHeaders(request, reply);
    done();
  });
  await registerRateLimits(app, config);
  // Registered on Fastify directly: Nest's enableCors() copies the CORS headers onto the raw
  // response on every request, for the sake of Nest middleware, which this app has none of.
  await app.register(fastifyCors, {
    origin: config.corsOrigins.includes('*') ? '*' : config.corsOrigins,
    methods: CORS_METHODS,
  });
  const metrics = app.get(MetricsService);
  const logger = app.get<PinoLogger>(APP_LOGGER);
  const isSdkRoute = underPrefix(config.sdkPrefix);
  fastify.addHook('onResponse', (request, reply, done) => {
    // Label by route pattern (not the raw URL) so the series stay few.
    const route = request.routeOptions.url ?? 'unmatched';
    metrics.observeRequest(request.method, route, reply.statusCode, reply.elapsedTime / 1000);
    // App launches and deltas are most of the traffic: no access line (their failures are logged by the filter).
    if (!isSdkRoute(route)) {
      logAccess(logger, request, reply);
    }
    done();
  });
}
