import { applyDecorators, Type } from '@nestjs/common';
import { ApiExtraModels, ApiOkResponse, ApiProperty, getSchemaPath } from '@nestjs/swagger';
import type { ReferenceObject, SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { ErrorCode } from './error-code';

/** The success and error bodies of docs/decisions/0001-wire-rules-and-errors.md; every controller answers through these. */
export interface DataEnvelope<T> {
  data: T;
}
export type EmptyEnvelope = Record<string, never>;
export interface EventEnvelope<T> {
  success: true;
  data: T;
  statusCode: 200;
}
export interface ErrorEnvelope {
  error: { message: string; code: string };
}

export const dataEnvelope = <T>(data: T): DataEnvelope<T> => ({ data });
export const emptyEnvelope = (): EmptyEnvelope => ({});
export const eventEnvelope = <T>(data: T): EventEnvelope<T> => ({ success: true, data, statusCode: 200 });
export const errorEnvelope = (code: ErrorCode, message: string): ErrorEnvelope => ({ error: { message, code } });

class ErrorBody {
  @ApiProperty({ example: 'name must be a string' })
  message: string;

  @ApiProperty({ enum: ErrorCode, example: ErrorCode.INVALID_REQUEST })
  code: ErrorCode;
}

/** Swagger schema of the error envelope. */
export class ErrorEnvelopeDto implements ErrorEnvelope {
  @ApiProperty({ type: ErrorBody })
  error: ErrorBody;
}

/** The 200 of an envelope: its description, the example of `data`, and optionally named examples of the whole answer. */
export interface EnvelopeResponse {
  description: string;
  example: unknown;
  examples?: Record<string, { summary?: string; value: unknown }>;
  /** `data` may be null (e.g. a read of something absent). */
  nullable?: boolean;
}

/** What an envelope carries: a response DTO class, or a schema for scalars and null. */
export type EnvelopeData = Type<unknown> | SchemaObject | ReferenceObject;

const isModel = (data: EnvelopeData): data is Type<unknown> => typeof data === 'function';

function dataSchema(data: EnvelopeData, nullable: boolean | undefined): SchemaObject | ReferenceObject {
  if (!isModel(data)) return data;
  const ref = { $ref: getSchemaPath(data) };
  // A $ref takes no siblings in OpenAPI 3.0: nullable (with the type it needs) goes beside a one-model allOf.
  return nullable ? { type: 'object', nullable: true, allOf: [ref] } : ref;
}

/** One 200 decorator per envelope shape: registers the model and documents `wrap(data)` with its examples. */
const envelopeResponse =
  (wrap: (data: SchemaObject | ReferenceObject, example: unknown) => SchemaObject) =>
  (data: EnvelopeData, { description, example, examples, nullable }: EnvelopeResponse): MethodDecorator =>
    applyDecorators(
      ...(isModel(data) ? [ApiExtraModels(data)] : []),
      ApiOkResponse({ description, schema: wrap(dataSchema(data, nullable), example), ...(examples && { examples }) }),
    );

/** A 200 answering `{"data": <data>}`. */
export const ApiDataResponse = envelopeResponse((data, example) => ({
  type: 'object',
  required: ['data'],
  properties: { data },
  example: { data: example },
}));

/** A 200 answering `{"success": true, "data": <data>, "statusCode": 200}` (event definitions). */
export const ApiEventResponse = envelopeResponse((data, example) => ({
  type: 'object',
  required: ['success', 'data', 'statusCode'],
  properties: { success: { type: 'boolean', enum: [true] }, data, statusCode: { type: 'integer', enum: [200] } },
  example: eventEnvelope(example),
}));

/** The `data` of writes that answer `{"data": null}`. */
export const NULL_DATA: SchemaObject = { type: 'object', nullable: true };

/** A 200 answering `{}`, the answer of writes that return nothing. */
export const ApiEmptyResponse = (description: string): MethodDecorator =>
  ApiOkResponse({ description, schema: { type: 'object', properties: {}, additionalProperties: false, example: emptyEnvelope() } });
