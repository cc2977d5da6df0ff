import { applyDecorators } from '@nestjs/common';
import {
  ApiInternalServerErrorResponse,
  ApiServiceUnavailableResponse,
  ApiTooManyRequestsResponse,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import type { OpenAPIObject } from '@nestjs/swagger';
import type { ResponseObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { ErrorEnvelopeDto } from './envelope';

const RETRY_AFTER = { 'retry-after': { description: 'seconds to wait before retrying', schema: { type: 'integer' } } };

/**
 * The error answers any mounted route can give beside its own 400s (DESIGN §4, §15);
 * every route documents them through its mount (mountControllers).
 */
export const ApiCommonErrorResponses = (): ClassDecorator =>
  applyDecorators(
    ApiUnauthorizedResponse({
      type: ErrorEnvelopeDto,
      description: 'UNAUTHORIZED: API keys are configured for this prefix and neither Authorization: Bearer <key> nor x-api-key holds one',
    }),
    ApiTooManyRequestsResponse({
      type: ErrorEnvelopeDto,
      headers: RETRY_AFTER,
      description: 'RATE_LIMITED: over the configured rate limit (per IP on admin routes, per tenant and user on SDK routes)',
    }),
    ApiInternalServerErrorResponse({ type: ErrorEnvelopeDto, description: 'INTERNAL_ERROR: an unexpected failure (details are logged, never sent)' }),
    ApiServiceUnavailableResponse({
      type: ErrorEnvelopeDto,
      headers: RETRY_AFTER,
      description: 'SERVICE_UNAVAILABLE: the database is unreachable; retry after Retry-After seconds',
    }),
  ) as ClassDecorator;

const errorResponse = (description: string): ResponseObject => ({
  description,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelopeDto' } } },
});

/**
 * Adds the answers of Fastify's body handling to every operation that takes a body.
 * They come before any route code, so no controller decorator can know which
 * routes have them; the document does (its `requestBody`).
 */
export function withBodyErrorResponses(document: OpenAPIObject): OpenAPIObject {
  for (const operations of Object.values(document.paths)) {
    for (const operation of Object.values(operations)) {
      if (operation && typeof operation === 'object' && 'requestBody' in operation && operation.requestBody) {
        // A route that documents its own (e.g. CSV uploads with their own limit) keeps it.
        operation.responses['413'] ??= errorResponse('PAYLOAD_TOO_LARGE: the body is over the configured limit (BODY_LIMIT_BYTES)');
        operation.responses['415'] ??= errorResponse('UNSUPPORTED_MEDIA_TYPE: a body that is not application/json');
      }
    }
  }
  return document;
}
