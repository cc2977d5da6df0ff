import { FastifyAdapter } from '@nestjs/platform-fastify';
import type { AppConfig } from '../config/app-config';
import { ORCHESTRATION_FASTIFY_OPTIONS } from './fastify-options';
import { onFrameworkError } from './framework-errors';
import { requestIdOf } from './request-ids';

/** Options for creating the Nest application: the module's JSON parser replaces Nest's (json-body-parser.ts). */
export const NEST_APPLICATION_OPTIONS = { bodyParser: false, bufferLogs: true } as const;

/** The standalone app's Fastify: the module's routing options, request ids, the router's refusals as envelopes. */
export function createFastifyAdapter(config: AppConfig): FastifyAdapter {
  return new FastifyAdapter({
    ...ORCHESTRATION_FASTIFY_OPTIONS,
    bodyLimit: config.bodyLimitBytes,
    genReqId: requestIdOf,
    frameworkErrors: onFrameworkError,
    // While draining, a request that arrives on a connection still open is served (the pool
    // closes only after the server), not answered with Fastify's own 503 body, which is not
    // the error envelope. SHUTDOWN_TIMEOUT_MS bounds the drain (main.ts).
    return503OnClosing: false,
    // No Nest middleware is used; middie's request hook would still run on every request.
    skipMiddie: true,
  });
}
