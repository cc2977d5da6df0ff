import type { ArmsCounts } from './experiment-changes';
import type { InsightChange } from './insight-changes';
import { CountsByCta, type CtaCounts } from './insight-counts';

/**
 * A user's pending insights (docs/decisions/0018-campaign-insights.md): what the writes of the user's
 * state counted since the fold last took them, added up per CTA. The text lives in the user's own
 * state row and is written by the same conditional statement as the document, so a write that is
 * refused, rolled back or loses its version check counts nothing, and merges of different users
 * never write a shared row. Its size follows the days and states counted, not the number of writes.
 */

/** One CTA's pending counts, parts left out when empty. */
interface PendingCounts {
  /** `[day, actions, resets, newUsers]`, by day. */
  d?: [number, number, number, number][];
  u?: number;
  /** `[state, machines]`, by state. */
  s?: [string, number][];
  /** The experiment's counts per arm. */
  x?: ArmsCounts;
}

/** The longest state name counted as it is (the key column's length); a longer one counts under its first this many characters. */
export const MAX_STATE_NAME_LENGTH = 255;

const stateKey = (name: string): string =>
  name.length <= MAX_STATE_NAME_LENGTH ? name : [...name].slice(0, MAX_STATE_NAME_LENGTH).join('');

const byKey = <K extends number | string>([a]: [K, ...unknown[]], [b]: [K, ...unknown[]]): number => (a < b ? -1 : a > b ? 1 : 0);

function pendingCounts(counts: CtaCounts): PendingCounts | null {
  const pending: PendingCounts = {};
  const days = [...counts.days].map(([day, [actions, resets, newUsers]]): [number, number, number, number] => [
    day,
    actions,
    resets,
    newUsers,
  ]);
  const states = [...counts.states].filter(([, machines]) => machines !== 0);
  if (days.length > 0) pending.d = days.sort(byKey);
  if (counts.users !== 0) pending.u = counts.users;
  if (states.length > 0) pending.s = states.sort(byKey);
  if (counts.arms.some((arm) => arm.some((count) => count !== 0))) pending.x = counts.arms;
  return pending.d || pending.u || pending.s || pending.x ? pending : null;
}

/** Each CTA's pending changes in `text`. */
export function readPending(text: string): InsightChange[] {
  return (JSON.parse(text) as [string, PendingCounts][]).map(([ctaId, counts]) => ({
    ctaId,
    days: counts.d ?? [],
    users: counts.u ?? 0,
    states: counts.s ?? [],
    ...(counts.x ? { arms: counts.x } : {}),
  }));
}

/** `pending` (null: none) with `changes` added: the text to store, or null when nothing is left pending. */
export function addToPending(pending: string | null, changes: readonly InsightChange[]): string | null {
  if (changes.length === 0) {
    return pending;
  }
  const byCta = new CountsByCta<string>();
  const add = (change: InsightChange): void => {
    const longName = change.states.some(([state]) => state.length > MAX_STATE_NAME_LENGTH);
    byCta
      .of(change.ctaId)
      .add(longName ? { ...change, states: change.states.map(([state, machines]) => [stateKey(state), machines]) } : change);
  };
  if (pending !== null) readPending(pending).forEach(add);
  changes.forEach(add);
  const entries: [string, PendingCounts][] = [];
  for (const [ctaId, counts] of byCta) {
    const kept = pendingCounts(counts);
    if (kept) entries.push([ctaId, kept]);
  }
  return entries.length > 0 ? JSON.stringify(entries) : null;
}
