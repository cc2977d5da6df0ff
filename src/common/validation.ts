import { ArgumentMetadata, Body, Query, ValidationError, ValidationPipe } from '@nestjs/common';
import { DomainError } from './domain-error';
import { ErrorCode } from './error-code';

/** How many problems one message lists (DESIGN §22); more are counted, not listed. */
export const MAX_LISTED_PROBLEMS = 20;

/** Problems of one request as one message: "a; b; c", the first 20 and a count of the rest. */
export function problemsMessage(problems: readonly string[]): string {
  const listed = problems.slice(0, MAX_LISTED_PROBLEMS).join('; ');
  const more = problems.length - MAX_LISTED_PROBLEMS;
  return more > 0 ? `${listed}; and ${more} more ${more === 1 ? 'problem' : 'problems'}` : listed;
}

/**
 * Constraints that check what kind of value a field holds, most telling first. When one of
 * them fails the field's other constraints fail as a consequence ("must contain no more than
 * 100 elements" for a string, "must be longer than or equal to 1 characters" for a number):
 * only the type is reported.
 */
const TYPE_CONSTRAINTS = ['isString', 'isInt', 'isNumber', 'isBoolean', 'isArray', 'isObject', 'nestedValidation'];

/** A key of a nested DTO, or `[i]` for an array element (the paths of DESIGN §5a). */
const childPath = (parentPath: string, property: string): string =>
  /^\d+$/.test(property) ? `${parentPath}[${property}]` : parentPath ? `${parentPath}.${property}` : property;

/** class-validator words a message with the bare property name ("name must…", "each value in tags must…"): put the path there. */
function withPath(message: string, property: string, path: string): string {
  for (const prefix of [`${property} `, `each value in ${property} `]) {
    if (message.startsWith(prefix)) {
      return `${prefix.replace(property, path)}${message.slice(prefix.length)}`;
    }
  }
  return `${path}: ${message}`;
}

/** The problems of one field: "required" when absent, else its type error alone, else every rule it breaks. */
function fieldProblems(error: ValidationError, path: string): string[] {
  const constraints = error.constraints ?? {};
  if (Object.keys(constraints).length === 0) {
    return [];
  }
  if (error.value === undefined) {
    return [`${path} is required`];
  }
  const typeError = TYPE_CONSTRAINTS.find((name) => constraints[name] !== undefined);
  if (typeError === 'nestedValidation') {
    // Worded "nested property <name> must be either object or array"; nested DTOs are objects here.
    return [`${path} must be an object`];
  }
  const messages = typeError ? [constraints[typeError]] : Object.values(constraints);
  return messages.map((message) => withPath(message, error.property, path));
}

/** Whether a field is absent or not of its type at all (an array's elements are checked one by one, below it). */
const isWhollyWrong = (error: ValidationError): boolean =>
  error.value === undefined ||
  TYPE_CONSTRAINTS.some((name) => error.constraints?.[name] !== undefined && !error.constraints[name].startsWith('each value in '));

/** Every problem class-validator found, each with its full path: "rule must be an object", "events[0].eventName is required". */
function validationProblems(errors: readonly ValidationError[], parentPath = ''): string[] {
  return errors.flatMap((error) => {
    const path = childPath(parentPath, error.property);
    const own = fieldProblems(error, path);
    // The fields inside a value of the wrong type are not worth reporting.
    if (isWhollyWrong(error) && own.length > 0) {
      return own;
    }
    const nested = validationProblems(error.children ?? [], path);
    // "each value in events must be an object" is restated per element by the nested problems ("events[0] must be an object").
    return nested.length > 0 ? [...own.filter((problem) => !problem.startsWith('each value in ')), ...nested] : own;
  });
}

/** "name must be a string; tags must be an array; rule is required" — every problem of a body, in one message. */
export function describeValidationErrors(errors: ValidationError[]): string {
  return problemsMessage(validationProblems(errors));
}

const isJsonObject = (value: unknown): boolean => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A strict ValidationPipe whose failures carry `code` (DESIGN §4 names a code per endpoint).
 * No implicit conversion: `"5"` is not an integer and `"true"` is not a boolean (DESIGN §3).
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
export const ValidQuery = (code: ErrorCode = ErrorCode.INVALID_REQUEST): ParameterDecorator =>
  Query(validationPipe(code));
