import { expectDomainError } from '../../test/expect-thrown';
import { ErrorCode } from '../common/error-code';
import { exposureCapOf, UserActionTimes, windowStart } from './exposure-cap';
import { exposurePolicyOf } from './exposure-policy';

describe('exposurePolicyOf', () => {
  it('takes a rolling window, a calendar day, and off (with or without a window)', () => {
    expect(exposurePolicyOf({ maxActions: 3, window: { unit: 'hours', value: 24 } })).toEqual({
      maxActions: 3,
      window: { value: 24, unit: 'hours' },
    });
    expect(exposurePolicyOf({ maxActions: 1000, window: { calendarDay: 'Asia/Kolkata' } })).toEqual({
      maxActions: 1000,
      window: { calendarDay: 'Asia/Kolkata' },
    });
    expect(exposurePolicyOf({ maxActions: null })).toEqual({ maxActions: null, window: null });
    expect(exposurePolicyOf({ maxActions: null, window: { value: 1, unit: 'days' } })).toEqual({
      maxActions: null,
      window: { value: 1, unit: 'days' },
    });
  });

  it.each<[string, unknown, string]>([
    ['no object', [], 'the body must be a JSON object'],
    ['maxActions missing', {}, 'maxActions must be an integer from 1 to 1000, or null (no cap), not missing'],
    [
      'maxActions out of range and no window',
      { maxActions: 1001 },
      'maxActions must be an integer from 1 to 1000, or null (no cap), not 1001; window is required when maxActions is set',
    ],
    [
      'maxActions a string',
      { maxActions: '2', window: { calendarDay: 'UTC' } },
      'maxActions must be an integer from 1 to 1000, or null (no cap), not "2"',
    ],
    ['a number without window', { maxActions: 2 }, 'window is required when maxActions is set'],
    [
      'a bad unit and value',
      { maxActions: 2, window: { value: 0, unit: 'weeks' } },
      'window.unit must be one of minutes, hours, days, not "weeks"; window.value must be an integer of at least 1 (at most a year), not 0',
    ],
    [
      'a window too long',
      { maxActions: 2, window: { value: 366, unit: 'days' } },
      'window.value must be an integer from 1 to 365 (days), not 366',
    ],
    [
      'a bad zone',
      { maxActions: 2, window: { calendarDay: 'Mars/Olympus' } },
      'window.calendarDay must be an IANA time zone such as "Asia/Kolkata", not "Mars/Olympus"',
    ],
    [
      'both kinds of window',
      { maxActions: 2, window: { calendarDay: 'UTC', unit: 'days' } },
      'window.unit is not a field of the exposure policy',
    ],
    ['an unknown field', { maxActions: null, perCta: 1 }, 'perCta is not a field of the exposure policy'],
    [
      'a window of another type',
      { maxActions: 2, window: 'daily' },
      'window must be an object: {"value": n, "unit": "minutes" | "hours" | "days"} or {"calendarDay": "<IANA time zone>"}',
    ],
  ])('refuses %s, naming each bad field', (_case, body, message) => {
    expect(expectDomainError(() => exposurePolicyOf(body), ErrorCode.INVALID_REQUEST).message).toBe(message);
  });
});

describe('exposureCapOf', () => {
  const HOUR = 3_600_000;
  /** Distinct action times, newest first. */
  const actions = (times: number[]): UserActionTimes => ({
    countSince: (since) => times.filter((at) => at >= since).length,
    timesSince: (since) => times.filter((at) => at >= since),
  });
  const now = Date.parse('2026-11-28T12:00:00Z');

  it('counts a rolling window back from now, and frees a slot when the maxActions-th newest action leaves it', () => {
    const policy = { maxActions: 2, window: { value: 24, unit: 'hours' as const } };
    expect(windowStart(policy.window, now)).toBe(now - 24 * HOUR + 1);
    expect(exposureCapOf(policy, actions([now - HOUR]), now)).toBeNull();
    expect(exposureCapOf(policy, actions([now - HOUR, now - 3 * HOUR, now - 5 * HOUR, now - 25 * HOUR]), now)).toEqual({
      count: 3,
      limit: 2,
      freesAt: now - 3 * HOUR + 24 * HOUR,
    });
  });

  it('counts a calendar day from its start, and frees a slot when the next day starts there', () => {
    const policy = { maxActions: 2, window: { calendarDay: 'Asia/Kolkata' } };
    const start = Date.parse('2026-11-27T18:30:00Z');
    expect(windowStart(policy.window, now)).toBe(start);
    expect(exposureCapOf(policy, actions([now - HOUR, start, start - 1]), now)).toEqual({ count: 2, limit: 2, freesAt: start + 24 * HOUR });
  });
});
