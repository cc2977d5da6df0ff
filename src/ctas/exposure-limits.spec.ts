import { validate } from 'class-validator';
import { exposureLimitProblem, ExposureLimitProperty, MAX_EXPOSURE_LIMIT } from './exposure-limits';

class Limit {
  @ExposureLimitProperty(1)
  limit: unknown;
}

/** The DTO form's messages for `value`, as class-validator reports them. */
async function dtoProblems(value: unknown): Promise<Record<string, string>> {
  const limit = Object.assign(new Limit(), { limit: value });
  return (await validate(limit))[0]?.constraints ?? {};
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
