import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { isDatabaseUnavailable } from '../database/database-unavailable';
import { DomainError } from './domain-error';
import { errorEnvelope } from './envelope';
import { ErrorCode, HTTP_STATUS_OF } from './error-code';

/**
 * Statuses that Nest or Fastify raise themselves (unknown route, bad JSON, body
 * limit, media type — Nest hands Fastify's errors over as HttpExceptions), as codes.
 */
const CODE_OF_STATUS: Readonly<Record<number, ErrorCode>> = {
  400: ErrorCode.INVALID_REQUEST,
  401: ErrorCode.UNAUTHORIZED,
  404: ErrorCode.NOT_FOUND,
  405: ErrorCode.NOT_FOUND,
  413: ErrorCode.PAYLOAD_TOO_LARGE,
  415: ErrorCode.UNSUPPORTED_MEDIA_TYPE,
  429: ErrorCode.RATE_LIMITED,
  503: ErrorCode.SERVICE_UNAVAILABLE,
};

/** What a client is told to wait while the database is unreachable. */
const DATABASE_RETRY_AFTER_SECONDS = 5;

interface ResolvedError {
  code: ErrorCode;
  message: string;
  headers: Readonly<Record<string, string>>;
}

/**
 * The one place that turns any failure into the error envelope of DESIGN §4.
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
      this.logger.error({ err: exception, code }, 'request failed');
    }
    reply.status(status).headers(headers).send(errorEnvelope(code, message));
  }

  private resolve(exception: unknown): ResolvedError {
    if (exception instanceof DomainError) {
      return { code: exception.code, message: exception.message, headers: exception.headers };
    }
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      const code = CODE_OF_STATUS[status] ?? (status < 500 ? ErrorCode.INVALID_REQUEST : ErrorCode.INTERNAL_ERROR);
      const message = code === ErrorCode.NOT_FOUND ? 'no such route' : this.publicMessage(code, exception.message);
      return { code, message, headers: {} };
    }
    if (isDatabaseUnavailable(exception)) {
      return {
        code: ErrorCode.SERVICE_UNAVAILABLE,
        message: 'the database is unavailable, retry later',
        headers: { 'retry-after': String(DATABASE_RETRY_AFTER_SECONDS) },
      };
    }
    return { code: ErrorCode.INTERNAL_ERROR, message: 'internal error', headers: {} };
  }

  /** Framework messages for client errors are safe to show; anything else gets a generic text. */
  private publicMessage(code: ErrorCode, message: string | undefined): string {
    return HTTP_STATUS_OF[code] < 500 && message ? message : 'internal error';
  }
}
