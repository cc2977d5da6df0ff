import { applyDecorators } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { IsInt, Max, Min, ValidateBy, ValidationArguments } from 'class-validator';
import { WINDOW_UNITS } from './rule.types';

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

/**
 * Window units. Devices run seconds, minutes, hours and days only (they throw on any other unit). The real admin
 * panel also offers weeks and months: a week has an exact length, so `weeks` is taken and stored as days × 7
 * (`weeksAsDays`); a month has none, so `months` is refused saying so (docs/rule-reference.md).
 */
export const WEEKS = 'weeks';
const DAYS_PER_WEEK = 7;
export const SENDABLE_WINDOW_UNITS: readonly string[] = [...WINDOW_UNITS, WEEKS];

/** Why `unit` is not a window unit that can be stored, in the words of the CTA rule's problems; null when it is one. */
export function windowUnitProblem(unit: unknown): string | null {
  if (SENDABLE_WINDOW_UNITS.includes(unit as string)) return null;
  if (unit === 'months') {
    return '"months" cannot be stored: a month has no fixed length (28 to 31 days), so devices cannot count one; use days (e.g. 30)';
  }
  return `must be one of ${WINDOW_UNITS.join(', ')}, or ${WEEKS} (stored as days × ${DAYS_PER_WEEK})`;
}

/**
 * A window sent in weeks, turned into days in place: the note saying so (the validate endpoint's warning), or why the
 * days would be too many for devices. Null when the window is not in weeks or its value is no exposure limit (that
 * problem is the value's own).
 */
export function weeksAsDays(window: Record<string, unknown>): { note: string } | { problem: string } | null {
  if (window.unit !== WEEKS || exposureLimitProblem(window.value) !== null) return null;
  const weeks = window.value as number;
  const days = weeks * DAYS_PER_WEEK;
  if (days > MAX_EXPOSURE_LIMIT) {
    return { problem: `${weeks} weeks are ${days} days, more than the ${MAX_EXPOSURE_LIMIT} devices can count` };
  }
  window.unit = 'days';
  window.value = days;
  return {
    note: `${weeks} ${weeks === 1 ? 'week is' : 'weeks are'} stored as ${days} days (devices count in seconds, minutes, hours or days)`,
  };
}

/** The unit rule on a DTO field, documented, in the same words (`$property` first). */
export const WindowUnitProperty = (): PropertyDecorator =>
  applyDecorators(
    ApiProperty({
      enum: SENDABLE_WINDOW_UNITS,
      example: 'days',
      description: `\`${WEEKS}\` is stored as days × ${DAYS_PER_WEEK}; months are refused (a month has no fixed length)`,
    }),
    ValidateBy({
      name: 'isWindowUnit',
      validator: {
        validate: (unit: unknown) => windowUnitProblem(unit) === null,
        defaultMessage: (args?: ValidationArguments) => `${args?.property} ${windowUnitProblem(args?.value)}`,
      },
    }),
  );
