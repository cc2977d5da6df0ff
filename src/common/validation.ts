import { ArgumentMetadata, Body, PipeTransform, Query, ValidationPipe } from '@nestjs/common';
import { ClassConstructor, plainToInstance } from 'class-transformer';
import { DomainError } from './domain-error';
import { ErrorCode } from './error-code';
import { withoutKeys } from './json-values';
import { fieldProblemSentence, joinProblemTexts, validationProblems } from './problems';

/**
 * A refused body: every problem, in one message ("name must be a string; tags must be an array; rule is
 * required", docs/decisions/0014-admin-console.md), each kept as the message shows it so that a pipe can add more.
 */
export class BodyProblems extends DomainError {
  constructor(
    code: ErrorCode,
    readonly texts: readonly string[],
  ) {
    super(code, joinProblemTexts(texts));
  }
}

export const isJsonObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Per DTO class, its own properties marked `@JsonDocument()`. */
const documentProperties = new Map<object, string[]>();

/**
 * Marks a DTO property that holds a free-form JSON document (a rule) checked by its own code, not by
 * class-validator. When it is an object, the body pipe and `toDto` validate the rest of the body
 * with `{}` in its place, then put the document back without the keys class-transformer's copy would
 * leave out (`TRANSFORMED_AWAY`): its deep copy of a document of a megabyte, key by key through its
 * metadata, took longer than the rest of the request (docs/benchmarks.md). Only for properties whose
 * decorators judge `{}` as they judge any object (`@IsObject()`, or none).
 */
export const JsonDocument = (): PropertyDecorator => (target, key) => {
  documentProperties.set(target.constructor, [...(documentProperties.get(target.constructor) ?? []), String(key)]);
};

/** The `@JsonDocument()` properties of `metatype` (and the classes it extends) that hold an object in `body`. */
function documentsIn(metatype: unknown, body: Record<string, unknown>): string[] {
  const keys: string[] = [];
  for (let type = metatype; typeof type === 'function' && type !== Function.prototype; type = Object.getPrototypeOf(type)) {
    keys.push(...(documentProperties.get(type) ?? []).filter((key) => isJsonObject(body[key])));
  }
  return keys;
}

/**
 * The keys class-transformer leaves out of the plain objects it copies: Object.prototype's own names
 * (`constructor`, `__proto__`, `toString`, …), which it takes for methods of the copy.
 */
const TRANSFORMED_AWAY: ReadonlySet<string> = new Set(Object.getOwnPropertyNames(Object.prototype));
/** And the body pipe's: before the copy, Nest's ValidationPipe deletes `prototype` and `constructor` keys (`stripProtoKeys`). */
const VALIDATED_AWAY: ReadonlySet<string> = new Set([...TRANSFORMED_AWAY, 'prototype']);

/** `body` with `{}` for each of its `documents`: what class-transformer and class-validator are given instead. */
const withoutDocuments = (body: Record<string, unknown>, documents: string[]): Record<string, unknown> => ({
  ...body,
  ...Object.fromEntries(documents.map((key) => [key, {}])),
});

/**
 * `dto` (made from `withoutDocuments(body, documents)`) with the body's documents as class-transformer's copy
 * would hold them: without the keys it leaves out, deleted in place (as the ValidationPipe strips a body).
 */
function withDocuments<T>(dto: T, body: Record<string, unknown>, documents: string[], leftOut: ReadonlySet<string>): T {
  for (const key of documents) (dto as Record<string, unknown>)[key] = withoutKeys(body[key], leftOut);
  return dto;
}

/** class-transformer's `plainToInstance(metatype, body)`, its `@JsonDocument()` properties copied without it. */
export function toDto<T>(metatype: ClassConstructor<T>, body: Record<string, unknown>): T {
  const documents = documentsIn(metatype, body);
  return withDocuments(plainToInstance(metatype, withoutDocuments(body, documents)), body, documents, TRANSFORMED_AWAY);
}

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
      exceptionFactory: (errors) => {
        const texts = validationProblems(errors).map(fieldProblemSentence);
        return new BodyProblems(code, texts.length > 0 ? texts : ['invalid request body']);
      },
    });
  }

  /** A body that is no object at all (`[]`, `"x"`, `null`) is one problem, not one per missing field; no body lists the fields. */
  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (metadata.type === 'body' && value !== undefined && !isJsonObject(value)) {
      throw new DomainError(this.code, 'the body must be a JSON object');
    }
    const documents = metadata.type === 'body' && isJsonObject(value) ? documentsIn(metadata.metatype, value) : [];
    if (documents.length === 0) {
      return super.transform(value, metadata);
    }
    let dto: unknown;
    try {
      dto = await super.transform(withoutDocuments(value as Record<string, unknown>, documents), metadata);
    } catch (error) {
      // The body as the whole pipe leaves it for the checks of `CheckedBodyPipe` (in place, documents included).
      this.closeArrayGaps(value);
      this.stripProtoKeys(value);
      throw error;
    }
    return withDocuments(dto, value as Record<string, unknown>, documents, VALIDATED_AWAY);
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

/** What else a body breaks beyond its DTO's rules (what its service refuses next), each as the message shows it. */
export type BodyChecks = (body: Record<string, unknown>) => string[];

/**
 * A body validated against its DTO, and, when the DTO refuses it, checked by `checks` too, so that one answer
 * names every problem of the body instead of one kind per round trip (docs/decisions/0014-admin-console.md).
 * A body the DTO takes goes on to the service, which runs the same checks (and those needing the database)
 * and names all their problems at once. The checks look only at fields of the right type (the DTO names the others).
 */
export class CheckedBodyPipe implements PipeTransform {
  constructor(
    protected readonly code: ErrorCode,
    private readonly checks: BodyChecks = () => [],
  ) {}

  async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    try {
      return await validationPipe(this.code).transform(value, metadata);
    } catch (error) {
      if (!(error instanceof BodyProblems) || !isJsonObject(value)) throw error;
      const more = this.moreProblems(value);
      throw more.length > 0 ? new BodyProblems(this.code, [...error.texts, ...more]) : error;
    }
  }

  protected moreProblems(body: Record<string, unknown>): string[] {
    return this.checks(body);
  }
}

/** `@Body()` as CheckedBodyPipe: validated against its DTO, every problem of `checks` named with the DTO's. */
export const CheckedBody = (code: ErrorCode, checks: BodyChecks): ParameterDecorator => Body(new CheckedBodyPipe(code, checks));

/** `@Query()` validated against its DTO; failures answer 400 with `code`. */
export const ValidQuery = (code: ErrorCode = ErrorCode.INVALID_REQUEST): ParameterDecorator => Query(validationPipe(code));
