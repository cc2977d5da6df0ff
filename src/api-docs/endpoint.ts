import { applyDecorators, HttpCode } from '@nestjs/common';
import {
  ApiBody,
  ApiExtension,
  ApiHeader,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiProduces,
  type ApiBodyOptions,
  type ApiHeaderOptions,
  type ApiParamOptions,
  type ApiResponseNoStatusOptions,
  type OpenAPIObject,
} from '@nestjs/swagger';
import type { MediaTypeObject, OperationObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { ApiRouteErrors, OVERSIZED_BODY_IGNORED, type RouteErrors } from '../common/api-error-responses';
import { ApiDataResponse, ApiEmptyResponse, ApiEventResponse, type EnvelopeData, type EnvelopeResponse } from '../common/envelope';
import { type AdminRole, RequiresRole } from '../security/admin-roles';

/** The 200 of a route: one of the envelopes, or (operations routes) an answer of its own shape. */
export type EndpointAnswer =
  | ({ data: EnvelopeData } & EnvelopeResponse)
  | ({ event: EnvelopeData } & EnvelopeResponse)
  | { empty: string }
  | { raw: ApiResponseNoStatusOptions };

/** Everything the API document says about one route; each feature's `*-api-examples.ts` holds the examples. */
export interface EndpointDoc {
  summary: string;
  /**
   * What must exist before the route's examples run, when they do not run on their own on an empty
   * database (e.g. "CTA 1: POST /engine/ctas first"): shown at the end of the summary as
   * "(example needs …)", so an operator trying them in another order knows (docs/admin-console.md).
   */
  exampleNeeds?: string;
  description?: string;
  params?: ApiParamOptions[];
  headers?: ApiHeaderOptions[];
  body?: ApiBodyOptions;
  /**
   * The body's other media types, each with its own schema: a body decorator gives all its types one
   * schema, so these go through an extension that `withOtherBodyMediaTypes` moves into the body.
   */
  otherBodyMediaTypes?: Record<string, MediaTypeObject>;
  /** The media type of a 200 that is not JSON. */
  produces?: string;
  answers: EndpointAnswer;
  /** The route's own error answers; the ones any route can give come with its mount. */
  errors?: RouteErrors;
  /** A body over the limit is answered as no body, never 413 (the SDK launch). */
  oversizedBodyIgnored?: true;
}

const OTHER_BODY_MEDIA_TYPES = 'x-other-body-media-types';

/**
 * "(example needs CTA 1 in draft or paused)": how a summary (of a route, or of a body example) says what must
 * exist first. Examples without it run on their own on an empty database, in any order.
 */
export const exampleNeedsText = (needs: string): string => `(example needs ${needs})`;

function answerDecorator(answer: EndpointAnswer): MethodDecorator {
  if ('data' in answer) return ApiDataResponse(answer.data, answer);
  if ('event' in answer) return ApiEventResponse(answer.event, answer);
  if ('empty' in answer) return ApiEmptyResponse(answer.empty);
  return ApiOkResponse(answer.raw);
}

/**
 * One route's status and documentation in one decorator. Every route answers 200, a POST too
 * (where Nest would answer 201), so the status is set here rather than on each route.
 */
export function Endpoint(doc: EndpointDoc): MethodDecorator {
  const {
    summary,
    exampleNeeds,
    description,
    params = [],
    headers = [],
    body,
    otherBodyMediaTypes,
    produces,
    answers,
    errors,
    oversizedBodyIgnored,
  } = doc;
  return applyDecorators(
    HttpCode(200),
    ApiOperation({ summary: exampleNeeds === undefined ? summary : `${summary} ${exampleNeedsText(exampleNeeds)}`, description }),
    ...params.map((param) => ApiParam(param)),
    ...headers.map((header) => ApiHeader(header)),
    ...(body ? [ApiBody(body)] : []),
    ...(otherBodyMediaTypes ? [ApiExtension(OTHER_BODY_MEDIA_TYPES, otherBodyMediaTypes)] : []),
    ...(oversizedBodyIgnored ? [ApiExtension(OVERSIZED_BODY_IGNORED, true)] : []),
    ...(produces ? [ApiProduces(produces)] : []),
    answerDecorator(answers),
    ...(errors ? [ApiRouteErrors(errors)] : []),
  );
}

/** An admin route's documentation and the role it needs: `viewer` reads, `editor` writes, `publisher` changes statuses and restores. */
export type AdminEndpointDoc = EndpointDoc & { role: AdminRole };

export function AdminEndpoint({ role, ...doc }: AdminEndpointDoc): MethodDecorator {
  return applyDecorators(RequiresRole(role), Endpoint(doc));
}

/** Moves each operation's `otherBodyMediaTypes` into its request body, after the JSON one. Applied to the built document. */
export function withOtherBodyMediaTypes(document: OpenAPIObject): OpenAPIObject {
  for (const operations of Object.values(document.paths)) {
    for (const operation of Object.values(operations)) {
      if (!operation || typeof operation !== 'object' || !(OTHER_BODY_MEDIA_TYPES in operation)) continue;
      const { requestBody } = operation as OperationObject;
      if (requestBody && 'content' in requestBody) Object.assign(requestBody.content, operation[OTHER_BODY_MEDIA_TYPES]);
      delete operation[OTHER_BODY_MEDIA_TYPES];
    }
  }
  return document;
}
