import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { isDatabaseUnavailable, outageCause } from '../database/database-unavailable';
import { outageLog } from '../database/outage-log';
import { databaseUnavailable, DomainError } from '../common/domain-error';
import { errorEnvelope } from '../common/envelope';
import { ErrorCode, HTTP_STATUS_OF } from '../common/error-code';

/**
 * Statuses that Nest or Fastify raise themselves (unknown route, bad JSON, body
 * limit, media type — Nest hands Fastify's errors over as HttpExceptions), as codes.
 */
const CODE_OF_STATUS: Readonly<Record<number, ErrorCode>> = {
  400: ErrorCode.INVALID_REQUEST,
  401: ErrorCode.UNAUTHORIZED,
  403: ErrorCode.FORBIDDEN,
  404: ErrorCode.NOT_FOUND,
  405: ErrorCode.NOT_FOUND,
  413: ErrorCode.PAYLOAD_TOO_LARGE,
  415: ErrorCode.UNSUPPORTED_MEDIA_TYPE,
  429: ErrorCode.RATE_LIMITED,
  503: ErrorCode.SERVICE_UNAVAILABLE,
};

interface ResolvedError {
  code: ErrorCode;
  message: string;
  headers: Readonly<Record<string, string>>;
}

/**
 * The one place that turns any failure into the error envelope of docs/decisions/0001-wire-rules-and-errors.md.
 * Unknown errors become INTERNAL_ERROR; their details are logged, never sent.
 */
@Catch()
export class ErrorEnvelopeFilter implements ExceptionFilter {
  private readonly logger = new Logger('ErrorEnvelopeFilter');

  catch(exception: unknown, host: ArgumentsHost): void {
    const reply = host.switchToHttp().getResponse<FastifyReply>();
    const { code, message, headers } = this.resolve(exception);
    const status = HTTP_STATUS_OF[code];
    if (status >= 500) {
      // The request id by name: SDK routes have no per-request logger context (app.module.ts).
      const requestId = host.switchToHttp().getRequest<FastifyRequest>().id;
      if (isDatabaseUnavailable(exception)) {
        // Expected while the database is away: counted, not one stack trace per request (docs/decisions/0022-database-outages.md).
        outageLog.refused(outageCause(exception), exception instanceof Error ? exception.message : String(exception), requestId);
      } else if (code === ErrorCode.SERVICE_UNAVAILABLE) {
        // The service's own 503s (readiness, a busy database): expected as well.
        outageLog.refused(message, message, requestId);
      } else {
        this.logger.error({ err: exception, code, requestId }, 'request failed');
      }
    }
    reply.status(status).headers(headers).send(errorEnvelope(code, message));
  }

  private resolve(exception: unknown): ResolvedError {
    const error = isDatabaseUnavailable(exception) ? databaseUnavailable() : exception;
    if (error instanceof DomainError) {
      return { code: error.code, message: error.message, headers: error.headers };
    }
    if (error instanceof HttpException) {
      const status = error.getStatus();
      const code = CODE_OF_STATUS[status] ?? (status < 500 ? ErrorCode.INVALID_REQUEST : ErrorCode.INTERNAL_ERROR);
      const message = code === ErrorCode.NOT_FOUND ? 'no such route' : this.publicMessage(code, error.message);
      return { code, message, headers: {} };
    }
    return { code: ErrorCode.INTERNAL_ERROR, message: 'internal error', headers: {} };
  }

  /** Framework messages for client errors are safe to show; anything else gets a generic text. */
  private publicMessage(code: ErrorCode, message: string | undefined): string {
    return HTTP_STATUS_OF[code] < 500 && message ? message : 'internal error';
  }
}
