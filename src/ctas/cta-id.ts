import { ValidateBy, ValidationArguments } from 'class-validator';
import { DomainError } from '../common/domain-error';
import { ErrorCode } from '../common/error-code';

const CTA_ID = /^\d{1,15}$/;

/**
 * A CTA id from a path or body: a positive decimal integer (string or JSON number).
 * Anything else is `null`; callers decide what that means.
 */
export function parseCtaIdValue(value: unknown): number | null {
  const text = typeof value === 'number' ? String(value) : value;
  if (typeof text !== 'string' || !CTA_ID.test(text)) {
    return null;
  }
  const id = Number(text);
  return id > 0 ? id : null;
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
 * A CTA id as clients send it inside behaviour tags and SDK bodies (DESIGN §3: a
 * JSON number or a decimal string) → the string form those payloads carry
 * (`12`, `"12"`, `"012"` → `"12"`); `null` when it is not a CTA id.
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
