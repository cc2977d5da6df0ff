import type { UserState } from '../sdk/user-state';

/**
 * What one write of a user's state adds to the insights of each CTA (docs/decisions/0018-campaign-insights.md),
 * from the document it replaces and the one it stores: new `actionDoneAt` / `resetAt` entries per UTC
 * day, a user's first action, and the change of the user's machines. Pure and O(n) in the two
 * documents: the merge's work stays proportional to what it already parses.
 */

export const DAY_MS = 86_400_000;

/** The largest |epoch ms| a date has (ECMAScript's time range); an entry past it has no day and is not counted. */
const MAX_DATE_MS = 8_640_000_000_000_000;

/** The UTC day of an epoch-ms time, as a day number (0 = 1970-01-01). */
export const dayOf = (epochMs: number): number => Math.floor(epochMs / DAY_MS);

const hasDay = (epochMs: number): boolean => Math.abs(epochMs) <= MAX_DATE_MS;

/** One CTA's counts from one write: what a pending row holds, and what the fold adds up. */
export interface InsightChange {
  ctaId: string;
  /** `[day, actions, resets, newUsers]` of each day with any, by day. */
  days: [number, number, number, number][];
  /** +1: the user has machines of the CTA now and had none; -1: the reverse; else 0. */
  users: number;
  /** `[currentState, change of the user's machines in it]`, none zero, by state. */
  states: [string, number][];
}

/** What counting needs of one CTA's state before the write. */
interface CtaBefore {
  /** The stored lists themselves: a merge replaces a list it changes, and only removes from one it keeps. */
  actionDoneAt: number[];
  resetAt: number[];
  machinesByState: Map<string, number>;
}

/** The state a write replaces, as counting needs it; taken before the merge changes the parsed document. */
export type InsightBaseline = Map<string, CtaBefore>;

/** What counting reads of a user's state. */
export type UserStateForInsights = Pick<UserState, 'ctas'>;

function machinesByState(machines: Iterable<{ currentState: string }>): Map<string, number> {
  const counts = new Map<string, number>();
  for (const { currentState } of machines) {
    counts.set(currentState, (counts.get(currentState) ?? 0) + 1);
  }
  return counts;
}

export function insightBaseline(state: UserStateForInsights): InsightBaseline {
  const baseline: InsightBaseline = new Map();
  for (const [ctaId, cta] of state.ctas) {
    baseline.set(ctaId, {
      actionDoneAt: cta.actionDoneAt,
      resetAt: cta.resetAt,
      machinesByState: machinesByState(cta.activeStateMachines.values()),
    });
  }
  return baseline;
}

/**
 * The entries of `after` that `before` did not hold: those newer than its newest entry, and of
 * those equal to it, the ones beyond as many as it held. Not a plain set difference: an entry
 * older than the newest one stored has been counted already, or reaches the server only after a
 * newer one, which a device that appends `now` never does; so entries that the caps dropped
 * from the stored list, or that another device's list overwrote, are not counted again when a
 * device re-sends them.
 */
export function newEntries(after: readonly number[], before: readonly number[]): number[] {
  if (after === before) {
    return [];
  }
  let newest = -Infinity;
  let atNewest = 0;
  for (const entry of before) {
    if (entry > newest) {
      newest = entry;
      atNewest = 1;
    } else if (entry === newest) {
      atNewest++;
    }
  }
  const added: number[] = [];
  let seenAtNewest = 0;
  for (const entry of after) {
    if (entry > newest || (entry === newest && ++seenAtNewest > atNewest)) {
      added.push(entry);
    }
  }
  return added;
}

const NO_LIST: number[] = [];
const NO_MACHINES = new Map<string, number>();

/** What the write of `state` over the document of `baseline` adds to the insights of each CTA; CTAs without change are left out. */
export function insightChanges(baseline: InsightBaseline, state: UserStateForInsights): InsightChange[] {
  const changes: InsightChange[] = [];
  const ctaIds = new Set([...baseline.keys(), ...state.ctas.keys()]);
  for (const ctaId of ctaIds) {
    const before = baseline.get(ctaId);
    const after = state.ctas.get(ctaId);
    const days = new Map<number, [number, number, number, number]>();
    const onDay = (day: number): [number, number, number, number] => {
      let counts = days.get(day);
      if (!counts) days.set(day, (counts = [day, 0, 0, 0]));
      return counts;
    };
    const actions = newEntries(after?.actionDoneAt ?? NO_LIST, before?.actionDoneAt ?? NO_LIST).filter(hasDay);
    const resets = newEntries(after?.resetAt ?? NO_LIST, before?.resetAt ?? NO_LIST).filter(hasDay);
    actions.forEach((at) => onDay(dayOf(at))[1]++);
    resets.forEach((at) => onDay(dayOf(at))[2]++);
    if ((before?.actionDoneAt ?? NO_LIST).length === 0 && actions.length > 0) {
      // A first action: every entry is new, and the user counts on the day of the earliest.
      onDay(dayOf(actions.reduce((first, at) => Math.min(first, at))))[3]++;
    }
    const statesBefore = before?.machinesByState ?? NO_MACHINES;
    const statesAfter = after ? machinesByState(after.activeStateMachines.values()) : NO_MACHINES;
    const states: [string, number][] = [];
    for (const name of new Set([...statesBefore.keys(), ...statesAfter.keys()])) {
      const change = (statesAfter.get(name) ?? 0) - (statesBefore.get(name) ?? 0);
      if (change !== 0) states.push([name, change]);
    }
    const users = Number(statesAfter.size > 0) - Number(statesBefore.size > 0);
    if (days.size > 0 || users !== 0 || states.length > 0) {
      changes.push({
        ctaId,
        days: [...days.values()].sort((a, b) => a[0] - b[0]),
        users,
        states: states.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
      });
    }
  }
  return changes;
}
