import { ArgumentMetadata, Body, Query, ValidationError, ValidationPipe } from '@nestjs/common';
import { DomainError } from './domain-error';
import { ErrorCode } from './error-code';
import { fieldProblemsText, validationProblems } from './problems';

/**
 * "name must be a string; tags must be an array; rule is required": every problem of a body, in one message
 * (docs/decisions/0014-admin-console.md).
 */
export const describeValidationErrors = (errors: readonly ValidationError[]): string => fieldProblemsText(validationProblems(errors));

export const isJsonObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A strict ValidationPipe whose failures carry `code` (docs/decisions/0001-wire-rules-and-errors.md names a code per endpoint).
 * No implicit conversion: `"5"` is not an integer and `"true"` is not a boolean (docs/decisions/0001-wire-rules-and-errors.md).
 * Values are kept in the errors (never sent) to tell a missing field from a wrong one.
 */
class StrictValidationPipe extends ValidationPipe {
  constructor(private readonly code: ErrorCode) {
    super({
      transform: true,
      transformOptions: { enableImplicitConversion: false },
      whitelist: false,
      forbidUnknownValues: true,
      validationError: { target: false, value: true },
      exceptionFactory: (errors) => new DomainError(code, describeValidationErrors(errors) || 'invalid request body'),
    });
  }

  /** A body that is no object at all (`[]`, `"x"`, `null`) is one problem, not one per missing field; no body lists the fields. */
  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (metadata.type === 'body' && value !== undefined && !isJsonObject(value)) {
      throw new DomainError(this.code, 'the body must be a JSON object');
    }
    return super.transform(value, metadata);
  }
}

const pipes = new Map<ErrorCode, ValidationPipe>();

export function validationPipe(code: ErrorCode = ErrorCode.INVALID_REQUEST): ValidationPipe {
  let pipe = pipes.get(code);
  if (!pipe) {
    pipe = new StrictValidationPipe(code);
    pipes.set(code, pipe);
  }
  return pipe;
}

/** `@Body()` validated against its DTO; failures answer 400 with `code`. */
export const ValidBody = (code: ErrorCode = ErrorCode.INVALID_REQUEST): ParameterDecorator => Body(validationPipe(code));

/** `@Query()` validated against its DTO; failures answer 400 with `code`. */
export const ValidQuery = (code: ErrorCode = ErrorCode.INVALID_REQUEST): ParameterDecorator => Query(validationPipe(code));
