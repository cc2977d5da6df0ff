import pino, { LevelWithSilent, Logger as PinoLogger } from 'pino';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** Injection token of the standalone app's pino logger (AppModule). */
export const APP_LOGGER = 'APP_LOGGER';

/** The standalone app's one pino logger: Nest's log lines (through nestjs-pino) and the access lines. */
export function createAppLogger(level: LevelWithSilent): PinoLogger {
  return pino({ level });
}

/**
 * One access line per finished request, named by its request id (the
 * `x-request-id` answered): pino-http's `req`, `res` and `responseTime`, without the headers.
 */
export function logAccess(logger: PinoLogger, request: FastifyRequest, reply: FastifyReply): void {
  logger.info(
    {
      reqId: request.id,
      req: { method: request.method, url: request.url },
      res: { statusCode: reply.statusCode },
      responseTime: Math.round(reply.elapsedTime),
    },
    'request completed',
  );
}
