import type { StateMachine } from './snapshot-request';
import { byResetAt, byValue, dropEmptyEntries, MachineAge, newest, serializeUserState, UserState } from './user-state';

/**
 * The per-user caps of DESIGN §11 ("Bounded state"), in work proportional to the state: the
 * size each entry adds to the stored document is computed once, and what to drop is decided
 * in one pass over the entries sorted by age, so the document is serialised once more at the
 * end, never once per dropped entry (which took seconds for a state of 1,000 CTAs).
 */

/** The per-user caps. */
export interface StateLimits {
  maxMachinesPerCta: number;
  maxUserStateBytes: number;
}

export type TruncationReason = 'machines_per_cta' | 'user_state_bytes';

/** What `boundUserState` dropped from one CTA's (or, for list entries, one tag's) state. */
export interface Truncation {
  reason: TruncationReason;
  ctaId?: string;
  behaviourTagName?: string;
  /** State machines, or list entries once no machine is left. */
  dropped: number;
}

/** Whether a stored document (`json`, parsed as `state`) is within `limits` as it is: the launch's cheap check. */
export function withinLimits(state: UserState<MachineAge>, json: string, limits: StateLimits): boolean {
  return (
    fitsBytes(json, limits.maxUserStateBytes) &&
    [...state.ctas.values()].every((cta) => cta.activeStateMachines.size <= limits.maxMachinesPerCta)
  );
}

/** UTF-8 takes at most 3 bytes per UTF-16 unit: most documents pass without being measured. */
const fitsBytes = (json: string, maxBytes: number): boolean => json.length * 3 <= maxBytes || Buffer.byteLength(json) <= maxBytes;

/** Oldest first: by `lastTransitionAt`, then `createdAt`. */
const byAge = (a: StateMachine, b: StateMachine): number => a.lastTransitionAt - b.lastTransitionAt || a.createdAt - b.createdAt;

/**
 * Keeps `state` within `limits` (DESIGN §11): per CTA at most `maxMachinesPerCta` machines,
 * the oldest dropped first; then, while the serialised document is over `maxUserStateBytes`,
 * the oldest machines across all CTAs, and once none is left the older half of the longest
 * list, again and again. Answers the document that fits and what was dropped.
 */
export function boundUserState(state: UserState, limits: StateLimits): { json: string; truncations: Truncation[] } {
  const truncations = capMachinesPerCta(state, limits.maxMachinesPerCta);
  const json = serializeUserState(state);
  if (fitsBytes(json, limits.maxUserStateBytes)) {
    return { json, truncations };
  }
  dropEmptyEntries(state);
  const size = new DocumentSize(state);
  truncations.push(...dropOldestMachines(state, size, limits.maxUserStateBytes));
  if (size.bytes > limits.maxUserStateBytes) {
    truncations.push(...halveLongestLists(state, size, limits.maxUserStateBytes));
  }
  dropEmptyEntries(state);
  return { json: serializeUserState(state), truncations };
}

/** Per CTA, the machines past `max`, oldest first: one sort of that CTA's machines. */
function capMachinesPerCta(state: UserState, max: number): Truncation[] {
  const truncations: Truncation[] = [];
  for (const [ctaId, cta] of state.ctas) {
    const excess = cta.activeStateMachines.size - max;
    if (excess > 0) {
      const oldest = [...cta.activeStateMachines].sort(([, a], [, b]) => byAge(a, b)).slice(0, excess);
      oldest.forEach(([key]) => cta.activeStateMachines.delete(key));
      truncations.push({ reason: 'machines_per_cta', ctaId, dropped: excess });
    }
  }
  return truncations;
}

/** Drops the oldest machines across all CTAs until the document fits (or none is left). */
function dropOldestMachines(state: UserState, size: DocumentSize, maxBytes: number): Truncation[] {
  const machines = size.machines.sort((a, b) => byAge(a.machine, b.machine));
  const droppedByCta = new Map<string, number>();
  for (let next = 0; size.bytes > maxBytes && next < machines.length; next++) {
    const { ctaId, key, bytes } = machines[next];
    state.ctas.get(ctaId)!.activeStateMachines.delete(key);
    size.dropMachine(ctaId, bytes);
    droppedByCta.set(ctaId, (droppedByCta.get(ctaId) ?? 0) + 1);
  }
  return [...droppedByCta].map(([ctaId, dropped]) => ({ reason: 'user_state_bytes', ctaId, dropped }));
}

