import { calendarDayOf, isTimeZone } from './calendar-days';

const HOUR = 3_600_000;
const utc = (iso: string): number => Date.parse(iso);

describe('calendarDayOf', () => {
  it.each([
    ['Asia/Kolkata, evening UTC is the next day there', 'Asia/Kolkata', '2026-11-28T20:00:00Z', '2026-11-28T18:30:00Z', 24],
    ['Asia/Kolkata, before midnight there', 'Asia/Kolkata', '2026-11-28T18:29:59Z', '2026-11-27T18:30:00Z', 24],
    ['UTC', 'UTC', '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z', 24],
    ['New York on the day clocks go forward: 23 hours', 'America/New_York', '2026-03-08T12:00:00Z', '2026-03-08T05:00:00Z', 23],
    ['New York on the day clocks go back: 25 hours', 'America/New_York', '2026-11-01T12:00:00Z', '2026-11-01T04:00:00Z', 25],
    ['Havana, whose clocks skip midnight: the day starts at 01:00', 'America/Havana', '2026-03-08T12:00:00Z', '2026-03-08T05:00:00Z', 23],
    ['Auckland on the day clocks go back', 'Pacific/Auckland', '2026-04-05T00:00:00Z', '2026-04-04T11:00:00Z', 25],
  ])('%s', (_case, zone, at, start, hours) => {
    const day = calendarDayOf(zone, utc(at));
    expect(new Date(day.start).toISOString()).toBe(new Date(utc(start)).toISOString());
    expect((day.end - day.start) / HOUR).toBe(hours);
    expect(day.start).toBeLessThanOrEqual(utc(at));
    expect(day.end).toBeGreaterThan(utc(at));
  });

  it('answers the same day for every instant in it, and the next day from its end', () => {
    const day = calendarDayOf('Asia/Kolkata', utc('2026-11-28T10:00:00Z'));
    expect(calendarDayOf('Asia/Kolkata', day.end - 1)).toEqual(day);
    expect(calendarDayOf('Asia/Kolkata', day.end).start).toBe(day.end);
  });
});

describe('isTimeZone', () => {
  it('knows IANA zones by name and refuses anything else', () => {
    expect(['Asia/Kolkata', 'UTC', 'America/Argentina/Buenos_Aires', 'Etc/GMT+5'].every(isTimeZone)).toBe(true);
    expect(['Mars/Olympus', '+05:30', '', 'Asia/Kolkata ', 'x'.repeat(65)].some(isTimeZone)).toBe(false);
  });
});
