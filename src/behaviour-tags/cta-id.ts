import { ValidateBy, ValidationArguments } from 'class-validator';
import { parseCtaIdValue } from '../ctas/cta-id';

/**
 * A CTA id as a client may send it inside a behaviour tag (DESIGN §3: a JSON
 * number or a decimal string) → the string form tags store and answer
 * (`12`, `"12"`, `"012"` → `"12"`); `null` when it is not a CTA id.
 */
export function parseCtaId(value: unknown): string | null {
  const id = parseCtaIdValue(value);
  return id === null ? null : String(id);
}

function listMessage({ property, value }: ValidationArguments): string {
  const offending = Array.isArray(value) ? value.find((id) => parseCtaId(id) === null) : value;
  return `${property} must hold only CTA ids (positive integers, as JSON numbers or decimal strings), not ${JSON.stringify(offending) ?? 'undefined'}`;
}

/** class-validator rule for a list of CTA ids (put `@IsArray()` below it so a non-array fails as such). */
export const IsCtaIdList = (): PropertyDecorator =>
  ValidateBy({
    name: 'isCtaIdList',
    validator: {
      validate: (value: unknown) => Array.isArray(value) && value.every((id) => parseCtaId(id) !== null),
      defaultMessage: listMessage,
    },
  });
