import { calendarDayOf } from './calendar-days';
import { ActiveExposurePolicy, ExposureWindow, isCalendarDay, UNIT_MS } from './exposure-policy';

/**
 * The exposure cap at a launch (docs/exposure-policy.md): the user's actions in the policy's window,
 * across all the tenant's CTAs, against `maxActions`.
 */

/** The cap reached: the actions counted, the limit, and when the window frees a slot (epoch ms). */
export interface ExposureCapReached {
  count: number;
  limit: number;
  freesAt: number;
}

/** The first instant the window counts at `now`: a rolling window's length back, or the calendar day's start. */
export function windowStart(window: ExposureWindow, now: number): number {
  return isCalendarDay(window) ? calendarDayOf(window.calendarDay, now).start : now - window.value * UNIT_MS[window.unit] + 1;
}

/** A user's actions across all the tenant's CTAs, as the cap reads them. */
export interface UserActionTimes {
  /** How many actions were done `since` or later, each once. */
  countSince(since: number): number;
  /** Their times, newest first, one per action. */
  timesSince(since: number): readonly number[];
}

/**
 * Whether the user's actions in the window reach the cap; null when they do not. Under the cap (nearly
 * every launch) only their count is taken. A slot frees when the count falls below the limit: a rolling
 * window when its `maxActions`-th newest action leaves it, a calendar day when the next day starts.
 */
export function exposureCapOf(policy: ActiveExposurePolicy, actions: UserActionTimes, now: number): ExposureCapReached | null {
  const { maxActions: limit, window } = policy;
  const since = windowStart(window, now);
  const count = actions.countSince(since);
  if (count < limit) {
    return null;
  }
  const freesAt = isCalendarDay(window)
    ? calendarDayOf(window.calendarDay, now).end
    : actions.timesSince(since)[limit - 1] + window.value * UNIT_MS[window.unit];
  return { count, limit, freesAt };
}
