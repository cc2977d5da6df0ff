import { applyDecorators } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { IsInt, Max, Min } from 'class-validator';

/**
 * Exposure limits (docs/rule-reference.md, docs/decisions/0004-behaviour-tags.md): a CTA's `frequency` and a
 * behaviour tag's `exposureRule` each hold `session.limit`, `window.{limit, unit, value}` and a lifetime limit.
 * Every one of these numbers is a non-negative integer that fits the Java int devices read it into.
 */
export const MAX_EXPOSURE_LIMIT = 2_147_483_647;

/** Why `value` is not an exposure limit, in the words of the CTA rule's problems; null when it is one. */
export function exposureLimitProblem(value: unknown): string | null {
  if (!Number.isSafeInteger(value) || (value as number) < 0) {
    return 'must be a non-negative integer';
  }
  return (value as number) > MAX_EXPOSURE_LIMIT ? `must not be greater than ${MAX_EXPOSURE_LIMIT}` : null;
}

/**
 * The same rule on a DTO field, documented, in class-validator's words. The type check is the
 * last decorator: class-validator reports it first ("must be an integer number" before "must not be less than 0").
 */
export const ExposureLimitProperty = (example: number, description?: string): PropertyDecorator =>
  applyDecorators(
    ApiProperty({ example, minimum: 0, maximum: MAX_EXPOSURE_LIMIT, ...(description === undefined ? {} : { description }) }),
    Max(MAX_EXPOSURE_LIMIT),
    Min(0),
    IsInt(),
  );
