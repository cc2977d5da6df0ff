import { ApiProperty } from '@nestjs/swagger';
import type { ReferenceObject, SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { ErrorCode } from './error-code';

/** The success and error bodies of DESIGN §3/§4; every controller answers through these. */
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

/** Swagger schema of `{"data": <data>}`, with its example. */
export const dataEnvelopeSchema = (data: SchemaObject | ReferenceObject, example: unknown): SchemaObject => ({
  type: 'object',
  required: ['data'],
  properties: { data },
  example: { data: example },
});

/** Swagger schema of `{}`, the answer of writes that return nothing. */
export const EMPTY_ENVELOPE_SCHEMA: SchemaObject = { type: 'object', properties: {}, additionalProperties: false, example: {} };
