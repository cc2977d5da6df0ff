import { invalidRequest } from './domain-error';

/**
 * App user ids (docs/decisions/0001-wire-rules-and-errors.md): signed 64-bit integers (Java longs on the devices), kept
 * and compared as canonical decimal strings (`042` → `42`, `-0` → `0`). Every parser of a user id
 * reads it here; each answers its own message when this says no.
 */

const DECIMAL_INTEGER = /^-?\d+$/;
/** Leading zeros apart, a signed 64-bit integer has at most 19 digits. */
const MAX_LONG_DIGITS = 19;
const LONG_MIN = -(2n ** 63n);
const LONG_MAX = 2n ** 63n - 1n;
/** Without leading zeros and at most 18 digits: within a long and canonical as it is (most ids; no BigInt needed). */
const PLAIN_LONG = /^(?:-?[1-9]\d{0,17}|0)$/;

/** An optional sign and decimal digits, nothing else (no spaces, no exponent). */
export const isDecimalInteger = (text: string): boolean => DECIMAL_INTEGER.test(text);

/** A decimal integer that fits a signed 64-bit long, as its canonical decimal string; null for anything else. */
export function canonicalUserId(text: string): string | null {
  if (PLAIN_LONG.test(text)) {
    return text;
  }
  if (!isDecimalInteger(text)) {
    return null;
  }
  // Longer numbers are refused before BigInt parses them: a header may hold kilobytes of digits.
  const long = text.replace(/^-?0*/, '').length > MAX_LONG_DIGITS ? null : BigInt(text);
  return long === null || long < LONG_MIN || long > LONG_MAX ? null : long.toString();
}

/**
 * A user id from JSON or a token claim: an integer within 2^53 (JSON numbers beyond it arrive
 * rounded, so such ids must come as decimal strings), a decimal string or a bigint fitting a long.
 */
export function userIdValue(value: unknown): string | null {
  if (typeof value === 'number') {
    return Number.isSafeInteger(value) ? String(value) : null;
  }
  if (typeof value === 'string' || typeof value === 'bigint') {
    return canonicalUserId(String(value));
  }
  return null;
}

/** A user id in a path (`/cohorts/{name}/members/{userId}`, `/app-users/{userId}`), canonical; else 400 `INVALID_REQUEST`. */
export function userIdParam(text: string): string {
  const userId = canonicalUserId(text);
  if (userId === null) {
    throw invalidRequest(`userId ${JSON.stringify(text)} is not a signed 64-bit integer`);
  }
  return userId;
}
