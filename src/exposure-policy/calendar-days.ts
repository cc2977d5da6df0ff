/**
 * Calendar days in IANA time zones, by Node's own Intl (docs/exposure-policy.md): where a day of a
 * zone starts and ends in epoch milliseconds, DST-correct (a day of 23 or 25 hours, or one whose
 * midnight the clocks skip, starts at its first instant).
 */

const DAY_MS = 86_400_000;
/** UTC offsets lie within these bounds, so a day's first instant is within them of its wall-clock midnight. */
const MAX_OFFSET_AHEAD_MS = 14 * 3_600_000;
const MAX_OFFSET_BEHIND_MS = 12 * 3_600_000;

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterOf(zone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(zone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(zone, formatter);
  }
  return formatter;
}

/** Whether Intl knows `zone` as a time zone by name (offsets such as "+05:30" are not IANA zones). */
export function isTimeZone(zone: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9_+/-]*$/.test(zone) || zone.length > 64) return false;
  try {
    formatterOf(zone);
    return true;
  } catch {
    return false;
  }
}

/** The wall-clock time in `zone` at `instant`, as epoch ms of the same reading in UTC (seconds precision). */
function wallClock(zone: string, instant: number): number {
  const parts: Record<string, number> = {};
  for (const { type, value } of formatterOf(zone).formatToParts(instant)) {
    if (type !== 'literal') parts[type] = Number(value);
  }
  return Date.UTC(parts.year, parts.month - 1, parts.day, parts.hour, parts.minute, parts.second);
}

const dateOf = (wall: number): number => Math.floor(wall / DAY_MS);

/**
 * The first instant whose wall-clock date in `zone` is `date` (days since 1970-01-01). At most one
 * offset change lies within a day's bounds; when the clocks skip the midnight, the day starts at the change.
 */
function firstInstantOf(zone: string, date: number): number {
  const midnight = date * DAY_MS;
  let low = midnight - MAX_OFFSET_AHEAD_MS - 1;
  let high = midnight + MAX_OFFSET_BEHIND_MS;
  // Candidates from the offsets at either bound first: exact unless the midnight falls in a gap.
  for (const bound of [low, high]) {
    const candidate = midnight - (wallClock(zone, bound) - Math.floor(bound / 1000) * 1000);
    if (wallClock(zone, candidate) === midnight && dateOf(wallClock(zone, candidate - 1000)) < date) return candidate;
  }
  // The midnight does not exist there: the first instant of the date, to the second.
  while (high - low > 1000) {
    const middle = Math.floor((low + high) / 2000) * 1000;
    if (dateOf(wallClock(zone, middle)) >= date) high = middle;
    else low = middle;
  }
  return high;
}

/** The calendar day of `zone` that `instant` falls on: its first instant, and the next day's. */
export interface CalendarDay {
  start: number;
  end: number;
}

/** The last day asked per zone: a launch asks the same day many times. */
const lastDays = new Map<string, CalendarDay>();

export function calendarDayOf(zone: string, instant: number): CalendarDay {
  const last = lastDays.get(zone);
  if (last && instant >= last.start && instant < last.end) {
    return last;
  }
  const date = dateOf(wallClock(zone, instant));
  const day = { start: firstInstantOf(zone, date), end: firstInstantOf(zone, date + 1) };
  lastDays.set(zone, day);
  return day;
}
