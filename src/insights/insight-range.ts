import { invalidRequest } from '../common/domain-error';
import { DAY_MS, dayOf } from './insight-changes';

/** The days an insights read covers, inclusive, as day numbers (0 = 1970-01-01, UTC). */
export interface DayRange {
  from: number;
  to: number;
}

/** A read covers at most this many days: a year, leap day included. */
export const MAX_RANGE_DAYS = 366;
/** Without `from`, the range ends this many days before `to` began, counting both. */
export const DEFAULT_RANGE_DAYS = 30;

export const DAY_PATTERN = /^\d{4}-\d{2}-\d{2}$/;
export const dayFormatMessage = (field: string): string => `${field} must be a UTC day as YYYY-MM-DD, e.g. 2026-03-01`;

/** A day number as YYYY-MM-DD. */
export const dayText = (day: number): string => new Date(day * DAY_MS).toISOString().slice(0, 10);

/** What is wrong with `text` as the day `field` (YYYY-MM-DD, a day of the calendar), or null when nothing is. */
export const utcDayProblem = (field: string, text: unknown): string | null =>
  parseDay(text) === null ? `${dayFormatMessage(field)}, got ${JSON.stringify(text)}` : null;

/** `text` (YYYY-MM-DD, a day of the calendar) as a day number, or null. */
function parseDay(text: unknown): number | null {
  const at = typeof text === 'string' && DAY_PATTERN.test(text) ? Date.parse(`${text}T00:00:00Z`) : Number.NaN;
  return Number.isNaN(at) || dayText(dayOf(at)) !== text ? null : dayOf(at);
}

/**
 * The range of `from` and `to` (YYYY-MM-DD, UTC, inclusive). `to` defaults to `today`, `from` to
 * DEFAULT_RANGE_DAYS days ending on `to`. Malformed days, `from` after `to`, or more than
 * MAX_RANGE_DAYS days → 400 INVALID_REQUEST naming the field (both, when both are malformed).
 */
export function dayRange(query: { from?: unknown; to?: unknown }, today: number): DayRange {
  const given = {
    from: query.from === undefined ? undefined : parseDay(query.from),
    to: query.to === undefined ? undefined : parseDay(query.to),
  };
  const problems = (['from', 'to'] as const).flatMap((field) => (given[field] === null ? [utcDayProblem(field, query[field])] : []));
  if (problems.length > 0) {
    throw invalidRequest(problems.join('; '));
  }
  const to = given.to ?? today;
  const from = given.from ?? to - (DEFAULT_RANGE_DAYS - 1);
  if (from > to) {
    throw invalidRequest(`from (${dayText(from)}) must not be after to (${dayText(to)})`);
  }
  if (to - from + 1 > MAX_RANGE_DAYS) {
    throw invalidRequest(
      `from ${dayText(from)} to ${dayText(to)} spans ${to - from + 1} days; a range spans at most ${MAX_RANGE_DAYS} days`,
    );
  }
  return { from, to };
}

/** The UTC calendar month of a day, as months since January 1970. */
export function monthOf(day: number): number {
  const date = new Date(day * DAY_MS);
  return (date.getUTCFullYear() - 1970) * 12 + date.getUTCMonth();
}

/** The first day of a month (a month number of `monthOf`); `setUTCFullYear` takes years below 100 as they are. */
export const firstDayOf = (month: number): number =>
  dayOf(new Date(0).setUTCFullYear(1970 + Math.floor(month / 12), ((month % 12) + 12) % 12, 1));

/** A range as the whole months it spans (none: `fromMonth` > `toMonth`) and the days outside them, at most two runs. */
export interface MonthsAndDays {
  fromMonth: number;
  toMonth: number;
  days: DayRange[];
}

export function monthsAndDays({ from, to }: DayRange): MonthsAndDays {
  const fromMonth = firstDayOf(monthOf(from)) === from ? monthOf(from) : monthOf(from) + 1;
  const toMonth = firstDayOf(monthOf(to) + 1) === to + 1 ? monthOf(to) : monthOf(to) - 1;
  if (fromMonth > toMonth) {
    return { fromMonth, toMonth, days: [{ from, to }] };
  }
  const days = [
    { from, to: firstDayOf(fromMonth) - 1 },
    { from: firstDayOf(toMonth + 1), to },
  ].filter((run) => run.from <= run.to);
  return { fromMonth, toMonth, days };
}
