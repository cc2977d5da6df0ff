import { Body, Query, ValidationError, ValidationPipe } from '@nestjs/common';
import { DomainError } from './domain-error';
import { ErrorCode } from './error-code';

/** "rule.frequency.session.limit must be an integer number" — the first failure, with its full path. */
export function describeValidationErrors(errors: ValidationError[], parentPath = ''): string {
  for (const error of errors) {
    const path = parentPath ? `${parentPath}.${error.property}` : error.property;
    const constraints = Object.values(error.constraints ?? {});
    if (constraints.length > 0) {
      // class-validator words each constraint with the bare property name; replace it with the path.
      return constraints[0].startsWith(`${error.property} `)
        ? `${path}${constraints[0].slice(error.property.length)}`
        : `${path}: ${constraints[0]}`;
    }
    const nested = describeValidationErrors(error.children ?? [], path);
    if (nested) {
      return nested;
    }
  }
  return '';
}

const pipes = new Map<ErrorCode, ValidationPipe>();

/**
 * A strict ValidationPipe whose failures carry `code` (DESIGN §4 names a code per endpoint).
 * No implicit conversion: `"5"` is not an integer and `"true"` is not a boolean (DESIGN §3).
 */
export function validationPipe(code: ErrorCode = ErrorCode.INVALID_REQUEST): ValidationPipe {
  let pipe = pipes.get(code);
  if (!pipe) {
    pipe = new ValidationPipe({
      transform: true,
      transformOptions: { enableImplicitConversion: false },
      whitelist: false,
      forbidUnknownValues: true,
      validationError: { target: false, value: false },
      exceptionFactory: (errors) => new DomainError(code, describeValidationErrors(errors) || 'invalid request body'),
    });
    pipes.set(code, pipe);
  }
  return pipe;
}

/** `@Body()` validated against its DTO; failures answer 400 with `code`. */
export const ValidBody = (code: ErrorCode = ErrorCode.INVALID_REQUEST): ParameterDecorator => Body(validationPipe(code));

/** `@Query()` validated against its DTO; failures answer 400 with `code`. */
export const ValidQuery = (code: ErrorCode = ErrorCode.INVALID_REQUEST): ParameterDecorator =>
  Query(validationPipe(code));
