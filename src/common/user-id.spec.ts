import { canonicalUserId, isDecimalInteger, userIdValue } from './user-id';

describe('canonicalUserId', () => {
  it.each([
    ['042', '42'],
    ['-0042', '-42'],
    ['-0', '0'],
    ['9223372036854775807', '9223372036854775807'],
    ['-9223372036854775808', '-9223372036854775808'],
  ])('reads %s as %s', (value, canonical) => {
    expect(canonicalUserId(value)).toBe(canonical);
  });

  it.each(['9223372036854775808', '-9223372036854775809', 'user-123', '4.2', ' 42', '', '1'.repeat(5000)])(
    'answers null for %p',
    (value) => {
      expect(canonicalUserId(value)).toBeNull();
    },
  );
});

describe('isDecimalInteger', () => {
  it('takes an optional minus and digits only', () => {
    expect(['0', '-12', '007'].every(isDecimalInteger)).toBe(true);
    expect(['', '-', '+1', '1e3', '4.2', ' 1', '1 '].some(isDecimalInteger)).toBe(false);
  });
});

describe('userIdValue', () => {
  it.each<[unknown, string]>([
    [7, '7'],
    [-0, '0'],
    [Number.MAX_SAFE_INTEGER, '9007199254740991'],
    ['007', '7'],
    ['-0', '0'],
    ['9223372036854775807', '9223372036854775807'],
    [2n ** 63n - 1n, '9223372036854775807'],
  ])('reads %p as %p', (value, id) => {
    expect(userIdValue(value)).toBe(id);
  });

  it.each([1.5, 2 ** 53, '9223372036854775808', 2n ** 63n, ' 1', '', null, undefined, true, {}, [1]])('answers null for %p', (value) => {
    expect(userIdValue(value)).toBeNull();
  });
});
