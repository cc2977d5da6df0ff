import { DomainError } from '../common/domain-error';
import { ErrorCode } from '../common/error-code';
import { userIdValue } from '../common/user-id';

/**
 * The `userIds` of a test CTA → canonical decimal strings, duplicates removed.
 * Each is a JSON integer within 2^53 (beyond that JSON numbers lose digits, so
 * larger ids must come as strings) or a decimal string fitting a signed 64-bit long.
 */
export function parseTestUserIds(values: unknown[]): string[] {
  const ids = values.map((value, index) => {
    const id = userIdValue(value);
    if (id !== null) {
      return id;
    }
    throw new DomainError(
      ErrorCode.CTA_CREATION_ERROR,
      `userIds[${index}] must be a user id: an integer (a decimal string beyond 2^53) that fits a signed 64-bit long`,
    );
  });
  return [...new Set(ids)];
}
