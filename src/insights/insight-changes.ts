import {
  type ArmsCounts,
  countExperiment,
  type ExperimentMarks,
  NO_EXPERIMENT_MARKS,
  readExperimentMarks,
  storeExperimentMarks,
  type StoredExperimentMarks,
  type WriteExperiments,
} from './experiment-changes';

/**
 * What one write of a user's state adds to the insights of each CTA (docs/decisions/0018-campaign-insights.md),
 * from the document it replaces and the one it stores: new `actionDoneAt` / `resetAt` entries per UTC
 * day, a user's first action, and the change of the user's machines. Pure and O(n) in the two
 * documents when the lists are in time order (as devices append them): the merge's work stays
 * proportional to what it already parses.
 *
 * **Once means once.** An entry is identified by (user, CTA, list, timestamp) — and its occurrence
 * at that timestamp, so two actions of one millisecond count twice — and counts once ever for the
 * user, whichever device sends it, in any order. The entries counted so far are the stored list plus
 * the user's marks of that list: the counted entries the stored list no longer holds (`extra`: a
 * reinstalled device replaced the list, another device's older list overwrote it, the caps cut it)
 * and a floor at or below which every entry counts as counted. The marks live beside the document
 * (the user's row) per CTA for as long as the catalogue keeps the CTA's state, whether or not the user
 * has state for it — an emptied list drops the user's state for the CTA, not its marks — and go when
 * the CTA is concluded, terminated or gone (`keeps`, the rule of launch step 4) or the user is erased.
 *
 * **Bounded.** A list's counted set is its newest MAX_STORED_LIST_ENTRIES entries (as the stored list
 * is): older ones raise the floor. And a user's `extra` entries, all lists together, are at most
 * MAX_COUNTED_EXTRA: past it the oldest go, raising their list's floor. An entry at or below a floor
 * that was never counted — sent after more than that many newer ones were counted — is not counted
 * (the documented limit).
 *
 * A row every write of this version leaves with marks (`[]` at least); a row without them was stored
 * before counting began: its lists count as counted, and its machines were never in `now`, so its
 * first write adds them all.
 */

export const DAY_MS = 86_400_000;

/** A user's state keeps the newest this many entries of each list (docs/decisions/0006-user-state-merge.md): counting stays within them. */
export const MAX_STORED_LIST_ENTRIES = 1000;

/** A user's counted entries beyond the stored lists, all lists of all CTAs together, at most this many. */
export const MAX_COUNTED_EXTRA = MAX_STORED_LIST_ENTRIES;

const NO_MACHINES: ReadonlyMap<string, number> = new Map();

/** The largest |epoch ms| a date has (ECMAScript's time range); an entry past it has no day and is not counted. */
const MAX_DATE_MS = 8_640_000_000_000_000;

/** The UTC day of an epoch-ms time, as a day number (0 = 1970-01-01). */
export const dayOf = (epochMs: number): number => Math.floor(epochMs / DAY_MS);

const hasDay = (epochMs: number): boolean => Math.abs(epochMs) <= MAX_DATE_MS;

/** One CTA's counts from one write: what the user's pending insights add up, and the fold adds to the folded rows. */
export interface InsightChange {
  ctaId: string;
  /** `[day, actions, resets, newUsers]` of each day with any, by day (newUsers is -1 on a day a user's first action moved from). */
  days: [number, number, number, number][];
  /** +1: the user has machines of the CTA now and had none; -1: the reverse; else 0. */
  users: number;
  /** `[currentState, change of the user's machines in it]`, none zero, by state. */
  states: [string, number][];
  /** What the CTA's experiment counted (experiment-changes.ts), per arm (treatment, holdout); absent: nothing. */
  arms?: ArmsCounts;
}

/** What has been counted of one list beyond the stored list. */
export interface ListMarks {
  /** Every entry at or below it counts as counted; null: none. */
  floor: number | null;
  /** Counted entries above the floor that the stored list does not hold, ascending. */
  extra: readonly number[];
}

/** A CTA's marks. */
export interface CtaMarks {
  actions: ListMarks;
  resets: ListMarks;
  /** The action whose day holds the user's new-user count; null before any (or counted before this version). */
  first: number | null;
  /** What the CTA's experiment has counted of the user. */
  experiment: ExperimentMarks;
}

/** A CTA's marks as stored: parts left out when empty. */
interface StoredCtaMarks extends StoredExperimentMarks {
  a?: number[];
  af?: number;
  r?: number[];
  rf?: number;
  f?: number;
}

/** The marks of issue 31's build: per list the newest entry counted and how many of that time. */
type LegacyCtaMarks = [[number, number] | null, [number, number] | null];

