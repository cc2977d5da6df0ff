import { DomainError } from '../common/domain-error';
import { ErrorCode } from '../common/error-code';

const DECIMAL_LONG = /^-?\d{1,19}$/;
const LONG_MIN = -(2n ** 63n);
const LONG_MAX = 2n ** 63n - 1n;

/**
 * The `userIds` of a test CTA → canonical decimal strings, duplicates removed.
 * Each is a JSON integer within 2^53 (beyond that JSON numbers lose digits, so
 * larger ids must come as strings) or a decimal string fitting a signed 64-bit long.
 */
export function parseTestUserIds(values: unknown[]): string[] {
  const ids = values.map((value, index) => {
    if (typeof value === 'number' && Number.isSafeInteger(value)) {
      return String(value);
    }
    if (typeof value === 'string' && DECIMAL_LONG.test(value)) {
      const id = BigInt(value);
      if (id >= LONG_MIN && id <= LONG_MAX) {
        return id.toString();
      }
    }
    throw new DomainError(
      ErrorCode.CTA_CREATION_ERROR,
      `userIds[${index}] must be a user id: an integer (a decimal string beyond 2^53) that fits a signed 64-bit long`,
    );
  });
  return [...new Set(ids)];
}
