import { validate } from 'class-validator';
import {
  exposureLimitProblem,
  ExposureLimitProperty,
  MAX_EXPOSURE_LIMIT,
  weeksAsDays,
  windowUnitProblem,
  WindowUnitProperty,
} from './exposure-limits';

class Limit {
  @ExposureLimitProperty(1)
  limit: unknown;
}

/** The DTO form's messages for `value`, as class-validator reports them. */
async function dtoProblems(value: unknown): Promise<Record<string, string>> {
  const limit = Object.assign(new Limit(), { limit: value });
  return (await validate(limit))[0]?.constraints ?? {};
}

class Window {
  @WindowUnitProperty()
  unit: unknown;
}

describe('exposure limits', () => {
  it('are the non-negative integers that fit a Java int', () => {
    expect(MAX_EXPOSURE_LIMIT).toBe(2 ** 31 - 1);
  });

  it.each([0, 1, MAX_EXPOSURE_LIMIT])('accept %p in both forms', async (value) => {
    expect(exposureLimitProblem(value)).toBeNull();
    expect(await dtoProblems(value)).toEqual({});
  });

  it.each<[unknown, string, Record<string, string>]>([
    [-1, 'must be a non-negative integer', { min: 'limit must not be less than 0' }],
    [1.5, 'must be a non-negative integer', { isInt: 'limit must be an integer number' }],
    ['1', 'must be a non-negative integer', { isInt: 'limit must be an integer number' }],
    [MAX_EXPOSURE_LIMIT + 1, 'must not be greater than 2147483647', { max: 'limit must not be greater than 2147483647' }],
  ])('refuse %p: the rule says %p, the DTO %p', async (value, problem, constraints) => {
    expect(exposureLimitProblem(value)).toBe(problem);
    expect(await dtoProblems(value)).toMatchObject(constraints);
  });
});

describe('window units', () => {
  const dtoProblems = async (unit: unknown): Promise<Record<string, string>> =>
    (await validate(Object.assign(new Window(), { unit })))[0]?.constraints ?? {};

  it.each(['seconds', 'minutes', 'hours', 'days', 'weeks'])('take %p in both forms', async (unit) => {
    expect(windowUnitProblem(unit)).toBeNull();
    expect(await dtoProblems(unit)).toEqual({});
  });

  it.each([
    ['months', '"months" cannot be stored: a month has no fixed length (28 to 31 days), so devices cannot count one; use days (e.g. 30)'],
    ['Days', 'must be one of days, hours, minutes, seconds, or weeks (stored as days × 7)'],
    [undefined, 'must be one of days, hours, minutes, seconds, or weeks (stored as days × 7)'],
  ])('refuse %p saying why, the DTO naming the field', async (unit, problem) => {
    expect(windowUnitProblem(unit)).toBe(problem);
    expect(await dtoProblems(unit)).toEqual({ isWindowUnit: `unit ${problem}` });
  });

  it('turn weeks into days in place, leaving other windows and bad values alone', () => {
    const window: Record<string, unknown> = { limit: 1, unit: 'weeks', value: 1 };
    expect(weeksAsDays(window)).toEqual({ note: '1 week is stored as 7 days (devices count in seconds, minutes, hours or days)' });
    expect(window).toEqual({ limit: 1, unit: 'days', value: 7 });
    expect(weeksAsDays(window)).toBeNull();
    const fractional = { unit: 'weeks', value: 1.5 };
    expect(weeksAsDays(fractional)).toBeNull();
    expect(fractional).toEqual({ unit: 'weeks', value: 1.5 });
  });
});
