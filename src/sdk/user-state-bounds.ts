import type { StateMachine } from './snapshot-request';
import {
  byResetAt,
  byValue,
  documentBytes,
  dropEmptyEntries,
  emptyUserState,
  serializeUserState,
  StateTexts,
  StoredUserStateReading,
  UserState,
  UserStateJson,
  userStateJson,
} from './user-state';

/**
 * The per-user caps ("Bounded state" in the README), in work proportional to the state: each
 * part of the stored document is serialised (or, for numbers and ids, measured) once, what to
 * drop is decided in one pass over the entries sorted by age, and the document is put together
 * from the parts kept — never serialised again per dropped entry (which took seconds for a
 * state of 1,000 CTAs).
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

/** Whether a stored document (`text`, read as `reading`) is within `limits` as it is: the launch's cheap check. */
export function withinLimits(reading: StoredUserStateReading, text: string, limits: StateLimits): boolean {
  return (
    // UTF-8 takes at most 3 bytes per UTF-16 unit: most documents pass without being measured.
    (text.length * 3 <= limits.maxUserStateBytes || documentBytes(text) <= limits.maxUserStateBytes) &&
    [...reading.ctas.values()].every((cta) => cta.machineCount <= limits.maxMachinesPerCta)
  );
}

/** Oldest first: by `lastTransitionAt`, then `createdAt`. */
const byAge = (a: StateMachine, b: StateMachine): number => a.lastTransitionAt - b.lastTransitionAt || a.createdAt - b.createdAt;

/** A state within the caps: its stored document, what was dropped, and the launch answer's parts from the same texts. */
export interface BoundUserState {
  json: string;
  truncations: Truncation[];
  answer: UserStateJson;
}

/**
 * Keeps `state` within `limits`: per CTA at most `maxMachinesPerCta` machines,
 * the oldest dropped first; then, while the serialised document is over `maxUserStateBytes`,
 * the oldest machines across all CTAs, and once none is left the older half of the longest
 * list, again and again. Entries left empty are removed. Answers the document that fits and
 * what was dropped.
 */