const NO_LIST: number[] = [];
const NO_LIST_MARKS: ListMarks = { floor: null, extra: NO_LIST };
const NO_MARKS: CtaMarks = { actions: NO_LIST_MARKS, resets: NO_LIST_MARKS, first: null, experiment: NO_EXPERIMENT_MARKS };

const listMarks = (floor: number | undefined | null, extra: number[] | undefined): ListMarks =>
  floor == null && !extra ? NO_LIST_MARKS : { floor: floor ?? null, extra: extra ?? NO_LIST };

function readCtaMarks(stored: StoredCtaMarks | LegacyCtaMarks): CtaMarks {
  if (Array.isArray(stored)) {
    // Everything up to the newest entry counted counts as counted.
    return {
      actions: listMarks(stored[0]?.[0], undefined),
      resets: listMarks(stored[1]?.[0], undefined),
      first: null,
      experiment: NO_EXPERIMENT_MARKS,
    };
  }
  return {
    actions: listMarks(stored.af, stored.a),
    resets: listMarks(stored.rf, stored.r),
    first: stored.f ?? null,
    experiment: readExperimentMarks(stored),
  };
}

function storedCtaMarks({ actions, resets, first, experiment }: CtaMarks): StoredCtaMarks | null {
  const stored: StoredCtaMarks = {};
  if (actions.extra.length > 0) stored.a = [...actions.extra];
  if (actions.floor !== null) stored.af = actions.floor;
  if (resets.extra.length > 0) stored.r = [...resets.extra];
  if (resets.floor !== null) stored.rf = resets.floor;
  if (first !== null) stored.f = first;
  storeExperimentMarks(experiment, stored);
  return Object.keys(stored).length > 0 ? stored : null;
}

/** The stored marks (null: none), by CTA id. */
const readMarks = (text: string | null): Map<string, CtaMarks> =>
  new Map(
    text === null ? [] : (JSON.parse(text) as [string, StoredCtaMarks | LegacyCtaMarks][]).map(([id, marks]) => [id, readCtaMarks(marks)]),
  );

/** Whether a row's stored marks (`insight_marks`) hold anything of the user: what an erase clears. */
export const marksHoldAnything = (text: string | null): boolean => text !== null && text !== '[]';

/** What counting needs of one CTA's state before the write. */
interface CtaBefore {
  /** The stored lists themselves: a merge replaces a list it changes, and only removes from one it keeps. */
  actionDoneAt: number[];
  resetAt: number[];
  machinesByState: ReadonlyMap<string, number>;
}

/** The state a write replaces, as counting needs it; taken before the merge changes the parsed document. */
export interface InsightBaseline {
  ctas: Map<string, CtaBefore>;
  /** By CTA id, with or without state for it. */
  marks: ReadonlyMap<string, CtaMarks>;
  /** The marks as stored; null: the row was never counted. */
  text: string | null;
}

