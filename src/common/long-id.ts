/** Signed 64-bit integers sent as decimal text (user ids): kept as canonical decimal strings, never rounded through a JS number. */
const DECIMAL_INTEGER = /^-?\d+$/;
/** Leading zeros apart, a signed 64-bit integer has at most 19 digits. */
const MAX_LONG_DIGITS = 19;
const LONG_MIN = -(2n ** 63n);
const LONG_MAX = 2n ** 63n - 1n;

export type LongParse = { value: string } | { problem: 'not-integer' | 'out-of-range' };

/** `'007'` → `'7'`; not a decimal integer, or outside the signed 64-bit range → the problem. */
export function parseLong(text: string): LongParse {
  if (!DECIMAL_INTEGER.test(text)) {
    return { problem: 'not-integer' };
  }
  // Longer numbers are refused before BigInt parses them: a value may hold kilobytes of digits.
  const value = text.replace(/^-?0*/, '').length > MAX_LONG_DIGITS ? null : BigInt(text);
  if (value === null || value < LONG_MIN || value > LONG_MAX) {
    return { problem: 'out-of-range' };
  }
  return { value: value.toString() };
}
