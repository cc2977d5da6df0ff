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

export const unknownCta = (id: number | string): DomainError =>
  new DomainError(ErrorCode.CTA_ID_INVALID, `CTA ${id} does not exist`);