/** What counting reads of a user's state (the SDK's `UserState` is one). */
export interface UserStateForInsights {
  /** By CTA id. */
  ctas: ReadonlyMap<
    string,
    { activeStateMachines: ReadonlyMap<string, { currentState: string }>; resetAt: number[]; actionDoneAt: number[] }
  >;
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

/** `state` and its stored marks (`marks`, null: none), taken before a merge changes the parsed document. */
export function insightBaseline(state: UserStateForInsights, marks: string | null): InsightBaseline {
  const ctas = new Map<string, CtaBefore>();
  for (const [ctaId, cta] of state.ctas) {
    ctas.set(ctaId, {
      actionDoneAt: cta.actionDoneAt,
      resetAt: cta.resetAt,
      machinesByState: marks === null ? NO_MACHINES : machinesByState(cta.activeStateMachines),
    });
  }
  return { ctas, marks: readMarks(marks), text: marks };
}

/** `list` in ascending order: itself when it is (devices append in time order), else a sorted copy. */
function ascending(list: readonly number[]): readonly number[] {
  for (let index = 1; index < list.length; index++) {
    if (list[index - 1] > list[index]) return [...list].sort((a, b) => a - b);
  }
  return list;
}

/** Two ascending lists as one (every entry of both). */
function mergeAscending(a: readonly number[], b: readonly number[]): readonly number[] {
  if (b.length === 0) return a;
  if (a.length === 0) return b;
  const merged: number[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) merged.push(j >= b.length || (i < a.length && a[i] <= b[j]) ? a[i++] : b[j++]);
  return merged;
}

/** What replacing a stored list counted: the new entries (ascending) and the list's marks after. */
interface CountedList {
  added: readonly number[];
  marks: ListMarks;
}

/**
 * Replacing the stored list `stored` (counted together with `marks`) by `sent`: the entries of `sent`
 * above the floor beyond as many of their time as were counted, and the marks after — the counted
 * entries `sent` does not hold, within the newest MAX_STORED_LIST_ENTRIES of the list's counted set.
 */
export function countList(stored: readonly number[], marks: ListMarks, sent: readonly number[]): CountedList {
  const floor = marks.floor ?? -Infinity;
  const counted = mergeAscending(ascending(stored), marks.extra);
  const incoming = ascending(sent);
  const added: number[] = [];
  let extra: number[] = [];
  // One walk over both in time order, pairing equal entries one to one: a counted entry left unpaired
  // goes to `extra`, a sent one is new. `kept`: the counted set's entries above the floor after.
  let kept = 0;
  let i = 0;
  let j = 0;
  while (i < counted.length && j < incoming.length) {
    const was = counted[i];
    const now = incoming[j];
    if (was < now) {
      if (was > floor) extra.push(was);
      i++;
    } else if (now < was) {
      if (now > floor) added.push(now);
      j++;
    } else {
      if (was > floor) kept++;
      i++;
      j++;
    }
  }
  for (; i < counted.length; i++) if (counted[i] > floor) extra.push(counted[i]);
  for (; j < incoming.length; j++) if (incoming[j] > floor) added.push(incoming[j]);
  kept += added.length + extra.length;
  let newFloor = marks.floor;
  if (kept > MAX_STORED_LIST_ENTRIES) {
    // The newest MAX_STORED_LIST_ENTRIES of the counted set (`incoming` and `extra`, above the floor) stay: the
    // floor rises to the oldest of the rest, found from the bottom (most often one or two entries).
    let a = 0;
    while (incoming[a] <= floor) a++;
    let b = 0;
    for (let dropped = 0; dropped < kept - MAX_STORED_LIST_ENTRIES; dropped++) {
      newFloor = b >= extra.length || (a < incoming.length && incoming[a] <= extra[b]) ? incoming[a++] : extra[b++];
    }
    const above = newFloor as number;
    while (b < extra.length && extra[b] <= above) b++;
    extra = extra.slice(b);
  }
  return { added, marks: newFloor === marks.floor && sameList(extra, marks.extra) ? marks : { floor: newFloor, extra } };
}

function sameList(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((value, index) => value === b[index]);
}

/**
 * The marks within MAX_COUNTED_EXTRA extra entries, all lists together: past it the oldest go, and each
 * list's floor rises to the newest of its own that went. Changes `marks` in place; answers whether it did.
 */
function capExtra(marks: Map<string, CtaMarks>): boolean {
  let total = 0;
  for (const { actions, resets } of marks.values()) total += actions.extra.length + resets.extra.length;
  if (total <= MAX_COUNTED_EXTRA) return false;
  const all = new Float64Array(total);
  let at = 0;
  for (const { actions, resets } of marks.values()) {
    for (const list of [actions.extra, resets.extra]) {
      all.set(list, at);
      at += list.length;
    }
  }
  all.sort();
  const dropUpTo = all[total - MAX_COUNTED_EXTRA - 1];
  const capped = (list: ListMarks): ListMarks => {
    const dropped = list.extra.filter((value) => value <= dropUpTo);
    return dropped.length === 0
      ? list
      : { floor: Math.max(list.floor ?? -Infinity, dropped[dropped.length - 1]), extra: list.extra.slice(dropped.length) };
  };
  for (const [ctaId, cta] of marks) marks.set(ctaId, { ...cta, actions: capped(cta.actions), resets: capped(cta.resets) });
  return true;
}

/** A write's counts of one CTA by UTC day, `[day, actions, resets, newUsers]`; one table reused across the CTAs of a write. */
class DayTally {
  private readonly days = new Map<number, [number, number, number, number]>();