/** One list of the state as the halving sees it: its entries' sizes, newest first. */
interface RankedList {
  entry: EntrySize;
  /** Which of the entry's two lists. */
  slot: 0 | 1;
  /** Sizes of the entries from the newest, summed: `bytesOfNewest[n]` is what the newest `n` take. */
  bytesOfNewest: number[];
  owner: Pick<Truncation, 'ctaId' | 'behaviourTagName'>;
  /** Cuts the stored list to its newest `count` entries. */
  keep(count: number): void;
}

/**
 * Halves the longest list (the ties: the first in document order) until the document fits.
 * Every list only shrinks, so the sequence of halvings is every list's lengths L, L/2, L/4, …
 * sorted longest first: one sort, then each halving costs its bookkeeping only.
 */
function halveLongestLists(state: UserState, size: DocumentSize, maxBytes: number): Truncation[] {
  const lists: RankedList[] = [];
  for (const [ctaId, cta] of state.ctas) {
    const entry = size.ctaEntry(ctaId);
    lists.push(ranked(entry, 0, cta.resetAt, byValue, { ctaId }, (count) => (cta.resetAt = newest(cta.resetAt, byValue, count))));
    lists.push(
      ranked(entry, 1, cta.actionDoneAt, byValue, { ctaId }, (count) => (cta.actionDoneAt = newest(cta.actionDoneAt, byValue, count))),
    );
  }
  for (const [behaviourTagName, tag] of state.tags) {
    const entry = size.tagEntry(behaviourTagName);
    const owner = { behaviourTagName };
    lists.push(ranked(entry, 0, tag.activeCtas, undefined, owner, (count) => (tag.activeCtas = newest(tag.activeCtas, undefined, count))));
    lists.push(
      ranked(entry, 1, tag.ctasResetAt, byResetAt, owner, (count) => (tag.ctasResetAt = newest(tag.ctasResetAt, byResetAt, count))),
    );
  }
  const halvings: { list: number; from: number }[] = [];
  lists.forEach((list, index) => {
    for (let length = list.bytesOfNewest.length - 1; length > 0; length >>= 1) halvings.push({ list: index, from: length });
  });
  halvings.sort((a, b) => b.from - a.from || a.list - b.list);
  const truncations: Truncation[] = [];
  const kept = new Map<RankedList, number>();
  for (const { list: index, from } of halvings) {
    if (size.bytes <= maxBytes) break;
    const list = lists[index];
    const count = from >> 1;
    size.resizeList(list.entry, list.slot, count, list.bytesOfNewest[count]);
    kept.set(list, count);
    truncations.push({ reason: 'user_state_bytes', ...list.owner, dropped: from - count });
  }
  kept.forEach((count, list) => list.keep(count));
  return truncations;
}

/** `list`'s entry sizes ranked newest first, as `newest` ranks them (ties: the earlier entry first; no `newness`: the later). */
function ranked<T>(
  entry: EntrySize,
  slot: 0 | 1,
  list: T[],
  newness: ((entry: T) => number) | undefined,
  owner: RankedList['owner'],
  keep: (count: number) => void,
): RankedList {
  const order = list.map((_, index) => index);
  if (newness) {
    const values = list.map(newness);
    order.sort((a, b) => values[b] - values[a] || a - b);
  } else {
    order.reverse();
  }
  const bytesOfNewest = [0];
  for (const index of order) bytesOfNewest.push(bytesOfNewest[bytesOfNewest.length - 1] + jsonBytes(list[index]));
  return { entry, slot, bytesOfNewest, owner, keep };
}

const jsonBytes = (value: unknown): number => Buffer.byteLength(JSON.stringify(value));
/** The commas between `count` entries of a JSON array. */
const commas = (count: number): number => Math.max(0, count - 1);

/** One CTA or tag entry of the document, as sizes. */
interface EntrySize {
  array: 'ctas' | 'tags';
  /** Everything but the machines and the lists' entries: brackets, the id, the keys. */
  frame: number;
  machines: number;
  machinesBytes: number;
  /** Entries of the entry's two lists (resetAt and actionDoneAt, or activeCtas and ctasResetAt). */
  listCounts: [number, number];
  listBytes: [number, number];
}

