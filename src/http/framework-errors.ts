import type { FastifyReply, FastifyRequest } from 'fastify';
import { errorEnvelope } from '../common/envelope';
import { ErrorCode, HTTP_STATUS_OF } from '../common/error-code';
import { MAX_PATH_PARAMETER_LENGTH } from './fastify-options';
import { withResponseHeaders } from './security-headers';

const FRAMEWORK_ERROR_MESSAGES: Readonly<Record<string, string>> = {
  FST_ERR_BAD_URL: 'the URL has a malformed percent-encoding',
  FST_ERR_MAX_PARAM_LENGTH: `a path parameter is longer than ${MAX_PATH_PARAMETER_LENGTH} characters`,
};

/**
 * URLs the router refuses before any route, hook or Nest filter runs still answer with the error envelope
 * (docs/decisions/0001-wire-rules-and-errors.md).
 */
export function onFrameworkError(error: { code?: string }, request: FastifyRequest, reply: FastifyReply): void {
  const message = FRAMEWORK_ERROR_MESSAGES[error.code ?? ''] ?? 'malformed request URL';
  void withResponseHeaders(request, reply)
    .code(HTTP_STATUS_OF[ErrorCode.INVALID_REQUEST])
    .send(errorEnvelope(ErrorCode.INVALID_REQUEST, message));
}