  /** Counts the entries that have a day in column `column` (1: actions, 2: resets); answers the earliest counted, or Infinity. */
  count(entries: readonly number[], column: 1 | 2): number {
    let earliest = Infinity;
    for (const at of entries) {
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

/** What a write counts, and the user's marks to store with it. */
export interface CountedWrite {
  changes: InsightChange[];
  marks: string;
}

/**
 * What the write of `state` over the document of `baseline` counts; CTAs without change are left out.
 * `keeps(ctaId)`: whether the user's marks of a CTA without state stay (the catalogue keeps its state).
 * `experiments`: the experiments of the write's CTAs (none when the catalogue has none).
 */
export function insightChanges(
  baseline: InsightBaseline,
  state: UserStateForInsights,
  keeps: (ctaId: string) => boolean,
  experiments?: WriteExperiments,
): CountedWrite {
  const changes: InsightChange[] = [];
  const marks = new Map<string, CtaMarks>();
  const tally = new DayTally();
  let marksChanged = baseline.text === null;
  const count = (ctaId: string): void => {
    const before = baseline.ctas.get(ctaId);
    const after = state.ctas.get(ctaId);
    const marksBefore = baseline.marks.get(ctaId) ?? NO_MARKS;
    let marksAfter: CtaMarks | null = null;
    let arms: ArmsCounts | undefined;
    const statesBefore = before?.machinesByState ?? NO_MACHINES;
    const statesAfter = after ? machinesByState(after.activeStateMachines) : NO_MACHINES;
    if (after || keeps(ctaId)) {
      // A CTA without state after the write has empty lists (its state is dropped only when they are).
      const actionsBefore = before?.actionDoneAt ?? NO_LIST;
      const actionsAfter = after?.actionDoneAt ?? NO_LIST;
      const resetsBefore = before?.resetAt ?? NO_LIST;
      const resetsAfter = after?.resetAt ?? NO_LIST;
      // A list the write kept as stored adds nothing (it can only have lost entries).
      const actions = actionsAfter === actionsBefore ? null : countList(actionsBefore, marksBefore.actions, actionsAfter);
      const resets = resetsAfter === resetsBefore ? null : countList(resetsBefore, marksBefore.resets, resetsAfter);
      let first = marksBefore.first;
      let firstAction = false;
      const earliest = actions ? tally.count(actions.added, 1) : Infinity;
      if (resets) tally.count(resets.added, 2);
      if (earliest !== Infinity) {
        const reached =
          first !== null || actionsBefore.length > 0 || marksBefore.actions.extra.length > 0 || marksBefore.actions.floor !== null;
        if (!reached) {
          // The user's first action: a new user on the day of the earliest.
          tally.on(dayOf(earliest))[3]++;
          first = earliest;
          firstAction = true;
        } else if (first !== null && earliest < first) {
          // An earlier action arrived after a later one: the user's first action, and the new user, move to its day.
          if (dayOf(earliest) !== dayOf(first)) {
            tally.on(dayOf(first))[3]--;
            tally.on(dayOf(earliest))[3]++;
          }
          first = earliest;
        }
      }
      let experimentMarks = marksBefore.experiment;
      const experiment = experiments?.of(ctaId);
      if (experiment) {
        const resetStates = experiments!.resetStates(ctaId);
        const goalMachines = (states: ReadonlyMap<string, number>): number => states.get(experiment.goal) ?? 0;
        const counted = countExperiment(
          experimentMarks,
          {
            hasMachine: statesAfter.size > 0 || resetStates.length > 0,
            firstAction,
            reachedGoal: goalMachines(statesAfter) > goalMachines(statesBefore) || resetStates.includes(experiment.goal),
          },
          experiment,
          experiments!.now,
        );
        experimentMarks = counted.marks;
        if (counted.counts) {
          arms = [
            [0, 0, 0],
            [0, 0, 0],
          ];
          arms[experiment.arm] = counted.counts;
        }
      }
      marksAfter = {
        actions: actions?.marks ?? marksBefore.actions,
        resets: resets?.marks ?? marksBefore.resets,
        first,
        experiment: experimentMarks,
      };
      marks.set(ctaId, marksAfter);
    }
    const kept = marksAfter ?? NO_MARKS;
    marksChanged ||=
      kept.actions !== marksBefore.actions ||
      kept.resets !== marksBefore.resets ||
      kept.first !== marksBefore.first ||
      kept.experiment !== marksBefore.experiment;
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
    if (days.length > 0 || users !== 0 || states.length > 0 || arms) {
      const change: InsightChange = { ctaId, days, users, states: states.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)) };
      if (arms) change.arms = arms;
      changes.push(change);
    }
  };
  for (const ctaId of baseline.ctas.keys()) count(ctaId);
  for (const ctaId of state.ctas.keys()) if (!baseline.ctas.has(ctaId)) count(ctaId);
  for (const ctaId of baseline.marks.keys()) if (!baseline.ctas.has(ctaId) && !state.ctas.has(ctaId)) count(ctaId);
  marksChanged = capExtra(marks) || marksChanged;
  if (!marksChanged && baseline.text !== null) {
    return { changes, marks: baseline.text };
  }
  const stored: [string, StoredCtaMarks][] = [];
  for (const [ctaId, ctaMarks] of marks) {
    const entry = storedCtaMarks(ctaMarks);
    if (entry) stored.push([ctaId, entry]);
  }
  return { changes, marks: JSON.stringify(stored) };
}
