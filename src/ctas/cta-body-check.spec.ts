import { examples } from '../../test/fixtures';
import { checkCtaBody, type CtaTimeBounds, timeProblems } from './cta-body-check';

const NOW = 1_800_000_000_000;
const DAY = 86_400_000;
const bounds: CtaTimeBounds = { now: NOW, toleranceMs: 60_000, horizonDays: 30 };
const experiment = { holdoutPercent: 10, goal: { state: 'no-such-state' } };

describe('timeProblems', () => {
  it('takes times within [now - tolerance, now + horizon], end after start', () => {
    expect(timeProblems({ startTime: NOW - 30_000, endTime: NOW + DAY }, bounds)).toEqual([]);
    expect(timeProblems({}, bounds)).toEqual([]);
  });

  it('names a time in the past or too far ahead, and an end before the start', () => {
    const problems = timeProblems({ startTime: NOW - DAY, endTime: NOW + 31 * DAY }, bounds);
    expect(problems.map(({ path }) => path)).toEqual(['startTime', 'endTime']);
    expect(problems[0].message).toMatch(/in the past$/);
    expect(problems[1].message).toMatch(/too far ahead$/);
    expect(timeProblems({ startTime: NOW + 2 * DAY, endTime: NOW + DAY }, bounds)).toEqual([
      { path: 'endTime', message: expect.stringMatching(/^must be after startTime/) },
    ]);
  });

  it('has no lower bound when the past is allowed (a live edit)', () => {
    expect(timeProblems({ startTime: NOW - DAY }, { ...bounds, pastAllowed: true })).toEqual([]);
  });
});

describe('checkCtaBody', () => {
  it('answers the stored rule of a valid body and no problem', () => {
    const check = checkCtaBody({ rule: examples.rule(), startTime: NOW + DAY }, { times: bounds });
    expect(check.rule).toEqual(examples.rule());
    expect(check.problems).toEqual([]);
    expect(check.times).toEqual([]);
  });

  it("names the rule's problems, then the experiment's, with the times apart", () => {
    const check = checkCtaBody({ rule: { ...examples.rule(), priority: 'high' }, experiment, startTime: NOW - DAY }, { times: bounds });
    expect(check.problems.map(({ path }) => path)).toEqual(['rule.priority', expect.stringMatching(/^experiment/)]);
    expect(check.times.map(({ path }) => path)).toEqual(['startTime']);
  });

  it('leaves a rule that is not an object to the fields when they checked it, and names it otherwise', () => {
    expect(checkCtaBody({ rule: 'x' }, { times: null, ruleFieldChecked: true }).problems).toEqual([]);
    expect(checkCtaBody({ rule: 'x' }, { times: null }).problems).toEqual([{ path: 'rule', message: expect.any(String) }]);
  });

  it("checks no times when told so, and no experiment for a test CTA's body", () => {
    const check = checkCtaBody({ rule: examples.rule(), experiment, startTime: NOW - DAY }, { times: null, experiment: false });
    expect(check).toMatchObject({ problems: [], times: [] });
  });

  it("checks a test CTA's rule as one: its cohorts may be left out (every user)", () => {
    const { cohortEligibility: _cohorts, ...rule } = examples.rule();
    expect(checkCtaBody({ rule }, { times: null }).problems.map(({ path }) => path)).toEqual(['rule.cohortEligibility']);
    const check = checkCtaBody({ rule }, { times: null, rule: { testCta: true } });
    expect(check.problems).toEqual([]);
    expect(check.rule?.cohortEligibility).toEqual({ includes: ['all'], excludes: [] });
  });
});
