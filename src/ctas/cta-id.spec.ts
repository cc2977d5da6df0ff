import { ctaIdString } from './cta-id';

describe('ctaIdString', () => {
  it.each([
    [12, '12'],
    ['12', '12'],
    ['012', '12'],
    [999_999_999_999_999, '999999999999999'],
    ['000000000000012', '12'],
  ])('reads %p as %p', (value, expected) => {
    expect(ctaIdString(value)).toBe(expected);
  });

  it.each([
    0,
    '0',
    -1,
    '-1',
    1.5,
    '1.5',
    '1e3',
    ' 12',
    '12 ',
    '',
    'abc',
    '9007199254740993',
    2 ** 53,
    '1000000000000000',
    1e21,
    NaN,
    null,
    undefined,
    true,
    [12],
    {},
  ])('rejects %p', (value) => {
    expect(ctaIdString(value)).toBeNull();
  });
});
