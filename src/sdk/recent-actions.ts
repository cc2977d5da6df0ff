import type { UserActionTimes } from '../exposure-policy/exposure-cap';
import type { CtaState } from './user-state';
import { MAX_STORED_LIST_ENTRIES } from './user-state';

/**
 * A user's recent actions across all the tenant's CTAs (docs/exposure-policy.md): what the exposure cap
 * counts. Each CTA's `actionDoneAt` ends with its state when the launch prunes an ended CTA, so every
 * write of the user's state first folds the state's actions into this record, which outlives them.
 * Kept beside the document (`sdk_user_states.recent_actions`) as `[at, ctaId, at, ctaId, …]`, newest
 * first, one pair per action: the newest MAX_STORED_LIST_ENTRIES, which is as many as the largest cap
 * (1,000) ever needs — a count that reaches the cap, and when its slot frees, read only the newest
 * `maxActions`.
 */

/** Flat pairs `[at, ctaId, …]`, newest first (then by CTA id). */
export type RecentActions = readonly number[];

export const NO_RECENT_ACTIONS: RecentActions = [];

/** What the record reads of a user's state, parsed or as the launch reads it: each CTA's actions. */
interface StateActions {
  ctas: ReadonlyMap<string, Pick<Readonly<CtaState>, 'actionDoneAt'>>;
}

export function parseRecentActions(text: string | null): RecentActions {
  return text === null ? NO_RECENT_ACTIONS : (JSON.parse(text) as number[]);
}

export const recentActionsText = (actions: RecentActions): string | null => (actions.length === 0 ? null : JSON.stringify(actions));

/**
 * The state's actions `since` or later that `recorded` does not hold, as pairs (an action the state
 * lists twice, twice). A record is sorted newest first, then by CTA id (`newestFirst`), so each look-up
 * is a binary search.
 */
function unrecordedActions(recorded: RecentActions, state: StateActions, since: number): number[] {
  let pairs: number[] | undefined;
  for (const [ctaId, cta] of state.ctas) {
    const id = Number(ctaId);
    for (const at of cta.actionDoneAt) {
      if (at >= since && !recordHolds(recorded, at, id)) (pairs ??= []).push(at, id);
    }
  }
  return pairs ?? [];
}

/** Whether the record holds the action (`at`, `ctaId`). */
function recordHolds(recorded: RecentActions, at: number, ctaId: number): boolean {
  let low = 0;
  let high = recorded.length / 2;
  while (low < high) {
    const middle = (low + high) >>> 1;
    const time = recorded[2 * middle];
    if (time > at || (time === at && recorded[2 * middle + 1] < ctaId)) low = middle + 1;
    else high = middle;
  }
  return 2 * low < recorded.length && recorded[2 * low] === at && recorded[2 * low + 1] === ctaId;
}

/** Pairs newest first, each action once. */
function newestFirst(pairs: number[]): number[] {
  const order: [number, number][] = [];
  const seen = new Set<string>();
  for (let index = 0; index < pairs.length; index += 2) {
    const key = `${pairs[index]}:${pairs[index + 1]}`;
    if (seen.has(key)) continue;
    seen.add(key);
    order.push([pairs[index], pairs[index + 1]]);
  }
  order.sort((a, b) => b[0] - a[0] || a[1] - b[1]);
  return order.flat();
}

/**
 * The record after a write of `state`: the newest MAX_STORED_LIST_ENTRIES of the record and the state's
 * actions together. Answers `recorded` itself when the state adds nothing (the common case: a write
 * that changes no `actionDoneAt`), so an unchanged write stays unchanged.
 */
export function foldRecentActions(recorded: RecentActions, state: StateActions): RecentActions {
  // A full record keeps nothing older than its oldest.
  const floor = recorded.length >= 2 * MAX_STORED_LIST_ENTRIES ? recorded[recorded.length - 2] : Number.NEGATIVE_INFINITY;
  const added = unrecordedActions(recorded, state, floor);
  return added.length === 0 ? recorded : newestFirst(newestCandidates([...recorded, ...added])).slice(0, 2 * MAX_STORED_LIST_ENTRIES);
}

/**
 * The pairs that may be among the newest MAX_STORED_LIST_ENTRIES: those at or after the time of the
 * 2 × MAX_STORED_LIST_ENTRIES-th newest (room for as many repeats). A body within the SDK limit can
 * carry some 70,000 action times; ranking them all as pairs cost far more than sorting the times.
 */
function newestCandidates(pairs: number[]): number[] {
  const count = pairs.length / 2;
  if (count <= 2 * MAX_STORED_LIST_ENTRIES) {
    return pairs;
  }
  const times = new Float64Array(count);
  for (let index = 0; index < count; index++) times[index] = pairs[2 * index];
  times.sort();
  const threshold = times[count - 2 * MAX_STORED_LIST_ENTRIES];
  const kept: number[] = [];
  for (let index = 0; index < pairs.length; index += 2) {
    if (pairs[index] >= threshold) kept.push(pairs[index], pairs[index + 1]);
  }
  return kept;
}

/**
 * The user's actions the exposure cap counts: the record's, and the state's not recorded yet (a write
 * records them all, so those are few or none). The record's text is parsed when first read.
 */
export class UserActions implements UserActionTimes {
  private recordedList: RecentActions | undefined;

  constructor(
    private readonly recordedText: string | null,
    private readonly state: StateActions,
  ) {}

  /** The actions of `state` that `recorded` holds as they are: counted without parsing anything again. */
  static recorded(recorded: RecentActions, state: StateActions): UserActions {
    const actions = new UserActions(null, state);
    actions.recordedList = recorded;
    return actions;
  }

  private get recorded(): RecentActions {
    return (this.recordedList ??= parseRecentActions(this.recordedText));
  }

  /** The state's actions `since` or later that the record does not hold, as pairs, each once. */
  private unrecordedSince(since: number): number[] {
    const pairs = unrecordedActions(this.recorded, this.state, since);
    return pairs.length === 0 ? pairs : newestFirst(pairs);
  }

  /** The record's pairs `since` or later: its newest ones. */
  private recordedCountSince(since: number): number {
    const recorded = this.recorded;
    let count = 0;
    while (2 * count < recorded.length && recorded[2 * count] >= since) count++;
    return count;
  }

  countSince(since: number): number {
    return this.recordedCountSince(since) + this.unrecordedSince(since).length / 2;
  }

  timesSince(since: number): number[] {
    const pairs = [...this.recorded.slice(0, 2 * this.recordedCountSince(since)), ...this.unrecordedSince(since)];
    const ordered = newestFirst(pairs);
    const times: number[] = [];
    for (let index = 0; index < ordered.length; index += 2) times.push(ordered[index]);
    return times;
  }
}