export function boundUserState(state: UserState, limits: StateLimits): BoundUserState {
  const truncations = capMachinesPerCta(state, limits.maxMachinesPerCta);
  dropEmptyEntries(state);
  const texts = new StateTexts();
  const document = new DocumentParts(state, texts);
  // Most states fit whole: then no machine is sorted by age.
  if (!document.addAllMachines(state, limits.maxUserStateBytes)) {
    truncations.push(...keepNewestMachines(state, document, limits.maxUserStateBytes));
    if (document.bytes > limits.maxUserStateBytes) {
      truncations.push(...halveLongestLists(state, document, limits.maxUserStateBytes));
    }
  }
  dropEmptyEntries(state);
  return { json: serializeUserState(state, texts), truncations, answer: userStateJson(state, texts) };
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

/**
 * The newest machines across all CTAs, as many as fit beside the lists: dropping the oldest until
 * the document fits keeps exactly these. Sized newest first, so a machine that cannot be kept is
 * never serialised.
 */
function keepNewestMachines(state: UserState, document: DocumentParts, maxBytes: number): Truncation[] {
  const machines: { ctaId: string; key: string; machine: StateMachine }[] = [];
  for (const [ctaId, cta] of state.ctas) {
    for (const [key, machine] of cta.activeStateMachines) machines.push({ ctaId, key, machine });
  }
  // Oldest first (a stable sort: equal ages in document order), walked from the newest end.
  machines.sort((a, b) => byAge(a.machine, b.machine));
  let firstKept = machines.length;
  while (firstKept > 0) {
    const { ctaId, key, machine } = machines[firstKept - 1];
    if (!document.addMachine(ctaId, key, machine, maxBytes)) break;
    firstKept--;
  }
  const droppedByCta = new Map<string, number>();
  for (const { ctaId, key } of machines.slice(0, firstKept)) {
    state.ctas.get(ctaId)!.activeStateMachines.delete(key);
    droppedByCta.set(ctaId, (droppedByCta.get(ctaId) ?? 0) + 1);
  }
  return [...droppedByCta].map(([ctaId, dropped]) => ({ reason: 'user_state_bytes', ctaId, dropped }));
}

/** One list of the state as the halving sees it. */
interface HalvedList<T = unknown> {
  entry: EntrySize;
  /** Which of the entry's two lists. */
  slot: 0 | 1;
  list: T[];
  /** Ranks entries (default: position, the later the newer), as `newest` does. */
  newness?: (entry: T) => number;
  owner: Pick<Truncation, 'ctaId' | 'behaviourTagName'>;
  /** Stores the list cut to `kept`. */
  keep(kept: T[]): void;
  /** Made at the list's first halving. */
  ranking?: Ranking;
}

/**
 * A list's entries newest first: `order`, their positions (undefined when the newest are the last
 * ones, as in a list in the order things happened), and `bytesOfNewest[n]`, what the newest `n` take.
 */
interface Ranking {
  order?: number[];
  bytesOfNewest: number[];
}

/**
 * Halves the longest list (the ties: the first in document order) until the document fits.
 * Every list only shrinks, so the sequence of halvings is every list's lengths L, L/2, L/4, …
 * longest first, in document order among equal lengths: gathered by length once, then each
 * halving costs its bookkeeping only (and a list's ranking, at its first).
 */
function halveLongestLists(state: UserState, size: DocumentParts, maxBytes: number): Truncation[] {
  const lists: HalvedList[] = [];
  const add = <T>(list: HalvedList<T>) => {
    if (list.list.length > 0) lists.push(list as HalvedList);
  };
  for (const [ctaId, cta] of state.ctas) {
    const entry = size.ctaEntry(ctaId);
    const owner = { ctaId };
    add({ entry, slot: 0, list: cta.resetAt, newness: byValue, owner, keep: (kept) => (cta.resetAt = kept) });
    add({ entry, slot: 1, list: cta.actionDoneAt, newness: byValue, owner, keep: (kept) => (cta.actionDoneAt = kept) });
  }
  for (const [behaviourTagName, tag] of state.tags) {
    const entry = size.tagEntry(behaviourTagName);
    const owner = { behaviourTagName };
    add({ entry, slot: 0, list: tag.activeCtas, owner, keep: (kept) => (tag.activeCtas = kept) });
    add({ entry, slot: 1, list: tag.ctasResetAt, newness: byResetAt, owner, keep: (kept) => (tag.ctasResetAt = kept) });
  }
  /** Length before the halving → the lists halved from it, in document order. */
  const byLength = new Map<number, HalvedList[]>();
  for (const list of lists) {
    for (let length = list.list.length; length > 0; length >>= 1) {
      const halved = byLength.get(length);
      if (halved) halved.push(list);
      else byLength.set(length, [list]);
    }
  }
  const truncations: Truncation[] = [];
  const kept = new Map<HalvedList, number>();
  halving: for (const from of [...byLength.keys()].sort((a, b) => b - a)) {
    for (const list of byLength.get(from)!) {
      if (size.bytes <= maxBytes) break halving;
      const { bytesOfNewest } = (list.ranking ??= ranking(list));
      const count = from >> 1;
      size.resizeList(list.entry, list.slot, count, bytesOfNewest[count]);
      kept.set(list, count);
      truncations.push({ reason: 'user_state_bytes', ...list.owner, dropped: from - count });
    }
  }
  kept.forEach((count, { list, ranking: ranked, keep }) => {
    const order = ranked!.order;
    keep(
      order
        ? order
            .slice(0, count)
            .sort((a, b) => a - b)
            .map((at) => list[at])
        : list.slice(list.length - count),
    );
  });
  return truncations;
}

/** The list's ranking (ties: the earlier entry first). */
function ranking({ list, newness }: HalvedList): Ranking {
  let order: number[] | undefined;
  // Lists are mostly in the order things happened: strictly increasing needs no sort.
  if (newness && !list.every((entry, index) => index === 0 || newness(list[index - 1]) < newness(entry))) {
    const values = list.map(newness);
    order = list.map((_, index) => index).reverse();
    order.sort((a, b) => values[b] - values[a] || a - b);
  }
  const bytesOfNewest = [0];
  for (let rank = 0; rank < list.length; rank++) {
    bytesOfNewest.push(bytesOfNewest[rank] + valueBytes(list[order ? order[rank] : list.length - 1 - rank]));
  }
  return { order, bytesOfNewest };
}

/** Decimal strings (CTA ids) serialise as themselves in quotes. */
const DECIMAL = /^-?\d+$/;

/** 10, 100, …, 10^16: a safe integer has fewer digits than the first of these above it. */
const POWERS_OF_TEN = Array.from({ length: 16 }, (_, index) => 10 ** (index + 1));

/** What one list entry takes in the document: integers and decimal strings counted, not serialised. */
function valueBytes(value: unknown): number {
  if (typeof value === 'number' && Number.isSafeInteger(value)) {
    const magnitude = Math.abs(value);
    let [low, high] = [0, POWERS_OF_TEN.length];
    while (low < high) {
      const middle = (low + high) >> 1;
      if (magnitude >= POWERS_OF_TEN[middle]) low = middle + 1;
      else high = middle;
    }
    return value < 0 ? low + 2 : low + 1;
  }
  return typeof value === 'string' && DECIMAL.test(value) ? value.length + 2 : Buffer.byteLength(JSON.stringify(value));
}

/** What a list's entries take, without brackets and commas. */
function listBytes(list: readonly unknown[]): number {
  let bytes = 0;
  for (const value of list) bytes += valueBytes(value);
  return bytes;
}

/** The commas between `count` entries of a JSON array. */
const commas = (count: number): number => Math.max(0, count - 1);

/** One CTA or tag entry of the document, as sizes. */
interface EntrySize {
  array: 'ctas' | 'tags';
  frame: number;
  machines: number;
  machinesBytes: number;
  /** Entries of each of the entry's two lists (resetAt and actionDoneAt, or activeCtas and ctasResetAt) kept, and what they take (without brackets and commas). */
  listCounts: [number, number];
  listBytes: [number, number];
}

const entrySizeBytes = (entry: EntrySize): number =>
  entry.frame +
  entry.machinesBytes +
  commas(entry.machines) +
  entry.listBytes[0] +
  commas(entry.listCounts[0]) +
  entry.listBytes[1] +
  commas(entry.listCounts[1]);
const isEmpty = (entry: EntrySize): boolean => entry.machines === 0 && entry.listCounts[0] === 0 && entry.listCounts[1] === 0;

/** `{"ctas":[],"tags":[]}`: the document around its entries. */
const DOCUMENT_FRAME = documentBytes(serializeUserState(emptyUserState()));
/** A CTA entry without its id, machines and lists' entries: `[,{"activeStateMachines":[],"resetAt":[],"actionDoneAt":[]}]`. */
const CTA_FRAME =
  documentBytes(
    serializeUserState({ ctas: new Map([['', { activeStateMachines: new Map(), resetAt: [], actionDoneAt: [] }]]), tags: new Map() }),
  ) -
  DOCUMENT_FRAME -
  2;

/** What a CTA entry takes in the document without its machines and its lists' entries. */
const ctaFrameOf = (ctaId: string): number =>
  CTA_FRAME + (DECIMAL.test(ctaId) ? ctaId.length + 2 : Buffer.byteLength(JSON.stringify(ctaId)));

/** What a tag entry takes without its lists' entries: the stored object as it is (its own key order), with its two lists empty. */
const tagFrameOf = (name: string, tag: object): number =>
  Buffer.byteLength(JSON.stringify([name, { ...tag, activeCtas: [], ctasResetAt: [] }]));

/**
 * The parts of `serializeUserState(state)` and their sizes, kept exact as machines are added and
 * lists cut, without serialising the document again: the entries with their lists at first, the
 * machines added one by one (each serialised once, into `texts`, which the document is then made of).
 * An entry is in the document while it holds anything (`dropEmptyEntries` removes the others).
 */
class DocumentParts {
  bytes = DOCUMENT_FRAME;
  private readonly ctas = new Map<string, EntrySize>();
  private readonly tags = new Map<string, EntrySize>();
  /** Entries in the document, per array. */
  private readonly present = { ctas: 0, tags: 0 };

  constructor(
    state: UserState,
    private readonly texts: StateTexts,
  ) {
    for (const [ctaId, cta] of state.ctas) {
      this.add(this.ctas, ctaId, {
        array: 'ctas',
        frame: ctaFrameOf(ctaId),
        machines: 0,
        machinesBytes: 0,
        listCounts: [cta.resetAt.length, cta.actionDoneAt.length],
        listBytes: [listBytes(cta.resetAt), listBytes(cta.actionDoneAt)],
      });
    }
    for (const [name, tag] of state.tags) {
      this.add(this.tags, name, {
        array: 'tags',
        frame: tagFrameOf(name, tag),
        machines: 0,
        machinesBytes: 0,
        listCounts: [tag.activeCtas.length, tag.ctasResetAt.length],
        listBytes: [listBytes(tag.activeCtas), listBytes(tag.ctasResetAt)],
      });
    }
  }

  ctaEntry(ctaId: string): EntrySize {
    return this.ctas.get(ctaId)!;
  }

  tagEntry(name: string): EntrySize {
    return this.tags.get(name)!;
  }

  /**
   * Adds every machine of `state` when the document fits `maxBytes` with all of them, and answers
   * true; else adds none (their texts made so far are kept) and answers false.
   */
  addAllMachines(state: UserState, maxBytes: number): boolean {
    if (this.bytes > maxBytes) return false;
    for (const [ctaId, cta] of state.ctas) {
      for (const [key, machine] of cta.activeStateMachines) {
        if (!this.addMachine(ctaId, key, machine, maxBytes)) {
          for (const entry of this.ctas.values()) this.change(entry, (changed) => ((changed.machines = 0), (changed.machinesBytes = 0)));
          return false;
        }
      }
    }
    return true;
  }

  /** Adds a machine of the CTA when the document still fits `maxBytes` with it; answers whether it did. */
  addMachine(ctaId: string, key: string, machine: StateMachine, maxBytes: number): boolean {
    const bytes = Buffer.byteLength(this.texts.storedMachine(key, machine).text);
    const entry = this.ctas.get(ctaId)!;
    const resize = (by: number) =>
      this.change(entry, (changed) => {
        changed.machines += by;
        changed.machinesBytes += by * bytes;
      });
    resize(1);
    if (this.bytes > maxBytes) {
      resize(-1);
      return false;
    }
    return true;
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
    this.change(entry, () => undefined, false);
  }

  /** Applies a change to an entry, the entry entering or leaving the document as it holds something or nothing. */
  private change(entry: EntrySize, apply: (entry: EntrySize) => void, wasPresent = !isEmpty(entry)): void {
    if (wasPresent) this.bytes -= entrySizeBytes(entry);
    apply(entry);
    const isPresent = !isEmpty(entry);
    if (isPresent) this.bytes += entrySizeBytes(entry);
    if (isPresent && !wasPresent) {
      // With a comma before it when others are there.
      this.bytes += this.present[entry.array] > 0 ? 1 : 0;
      this.present[entry.array]++;
    } else if (wasPresent && !isPresent) {
      this.present[entry.array]--;
      this.bytes -= this.present[entry.array] > 0 ? 1 : 0;
    }
  }
}
