import { BodyProblems, isJsonObject } from '../common/validation';
import { ErrorCode } from '../common/error-code';
import { isTimeZone } from './calendar-days';

/**
 * A tenant's exposure policy (docs/exposure-policy.md): at most `maxActions` actions of a user in the
 * window, across all the tenant's CTAs; `maxActions` null is off (the default).
 */
export const WINDOW_UNITS = ['minutes', 'hours', 'days'] as const;
export type WindowUnit = (typeof WINDOW_UNITS)[number];

export interface RollingWindow {
  value: number;
  unit: WindowUnit;
}

/** The calendar day in an IANA time zone (DST-correct: a day of 23 or 25 hours is one day). */
export interface CalendarDayWindow {
  calendarDay: string;
}

export type ExposureWindow = RollingWindow | CalendarDayWindow;

export interface ExposurePolicy {
  maxActions: number | null;
  window: ExposureWindow | null;
}

/** A policy that caps: what the launch enforces. */
export interface ActiveExposurePolicy {
  maxActions: number;
  window: ExposureWindow;
}

export const NO_EXPOSURE_POLICY: ExposurePolicy = { maxActions: null, window: null };
export const MAX_ACTIONS_LIMIT = 1000;

/** The longest window, per unit: a year. */
export const MAX_WINDOW_VALUE: Record<WindowUnit, number> = { minutes: 525_600, hours: 8_760, days: 365 };
export const UNIT_MS: Record<WindowUnit, number> = { minutes: 60_000, hours: 3_600_000, days: 86_400_000 };

export const isCalendarDay = (window: ExposureWindow): window is CalendarDayWindow => 'calendarDay' in window;

/** The policy the launch enforces, or null when it is off. */
export const activePolicy = (policy: ExposurePolicy): ActiveExposurePolicy | null =>
  policy.maxActions === null || policy.window === null ? null : { maxActions: policy.maxActions, window: policy.window };

const POLICY_KEYS = ['maxActions', 'window'];
const ROLLING_KEYS = ['value', 'unit'];
const isWholeNumber = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value);
const unknownKeys = (body: Record<string, unknown>, known: string[], path: string): string[] =>
  Object.keys(body)
    .filter((key) => !known.includes(key))
    .map((key) => `${path}${key} is not a field of the exposure policy`);

function windowProblems(window: unknown): string[] {
  if (!isJsonObject(window)) {
    return ['window must be an object: {"value": n, "unit": "minutes" | "hours" | "days"} or {"calendarDay": "<IANA time zone>"}'];
  }
  if ('calendarDay' in window) {
    const problems = unknownKeys(window, ['calendarDay'], 'window.');
    const zone = window.calendarDay;
    if (typeof zone !== 'string' || !isTimeZone(zone)) {
      problems.push(`window.calendarDay must be an IANA time zone such as "Asia/Kolkata", not ${JSON.stringify(zone)}`);
    }
    return problems;
  }
  const problems = unknownKeys(window, ROLLING_KEYS, 'window.');
  const { value, unit } = window;
  const knownUnit = WINDOW_UNITS.find((name) => name === unit);
  if (knownUnit === undefined) {
    problems.push(`window.unit must be one of ${WINDOW_UNITS.join(', ')}, not ${JSON.stringify(unit)}`);
  }
  const limit = knownUnit === undefined ? MAX_WINDOW_VALUE.minutes : MAX_WINDOW_VALUE[knownUnit];
  if (!isWholeNumber(value) || value < 1 || value > limit) {
    const range = knownUnit === undefined ? 'an integer of at least 1 (at most a year)' : `an integer from 1 to ${limit} (${knownUnit})`;
    problems.push(`window.value must be ${range}, not ${JSON.stringify(value)}`);
  }
  return problems;
}

/**
 * The policy a `PUT /exposure-policy` body sets; every problem named in one 400 `INVALID_REQUEST`.
 * `maxActions` is required (null turns the cap off); a window is required with a number, optional with null.
 */
export function exposurePolicyOf(body: unknown): ExposurePolicy {
  if (!isJsonObject(body)) {
    throw new BodyProblems(ErrorCode.INVALID_REQUEST, ['the body must be a JSON object']);
  }
  const problems = unknownKeys(body, POLICY_KEYS, '');
  const { maxActions, window } = body;
  if (maxActions !== null && (!isWholeNumber(maxActions) || maxActions < 1 || maxActions > MAX_ACTIONS_LIMIT)) {
    problems.push(
      `maxActions must be an integer from 1 to ${MAX_ACTIONS_LIMIT}, or null (no cap), not ${maxActions === undefined ? 'missing' : JSON.stringify(maxActions)}`,
    );
  }
  if (window === undefined || window === null) {
    if (isWholeNumber(maxActions)) problems.push('window is required when maxActions is set');
  } else {
    problems.push(...windowProblems(window));
  }
  if (problems.length > 0) {
    throw new BodyProblems(ErrorCode.INVALID_REQUEST, problems);
  }
  return {
    maxActions: maxActions as number | null,
    window: window === undefined || window === null ? null : copyWindow(window as ExposureWindow),
  };
}

/** Only the window's own fields, in a fixed order. */
const copyWindow = (window: ExposureWindow): ExposureWindow =>
  isCalendarDay(window) ? { calendarDay: window.calendarDay } : { value: window.value, unit: window.unit };
