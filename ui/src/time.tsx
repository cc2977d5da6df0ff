/** Times in the browser's zone, the UTC instant on hover (docs/operator-view.md). */

const utc = (ms: number): string => `${new Date(ms).toISOString().replace('T', ' ').slice(0, 19)} UTC`;

export function Time({ ms }: { ms: number | null | undefined }) {
  if (ms === null || ms === undefined) return <span>—</span>;
  return (
    <time dateTime={new Date(ms).toISOString()} title={utc(ms)}>
      {new Date(ms).toLocaleString()}
    </time>
  );
}

/** A UTC day `YYYY-MM-DD`, `offset` days from `day`. */
export function utcDay(day: Date, offset = 0): string {
  return new Date(Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate() + offset)).toISOString().slice(0, 10);
}

/** The days from `from` to `to` inclusive (UTC days). */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;
}

/** Epoch ms of the start (or end) of a local calendar day picked in a date input. */
export function localDayBound(day: string, end: boolean): number | undefined {
  if (day === '') return undefined;
  const [year, month, date] = day.split('-').map(Number);
  return end ? new Date(year, month - 1, date + 1).getTime() - 1 : new Date(year, month - 1, date).getTime();
}
