import { ValidateBy, ValidationArguments } from 'class-validator';
import { DomainError } from './domain-error';
import { ErrorCode } from './error-code';

/**
 * CTA ids (docs/decisions/0001-wire-rules-and-errors.md): positive integers the database assigns, sent as JSON numbers or decimal
 * strings (leading zeros allowed), carried as numbers in the admin API and as canonical strings
 * (`"012"` → `"12"`) in tags and SDK payloads. Every parser of a CTA id reads it here.
 */

/** Digits of an id the admin API takes, leading zeros included: ids stay exact as JSON numbers (below 2^53). */
const MAX_CTA_ID_DIGITS = 15;
/**
 * Digits of an id a device reports in a snapshot: as many as a Java long has, 0 included. The merge
 * ignores ids the catalogue does not hold, so one odd id never costs a device its whole delta.
 */
const MAX_REPORTED_CTA_ID_DIGITS = 19;

/** A non-negative integer (a safe JSON number, or a string of at most `maxDigits` digits) as its canonical decimal string. */
function decimalId(value: unknown, maxDigits: number): string | null {
  if (typeof value === 'number') {
    return Number.isSafeInteger(value) && value >= 0 && String(value).length <= maxDigits ? String(value) : null;
  }
  if (typeof value === 'string' && value.length <= maxDigits && /^\d+$/.test(value)) {
    return BigInt(value).toString();
  }
  return null;
}

/** A CTA id from an admin path or body. Anything else is `null`; callers decide what that means. */
export function parseCtaIdValue(value: unknown): number | null {
  const text = decimalId(value, MAX_CTA_ID_DIGITS);
  return text === null || text === '0' ? null : Number(text);
}

/** A CTA id as a device reports it in a snapshot (`"12"`, `12`, `"012"` → `"12"`); `null` when it is none. */
export function reportedCtaId(value: unknown): string | null {
  return decimalId(value, MAX_REPORTED_CTA_ID_DIGITS);
}

/** The `{ctaId}` of a path: not a CTA id → 400 CTA_ID_INVALID. */
export function parseCtaId(value: string): number {
  const id = parseCtaIdValue(value);
  if (id === null) {
    throw unknownCta(value);
  }
  return id;
}

export const unknownCta = (id: number | string): DomainError => new DomainError(ErrorCode.CTA_ID_INVALID, `CTA ${id} does not exist`);

/**
 * A CTA id as clients send it inside behaviour tags (a JSON number or a decimal string) → the
 * string form tags carry (`12`, `"12"`, `"012"` → `"12"`); `null` when it is not a CTA id.
 */
export function ctaIdString(value: unknown): string | null {
  const id = parseCtaIdValue(value);
  return id === null ? null : String(id);
}

function listMessage({ property, value }: ValidationArguments): string {
  const offending = Array.isArray(value) ? value.find((id) => ctaIdString(id) === null) : value;
  return `${property} must hold only CTA ids (positive integers, as JSON numbers or decimal strings), not ${JSON.stringify(offending) ?? 'undefined'}`;
}

/** class-validator rule for a list of CTA ids (put `@IsArray()` below it so a non-array fails as such). */
export const IsCtaIdList = (): PropertyDecorator =>
  ValidateBy({
    name: 'isCtaIdList',
    validator: {
      validate: (value: unknown) => Array.isArray(value) && value.every((id) => ctaIdString(id) !== null),
      defaultMessage: listMessage,
    },
  });
