import { ctaIdString, parseCtaIdValue, reportedCtaId } from './cta-id';

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

describe('parseCtaIdValue', () => {
  it('answers the id as a number, or null', () => {
    expect(parseCtaIdValue('012')).toBe(12);
    expect(parseCtaIdValue(999_999_999_999_999)).toBe(999_999_999_999_999);
    expect(parseCtaIdValue('0')).toBeNull();
    expect(parseCtaIdValue('1000000000000000')).toBeNull();
  });
});

describe('reportedCtaId', () => {
  it.each([
    [12, '12'],
    ['012', '12'],
    [0, '0'],
    ['0', '0'],
    [Number.MAX_SAFE_INTEGER, '9007199254740991'],
    ['9999999999999999999', '9999999999999999999'],
    ['0000000000000000012', '12'],
  ])('reads %p as %p: wider than an admin id, as devices report ids', (value, expected) => {
    expect(reportedCtaId(value)).toBe(expected);
  });

  it.each([-1, '-1', 1.5, '1.5', '1e3', ' 12', '', 2 ** 53, '10000000000000000000', null, true, [12]])('rejects %p', (value) => {
    expect(reportedCtaId(value)).toBeNull();
  });
});
