import type { UserState } from '../sdk/user-state';

/**
 * What one write of a user's state adds to the insights of each CTA (docs/decisions/0018-campaign-insights.md),
 * from the document it replaces and the one it stores: new `actionDoneAt` / `resetAt` entries per UTC
 * day, a user's first action, and the change of the user's machines. Pure and O(n) in the two
 * documents: the merge's work stays proportional to what it already parses.
 *
 * An entry is new when it is newer than the user's mark of that list: the newest entry counted so
 * far (and how many of that time). A mark only moves forward, so a device's lists count each entry
 * once however they arrive — re-sent, out of order, cut by the caps, or overwritten by an older list.
 * The marks live beside the document (the user's row), per CTA while the user has state for it. A
 * row every write of this version leaves with marks (`[]` at least); a row without them was stored
 * before counting began: its lists count as counted, and its machines were never in `now`, so its
 * first write adds them all.
 */

export const DAY_MS = 86_400_000;

const NO_MACHINES: ReadonlyMap<string, number> = new Map();

/** The largest |epoch ms| a date has (ECMAScript's time range); an entry past it has no day and is not counted. */
const MAX_DATE_MS = 8_640_000_000_000_000;

/** The UTC day of an epoch-ms time, as a day number (0 = 1970-01-01). */
export const dayOf = (epochMs: number): number => Math.floor(epochMs / DAY_MS);

const hasDay = (epochMs: number): boolean => Math.abs(epochMs) <= MAX_DATE_MS;

/** One CTA's counts from one write: what the user's pending insights add up, and the fold adds to the folded rows. */
export interface InsightChange {
  ctaId: string;
  /** `[day, actions, resets, newUsers]` of each day with any, by day. */
  days: [number, number, number, number][];
  /** +1: the user has machines of the CTA now and had none; -1: the reverse; else 0. */
  users: number;
  /** `[currentState, change of the user's machines in it]`, none zero, by state. */
  states: [string, number][];
}

/** The newest entry of a list counted so far, and how many entries of that time; null before any. */
export type ListMark = [newest: number, atNewest: number] | null;

/** A CTA's marks: of `actionDoneAt`, of `resetAt`. */
type CtaMarks = [actions: ListMark, resets: ListMark];

/** What counting needs of one CTA's state before the write. */
interface CtaBefore {
  /** The stored lists themselves: a merge replaces a list it changes, and only removes from one it keeps. */
  actionDoneAt: number[];
  resetAt: number[];
  marks: CtaMarks;
  /** Whether `marks` were stored (else they come from the lists). */
  marksStored: boolean;
  machinesByState: ReadonlyMap<string, number>;
}

/** The state a write replaces, as counting needs it; taken before the merge changes the parsed document. */
export interface InsightBaseline {
  ctas: Map<string, CtaBefore>;
  /** The marks as stored; null: the row was never counted. */
  marks: string | null;
}

/** What counting reads of a user's state. */
export type UserStateForInsights = Pick<UserState, 'ctas'>;

/** The newest entry of `list` and how many entries of that time. */
function markOf(list: readonly number[]): ListMark {
  if (list.length === 0) return null;
  let newest = list[0];
  let atNewest = 0;
  for (const entry of list) {
    if (entry > newest) {
      newest = entry;
      atNewest = 1;
    } else if (entry === newest) {
      atNewest++;
    }
  }
  return [newest, atNewest];
}

/** Users' machines by `currentState`; none: NO_MACHINES (most CTAs of a user have no machine). */
function machinesByState(machines: ReadonlyMap<string, { currentState: string }>): ReadonlyMap<string, number> {
  if (machines.size === 0) return NO_MACHINES;
  const counts = new Map<string, number>();
  for (const { currentState } of machines.values()) {
    counts.set(currentState, (counts.get(currentState) ?? 0) + 1);
  }
  return counts;
}

const NO_LIST: number[] = [];

/** The stored marks (null: none): by CTA id. */
const readMarks = (text: string | null): Map<string, CtaMarks> => new Map(text === null ? [] : (JSON.parse(text) as [string, CtaMarks][]));

/** `state` and its stored marks (`marks`, null: none), taken before a merge changes the parsed document. */
export function insightBaseline(state: UserStateForInsights, marks: string | null): InsightBaseline {
  const stored = readMarks(marks);
  const ctas = new Map<string, CtaBefore>();
  for (const [ctaId, cta] of state.ctas) {
    const storedMarks = stored.get(ctaId);
    ctas.set(ctaId, {
      actionDoneAt: cta.actionDoneAt,
      resetAt: cta.resetAt,
      marks: storedMarks ?? [markOf(cta.actionDoneAt), markOf(cta.resetAt)],
      marksStored: storedMarks !== undefined,
      machinesByState: marks === null ? NO_MACHINES : machinesByState(cta.activeStateMachines),
    });
  }
  return { ctas, marks };
}

