import { applyDecorators } from '@nestjs/common';
import {
  ApiInternalServerErrorResponse,
  ApiResponse,
  ApiServiceUnavailableResponse,
  ApiTooManyRequestsResponse,
  ApiUnauthorizedResponse,
  getSchemaPath,
} from '@nestjs/swagger';
import type { OpenAPIObject } from '@nestjs/swagger';
import type { ResponseObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { errorEnvelope, ErrorEnvelopeDto } from './envelope';
import { ErrorCode } from './error-code';

/**
 * Marks an operation that answers a body over its limit as one without a body (the SDK launch) rather
 * than 413: `withBodyErrorResponses` documents no 413 for it.
 */
export const OVERSIZED_BODY_IGNORED = 'x-oversized-body-ignored';

const RETRY_AFTER = { 'retry-after': { description: 'seconds to wait before retrying', schema: { type: 'integer' } } };

/** An error code and a message it is answered with, as a response example shows it. */
export type ErrorExample = readonly [ErrorCode, string];

/** One named example per code: Swagger UI offers them in a list under the response. */
export function errorExamples(examples: readonly ErrorExample[]): Record<string, { summary: string; value: unknown }> {
  const named: Record<string, { summary: string; value: unknown }> = {};
  for (const [code, message] of examples) {
    let name: string = code;
    for (let n = 2; named[name]; n++) name = `${code} (${n})`;
    named[name] = { summary: message, value: errorEnvelope(code, message) };
  }
  return named;
}

/** An error answer of a route: the codes it names and why (description), and an example of each. */
export interface ErrorAnswer {
  description: string;
  examples: readonly ErrorExample[];
}

/** A route's own error answers by HTTP status (the ones every route can give come with its mount). */
export type RouteErrors = Partial<Record<400 | 404 | 413 | 415 | 503, ErrorAnswer>>;

/** Documents each of `errors` as an error envelope with its named examples. */
export const ApiRouteErrors = (errors: RouteErrors): MethodDecorator =>
  applyDecorators(
    ...Object.entries(errors).map(([status, { description, examples }]) =>
      ApiResponse({ status: Number(status), type: ErrorEnvelopeDto, description, examples: errorExamples(examples) }),
    ),
  );

/** The 400 of every route that reads the tenant header. */
export const BAD_TENANT_EXAMPLE: ErrorExample = [
  ErrorCode.INVALID_REQUEST,
  "header 'x-tenant-id' must be 1-64 characters of A-Z, a-z, 0-9, '.', '_' or '-'",
];

/** The messages the service answers these codes with (rate limiter, filter, body parser). */
const RATE_LIMITED_EXAMPLE: ErrorExample = [ErrorCode.RATE_LIMITED, 'rate limit of 600 requests a minute exceeded, retry in 1 minute'];
const INTERNAL_ERROR_EXAMPLE: ErrorExample = [ErrorCode.INTERNAL_ERROR, 'internal error'];
export const SERVICE_UNAVAILABLE_EXAMPLE: ErrorExample = [ErrorCode.SERVICE_UNAVAILABLE, 'the database is unavailable, retry later'];
const LARGE_BODY_BUSY_EXAMPLE: ErrorExample = [
  ErrorCode.SERVICE_UNAVAILABLE,
  'too many requests with large bodies (over 64 KiB) are waiting to be read; retry after 10 s',
];
const PAYLOAD_TOO_LARGE_EXAMPLE: ErrorExample = [ErrorCode.PAYLOAD_TOO_LARGE, 'Request body is too large'];
const UNSUPPORTED_MEDIA_TYPE_EXAMPLE: ErrorExample = [ErrorCode.UNSUPPORTED_MEDIA_TYPE, 'Unsupported Media Type'];

/**
 * The error answers any mounted route can give beside its own 400s (docs/decisions/0001-wire-rules-and-errors.md,
 * docs/decisions/0010-roles-keys-and-tokens.md); every route documents them through its mount (mountControllers),
 * which knows the 401 of its API's keys.
 */
export const ApiCommonErrorResponses = (unauthorized: ErrorAnswer): ClassDecorator =>
  applyDecorators(
    ApiUnauthorizedResponse({
      type: ErrorEnvelopeDto,
      description: unauthorized.description,
      examples: errorExamples(unauthorized.examples),
    }),
    ApiTooManyRequestsResponse({
      type: ErrorEnvelopeDto,
      headers: RETRY_AFTER,
      description: 'RATE_LIMITED: over the configured rate limit (per IP on admin routes, per tenant and user on SDK routes)',
      examples: errorExamples([RATE_LIMITED_EXAMPLE]),
    }),
    ApiInternalServerErrorResponse({
      type: ErrorEnvelopeDto,
      description: 'INTERNAL_ERROR: an unexpected failure (details are logged, never sent)',
      examples: errorExamples([INTERNAL_ERROR_EXAMPLE]),
    }),
    ApiServiceUnavailableResponse({
      type: ErrorEnvelopeDto,
      headers: RETRY_AFTER,
      description: 'SERVICE_UNAVAILABLE: the database is unreachable; retry after Retry-After seconds',
      examples: errorExamples([SERVICE_UNAVAILABLE_EXAMPLE]),
    }),
  ) as ClassDecorator;

const errorResponse = (description: string, example: ErrorExample): ResponseObject => ({
  description,
  content: { 'application/json': { schema: { $ref: getSchemaPath(ErrorEnvelopeDto) }, examples: errorExamples([example]) } },
});

/**
 * Adds the answers of Fastify's body handling (and of the large-body lane) to every operation that takes a body.
 * They come before any route code, so no controller decorator can know which
 * routes have them; the document does (its `requestBody`).
 */
export function withBodyErrorResponses(document: OpenAPIObject): OpenAPIObject {
  for (const operations of Object.values(document.paths)) {
    for (const operation of Object.values(operations)) {
      if (operation && typeof operation === 'object' && 'requestBody' in operation && operation.requestBody) {
        // A route that documents its own (e.g. CSV uploads with their own limit) keeps it.
        if (!(OVERSIZED_BODY_IGNORED in operation))
          operation.responses['413'] ??= errorResponse(
            'PAYLOAD_TOO_LARGE: the body is over the configured limit (BODY_LIMIT_BYTES)',
            PAYLOAD_TOO_LARGE_EXAMPLE,
          );
        operation.responses['415'] ??= errorResponse(
          'UNSUPPORTED_MEDIA_TYPE: a body that is not application/json',
          UNSUPPORTED_MEDIA_TYPE_EXAMPLE,
        );
        const unavailable = operation.responses['503'];
        if (unavailable && 'description' in unavailable) {
          // A new object: responses built from one decorator may be shared between operations.
          operation.responses['503'] = {
            ...unavailable,
            description:
              `${unavailable.description}; or the body is over 64 KiB and the large-body lane stayed full ` +
              '(LARGE_BODY_MAX_WAITING requests waiting, or one waited LARGE_BODY_MAX_WAIT_MS)',
            content: {
              'application/json': {
                schema: { $ref: getSchemaPath(ErrorEnvelopeDto) },
                examples: errorExamples([SERVICE_UNAVAILABLE_EXAMPLE, LARGE_BODY_BUSY_EXAMPLE]),
              },
            },
          };
        }
      }
    }
  }
  return document;
}