const entryBytes = (entry: EntrySize): number =>
  entry.frame +
  entry.machinesBytes +
  commas(entry.machines) +
  entry.listBytes[0] +
  commas(entry.listCounts[0]) +
  entry.listBytes[1] +
  commas(entry.listCounts[1]);
const isEmpty = (entry: EntrySize): boolean => entry.machines === 0 && entry.listCounts[0] === 0 && entry.listCounts[1] === 0;
/** The entries of a JSON array, without its brackets and commas. */
const entriesBytes = (list: unknown[]): number => jsonBytes(list) - 2 - commas(list.length);

/** `{"ctas":[],"tags":[]}`: the document around its entries. */
const DOCUMENT_FRAME = jsonBytes({ ctas: [], tags: [] });

/**
 * The UTF-8 size of `serializeUserState(state)`, kept exact as machines are dropped and lists
 * cut, without serialising again: from the size of each part, computed once. An entry left
 * empty leaves the document (as `dropEmptyEntries` then removes it).
 */
class DocumentSize {
  bytes = DOCUMENT_FRAME;
  /** Every machine with what it adds to its CTA's list (without the comma): `["key",{…}]`. */
  readonly machines: { ctaId: string; key: string; machine: StateMachine; bytes: number }[] = [];
  private readonly ctas = new Map<string, EntrySize>();
  private readonly tags = new Map<string, EntrySize>();
  /** Entries in the document, per array. */
  private readonly present = { ctas: 0, tags: 0 };

  constructor(state: UserState) {
    for (const [ctaId, cta] of state.ctas) {
      let machinesBytes = 0;
      for (const [key, machine] of cta.activeStateMachines) {
        const bytes = jsonBytes([key, machine]);
        this.machines.push({ ctaId, key, machine, bytes });
        machinesBytes += bytes;
      }
      this.add(this.ctas, ctaId, {
        array: 'ctas',
        frame: jsonBytes([ctaId, { activeStateMachines: [], resetAt: [], actionDoneAt: [] }]),
        machines: cta.activeStateMachines.size,
        machinesBytes,
        listCounts: [cta.resetAt.length, cta.actionDoneAt.length],
        listBytes: [entriesBytes(cta.resetAt), entriesBytes(cta.actionDoneAt)],
      });
    }
    for (const [name, tag] of state.tags) {
      this.add(this.tags, name, {
        array: 'tags',
        // The stored object as it is (its own key order), with its two lists empty.
        frame: jsonBytes([name, { ...tag, activeCtas: [], ctasResetAt: [] }]),
        machines: 0,
        machinesBytes: 0,
        listCounts: [tag.activeCtas.length, tag.ctasResetAt.length],
        listBytes: [entriesBytes(tag.activeCtas), entriesBytes(tag.ctasResetAt)],
      });
    }
  }

  ctaEntry(ctaId: string): EntrySize {
    return this.ctas.get(ctaId)!;
  }

  tagEntry(name: string): EntrySize {
    return this.tags.get(name)!;
  }

  dropMachine(ctaId: string, machineBytes: number): void {
    this.change(this.ctas.get(ctaId)!, (entry) => {
      entry.machines--;
      entry.machinesBytes -= machineBytes;
    });
  }

  /** One of `entry`'s lists cut to `count` entries taking `bytes` (without brackets and commas). */
  resizeList(entry: EntrySize, slot: 0 | 1, count: number, bytes: number): void {
    this.change(entry, (changed) => {
      changed.listCounts[slot] = count;
      changed.listBytes[slot] = bytes;
    });
  }

  private add(entries: Map<string, EntrySize>, id: string, entry: EntrySize): void {
    entries.set(id, entry);
    this.bytes += entryBytes(entry) + (this.present[entry.array] > 0 ? 1 : 0);
    this.present[entry.array]++;
  }

  private change(entry: EntrySize, apply: (entry: EntrySize) => void): void {
    this.bytes -= entryBytes(entry);
    apply(entry);
    if (isEmpty(entry)) {
      // The entry leaves the document, and with it a comma when others remain.
      this.present[entry.array]--;
      this.bytes -= this.present[entry.array] > 0 ? 1 : 0;
    } else {
      this.bytes += entryBytes(entry);
    }
  }
}