/**
 * The entries of `list` past `mark`: newer than its newest entry, and of those equal to it, the ones
 * beyond as many as it counted. An entry older than the mark has been counted, or arrives after a
 * newer one of another device of the user (the documented limit: not counted).
 */
export function newEntries(list: readonly number[], mark: ListMark): readonly number[] {
  if (mark === null) {
    return list;
  }
  const added: number[] = [];
  let seenAtNewest = 0;
  for (const entry of list) {
    if (entry > mark[0] || (entry === mark[0] && ++seenAtNewest > mark[1])) {
      added.push(entry);
    }
  }
  return added;
}

/** `mark` moved forward over `list`: never back (the same mark when it does not move). */
function advanced(mark: ListMark, list: readonly number[]): ListMark {
  const latest = markOf(list);
  if (latest === null || (mark !== null && (latest[0] < mark[0] || (latest[0] === mark[0] && latest[1] <= mark[1])))) return mark;
  return latest;
}

/** A write's counts of one CTA by UTC day, `[day, actions, resets, newUsers]`; one table reused across the CTAs of a write. */
class DayTally {
  private readonly days = new Map<number, [number, number, number, number]>();

  /** Counts `list`'s entries past `mark` that have a day in column `column` (1: actions, 2: resets); answers the earliest counted, or Infinity. */
  countNew(list: readonly number[], mark: ListMark, column: 1 | 2): number {
    let earliest = Infinity;
    for (const at of newEntries(list, mark)) {
      if (!hasDay(at)) continue;
      this.on(dayOf(at))[column]++;
      if (at < earliest) earliest = at;
    }
    return earliest;
  }

  on(day: number): [number, number, number, number] {
    let counts = this.days.get(day);
    if (!counts) this.days.set(day, (counts = [day, 0, 0, 0]));
    return counts;
  }

  /** The days counted, by day, and the table emptied for the next CTA. */
  take(): [number, number, number, number][] {
    if (this.days.size === 0) return [];
    const days = [...this.days.values()].sort((a, b) => a[0] - b[0]);
    this.days.clear();
    return days;
  }
}

/** What a write counts, and the user's marks to store with it (null: none). */
export interface CountedWrite {
  changes: InsightChange[];
  marks: string;
}

/** What the write of `state` over the document of `baseline` counts; CTAs without change are left out. */
export function insightChanges(baseline: InsightBaseline, state: UserStateForInsights): CountedWrite {
  const changes: InsightChange[] = [];
  const marks: [string, CtaMarks][] = [];
  const tally = new DayTally();
  let marksChanged = baseline.marks === null;
  const count = (ctaId: string): void => {
    const before = baseline.ctas.get(ctaId);
    const after = state.ctas.get(ctaId);
    const [actionsMark, resetsMark]: CtaMarks = before?.marks ?? [null, null];
    // A list the write kept as stored adds nothing (it can only have lost entries).
    const actionDoneAt = after && after.actionDoneAt !== before?.actionDoneAt ? after.actionDoneAt : NO_LIST;
    const resetAt = after && after.resetAt !== before?.resetAt ? after.resetAt : NO_LIST;
    const firstAction = tally.countNew(actionDoneAt, actionsMark, 1);
    tally.countNew(resetAt, resetsMark, 2);
    if (actionsMark === null && firstAction !== Infinity) {
      // The user's first action: counted on the day of the earliest.
      tally.on(dayOf(firstAction))[3]++;
    }
    const moved: CtaMarks = after ? [advanced(actionsMark, actionDoneAt), advanced(resetsMark, resetAt)] : [null, null];
    const kept = moved[0] !== null || moved[1] !== null;
    if (kept) marks.push([ctaId, moved]);
    marksChanged ||= kept !== (before?.marksStored ?? false) || moved[0] !== actionsMark || moved[1] !== resetsMark;
    const statesBefore = before?.machinesByState ?? NO_MACHINES;
    const statesAfter = after ? machinesByState(after.activeStateMachines) : NO_MACHINES;
    const states: [string, number][] = [];
    for (const [name, machines] of statesAfter) {
      const change = machines - (statesBefore.get(name) ?? 0);
      if (change !== 0) states.push([name, change]);
    }
    for (const [name, machines] of statesBefore) {
      if (!statesAfter.has(name)) states.push([name, -machines]);
    }
    const users = Number(statesAfter.size > 0) - Number(statesBefore.size > 0);
    const days = tally.take();
    if (days.length > 0 || users !== 0 || states.length > 0) {
      changes.push({ ctaId, days, users, states: states.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)) });
    }
  };
  for (const ctaId of baseline.ctas.keys()) count(ctaId);
  for (const ctaId of state.ctas.keys()) if (!baseline.ctas.has(ctaId)) count(ctaId);
  return { changes, marks: !marksChanged && baseline.marks !== null ? baseline.marks : JSON.stringify(marks) };
}
