import type { Readable } from 'node:stream';
import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { DomainError } from '../common/domain-error';
import { ErrorCode } from '../common/error-code';

/**
 * Member uploads over HTTP (docs/decisions/0008-cohorts.md): `text/csv` and `text/plain` bodies reach the member
 * routes as a stream, counted against COHORT_UPLOAD_LIMIT_BYTES as they are read (the JSON
 * body limit does not apply to them); JSON bodies of those routes may hold 100,000 ids.
 */

/** Default of COHORT_UPLOAD_LIMIT_BYTES: 256 MiB. */
export const DEFAULT_COHORT_UPLOAD_LIMIT_BYTES = 256 * 1024 * 1024;
/** A JSON member body: 100,000 ids of up to 20 characters, quoted, with room for spacing. */
const MEMBERS_JSON_LIMIT_BYTES = 4 * 1024 * 1024;

const STREAMED_MEDIA_TYPES = ['text/csv', 'text/plain'];
const MEMBERS_ROUTE = /\/cohorts\/:name\/members$/;
const STREAMED_METHODS = ['POST', 'PUT'];

const tooLarge = (limit: number): DomainError =>
  new DomainError(ErrorCode.PAYLOAD_TOO_LARGE, `the upload is larger than ${limit} bytes (COHORT_UPLOAD_LIMIT_BYTES)`);

/** The chunks of `stream`, read only when the service reads them, failing with PAYLOAD_TOO_LARGE past `limit` bytes. */
async function* limited(stream: Readable, limit: number): AsyncGenerator<Buffer> {
  let received = 0;
  // Not destroyed when the reading stops early (a bad line, over the limit): the answer still goes out on the connection.
  for await (const chunk of stream.iterator({ destroyOnReturn: false }) as AsyncIterable<Buffer>) {
    received += chunk.length;
    if (received > limit) throw tooLarge(limit);
    yield chunk;
  }
}

/**
 * Registers, on the Fastify instance serving the module's admin routes, the stream parser of
 * CSV / plain-text member uploads and the larger JSON limit of the member routes. Call it
 * before the routes are registered (before `app.init()`); a host importing the module calls it too.
 */
export function registerMemberUploads(fastify: FastifyInstance, uploadLimitBytes = DEFAULT_COHORT_UPLOAD_LIMIT_BYTES): void {
  fastify.addHook('onRoute', (route) => {
    if (MEMBERS_ROUTE.test(route.url)) {
      route.bodyLimit = Math.max(route.bodyLimit ?? 0, fastify.initialConfig.bodyLimit ?? 0, MEMBERS_JSON_LIMIT_BYTES);
    }
  });
  // A host that parses text/plain itself keeps its parser (its member routes then take JSON and text/csv).
  const mediaTypes = STREAMED_MEDIA_TYPES.filter((mediaType) => !fastify.hasContentTypeParser(mediaType));
  fastify.addContentTypeParser(mediaTypes, (request, payload, done) => {
    if (!STREAMED_METHODS.includes(request.method) || !MEMBERS_ROUTE.test(request.routeOptions.url ?? '')) {
      done(
        new DomainError(ErrorCode.UNSUPPORTED_MEDIA_TYPE, `this route takes application/json, not ${request.headers['content-type']}`),
        undefined,
      );
      return;
    }
    if (Number(request.headers['content-length']) > uploadLimitBytes) {
      done(tooLarge(uploadLimitBytes), undefined);
      return;
    }
    done(null, limited(payload as Readable, uploadLimitBytes));
  });
}

/** The text of a CSV upload: the stream, or (in a host parsing text/plain itself) the whole string. */
export type CsvText = AsyncIterable<Buffer | string> | Iterable<Buffer | string>;

/** A member body: the parsed JSON, or the text of a CSV upload. */
export type MemberUpload = { kind: 'json'; body: unknown } | { kind: 'csv'; stream: CsvText };

/** The body of a member route as a `MemberUpload`. */
export const MemberUploadBody = createParamDecorator((_: unknown, context: ExecutionContext): MemberUpload => {
  const request = context.switchToHttp().getRequest<FastifyRequest>();
  const mediaType = String(request.headers['content-type'] ?? '')
    .split(';')[0]
    .trim()
    .toLowerCase();
  if (!STREAMED_MEDIA_TYPES.includes(mediaType)) return { kind: 'json', body: request.body };
  return { kind: 'csv', stream: typeof request.body === 'string' ? [request.body] : (request.body as CsvText) };
});
