import { CLOSE_BRACKET, valueEnd } from '../common/json-text';
import type { CtaResetAt, SnapshotRequest, StateMachine } from './snapshot-request';
import { MAX_STORED_LIST_ENTRIES } from '../insights/insight-changes';

/**
 * One app user's stored state in one tenant (docs/decisions/0006-user-state-merge.md), and the merge and
 * pruning rules on it. Kept as one document per (tenant, user) so a launch
 * reads it with one primary-key lookup and a merge rewrites it with one
 * conditional statement. Keys that come from clients (state-machine keys, tag
 * names) live in Maps, never as plain-object keys, so `__proto__` is just a name.
 */

/** A user's state keeps the newest this many entries of each list (docs/decisions/0006-user-state-merge.md); insights count within them, so the bound is theirs. */
export { MAX_STORED_LIST_ENTRIES };

export interface CtaState {
  activeStateMachines: Map<string, StateMachine>;
  resetAt: number[];
  actionDoneAt: number[];
}

export interface TagState {
  activeCtas: string[];
  ctasResetAt: CtaResetAt[];
}

export interface UserState {
  /** By CTA id (decimal string). */
  ctas: Map<string, CtaState>;
  /** By behaviour tag name. */
  tags: Map<string, TagState>;
}

/** A state's entries, as the checks on the catalogue's word read them: its CTAs' ids and its tags. */
export interface StateEntries {
  ctas: ReadonlyMap<string, unknown>;
  tags: ReadonlyMap<string, Readonly<TagState>>;
}

/** What the rules need to know about the tenant's catalogue. */
export interface StateCatalogue {
  /** `stateMachineTTL` of a CTA whose users keep state (live or paused, docs/decisions/0006-user-state-merge.md); else undefined. */
  stateTtlOf(ctaId: string, now: number): number | undefined;
  hasTag(name: string): boolean;
}

export interface MergeCounts {
  /** State machines stored or deleted. */
  applied: number;
  /** State machines older than the stored ones, and snapshots of unknown CTAs or tags. */
  ignored: number;
}

interface StoredDocument {
  ctas: [string, { activeStateMachines: [string, StateMachine][]; resetAt: number[]; actionDoneAt: number[] }][];
  tags: [string, TagState][];
}

export const emptyUserState = (): UserState => ({ ctas: new Map(), tags: new Map() });

/** Whether `state` holds no CTA and no tag entry. */
export const holdsNothing = (state: UserState): boolean => state.ctas.size === 0 && state.tags.size === 0;

/**
 * The stored document, with the launch index as its first member: `{"launch":"…;…","ctas":…,"tags":…}`.
 * The index holds one entry per CTA in the document's order: the `createdAt` of the CTA's oldest machine
 * (0 without machines), how many machines it has, each machine's key and machine text lengths, and the
 * length of the CTA's lists' text (`listsJson`), separated by commas: what the launch needs to slice each
 * CTA's state out of the document without reading it (`readIndexed`). A build before the index reads the
 * document as its own (it ignores the member), and a document it wrote has none
 * (docs/decisions/0006-user-state-merge.md).
 */
const INDEX_START = '{"launch":"';
const INDEX_END = '",';

/** The length of the index member (`"launch":"…",`) of a stored document; 0 without one. */
function indexLength(text: string): number {
  return text.startsWith(INDEX_START) ? text.indexOf(INDEX_END, INDEX_START.length) + INDEX_END.length - 1 : 0;
}

/** What the cap on a user's state measures of a stored document: its bytes without the index member (which is ASCII). */
export const documentBytes = (text: string): number => Buffer.byteLength(text) - indexLength(text);

export function parseUserState(text: string): UserState {
  const document = JSON.parse(text) as StoredDocument;
  return {
    ctas: new Map(
      document.ctas.map(([ctaId, state]) => [
        ctaId,
        { activeStateMachines: new Map(state.activeStateMachines), resetAt: state.resetAt, actionDoneAt: state.actionDoneAt },
      ]),
    ),
    tags: new Map(document.tags),
  };
}

/** A machine as its CTA's list in the stored document holds it (`["key",{…}]`), and its key's length in it (with the quotes). */
export interface StoredMachineText {
  text: string;
  keyLength: number;
}

function storedMachineText(key: string, machine: StateMachine): StoredMachineText {
  const keyJson = JSON.stringify(key);
  return { text: `[${keyJson},${JSON.stringify(machine)}]`, keyLength: keyJson.length };
}

/** Zeros before the low nine digits of an integer: by how many digits they have. */
const LEADING_ZEROS = ['', '00000000', '0000000', '000000', '00000', '0000', '000', '00', '0', ''];
const BILLION = 1e9;

/**
 * A list's JSON text, as `JSON.stringify` writes it. Lists of safe integers (epoch milliseconds, most
 * of a large document) are written in two parts of at most nine digits each: V8 writes such small
 * integers several times faster than a 13-digit double.
 */
export function listJson(list: readonly unknown[]): string {
  let json = '[';
  for (let index = 0; index < list.length; index++) {
    const value = list[index];
    if (typeof value !== 'number' || !Number.isSafeInteger(value)) return JSON.stringify(list);
    if (index > 0) json += ',';
    if (value < BILLION && value > -BILLION) {
      json += value;
    } else {
      const magnitude = Math.abs(value);
      const high = Math.floor(magnitude / BILLION);
      const low = `${magnitude - high * BILLION}`;
      json += `${value < 0 ? '-' : ''}${high}${LEADING_ZEROS[low.length]}${low}`;
    }
  }
  return `${json}]`;
}

/**
 * The JSON text of a state's parts, each made once and shared by the stored document and the launch
 * answer (which differ only in how a CTA's machines are framed). Kept per machine and per list
 * object: a part that is replaced gets its own text.
 */
export class StateTexts {
  private readonly machines = new Map<StateMachine, StoredMachineText>();
  private readonly lists = new Map<readonly unknown[], string>();

  storedMachine(key: string, machine: StateMachine): StoredMachineText {
    let stored = this.machines.get(machine);
    if (stored === undefined) this.machines.set(machine, (stored = storedMachineText(key, machine)));
    return stored;
  }

  list(list: readonly unknown[]): string {
    let json = this.lists.get(list);
    if (json === undefined) this.lists.set(list, (json = listJson(list)));
    return json;
  }
}

const RESET_AT = ',"resetAt":';
const ACTION_DONE_AT = ',"actionDoneAt":';

/** A CTA's lists as the stored document and the launch answer both hold them: `,"resetAt":[…],"actionDoneAt":[…]`. */
const listsJson = (cta: CtaState, texts: StateTexts): string =>
  `${RESET_AT}${texts.list(cta.resetAt)}${ACTION_DONE_AT}${texts.list(cta.actionDoneAt)}`;

/** A machine as the launch answer's member, from its key's and its own JSON text: `"key":{…}`. */
const machineMember = (keyJson: string, machineJson: string): string => `${keyJson}:${machineJson}`;

/** A CTA's state as the launch answer carries it, from its machines' members and its lists' text: `{"key":machine,…},"resetAt":[…],"actionDoneAt":[…]`. */
const answerStateJson = (members: readonly string[], lists: string): string => `{${members.join(',')}}${lists}`;

/** `cta`'s state as the launch answer carries it, from `texts`. */
function ctaStateJson(cta: CtaState, texts: StateTexts): string {
  const members: string[] = [];
  for (const [key, machine] of cta.activeStateMachines) {
    const { text, keyLength } = texts.storedMachine(key, machine);
    members.push(machineMember(text.slice(1, keyLength + 1), text.slice(keyLength + 2, -1)));
  }
  return answerStateJson(members, listsJson(cta, texts));
}

/** The `createdAt` of the oldest of `machines`; 0 when there are none. */
function oldestCreatedAt(machines: ReadonlyMap<string, StateMachine>): number {
  let oldest: number | undefined;
  for (const { createdAt } of machines.values()) if (oldest === undefined || createdAt < oldest) oldest = createdAt;
  return oldest ?? 0;
}

/**
 * The stored document (from `texts`: the caps have made most of them already):
 * `{"launch":"…","ctas":[[id,{"activeStateMachines":[[key,machine],…],"resetAt":[…],"actionDoneAt":[…]}],…],"tags":[[name,{…}],…]}`
 * as `JSON.stringify` writes it.
 */
export function serializeUserState(state: UserState, texts = new StateTexts()): string {
  const index: string[] = [];
  const ctas: string[] = [];
  for (const [ctaId, cta] of state.ctas) {
    const machines: string[] = [];
    let entry = `${oldestCreatedAt(cta.activeStateMachines)},${cta.activeStateMachines.size}`;
    for (const [key, machine] of cta.activeStateMachines) {
      const { text, keyLength } = texts.storedMachine(key, machine);
      machines.push(text);
      entry += `,${keyLength},${text.length - keyLength - 3}`;
    }
    const lists = listsJson(cta, texts);
    index.push(`${entry},${lists.length}`);
    ctas.push(`[${JSON.stringify(ctaId)},{"activeStateMachines":[${machines.join(',')}]${lists}}]`);
  }
  const tags = [...state.tags].map((tag) => JSON.stringify(tag));
  return `${INDEX_START}${index.join(';')}${INDEX_END}"ctas":[${ctas.join(',')}],"tags":[${tags.join(',')}]}`;
}

/** The newest `limit` entries of a list, in the order sent; `newness` ranks entries (default: position). */
export function newest<T>(list: T[], newness?: (entry: T) => number, limit = MAX_STORED_LIST_ENTRIES): T[] {
  if (list.length <= limit) {
    return list;
  }
  if (limit === 0) {
    return [];
  }
  if (!newness) {
    return list.slice(list.length - limit);
  }
  const threshold = list.map(newness).sort((a, b) => b - a)[limit - 1];
  let keepAtThreshold = limit - list.filter((entry) => newness(entry) > threshold).length;
  return list.filter((entry) => newness(entry) > threshold || (newness(entry) === threshold && keepAtThreshold-- > 0));
}

export const byValue = (value: number): number => value;
export const byResetAt = (entry: CtaResetAt): number => entry.resetAt;

/**
 * Whether the catalogue keeps users' state for a CTA at `now` (live, started or paused; launch step 4,
 * docs/decisions/0006-user-state-merge.md): the one rule for what a user's state keeps of a CTA — its
 * machines and lists, its id in a tag's `activeCtas`, and the insights' marks of it. An id the catalogue
 * does not hold (deleted, another tenant's, never a CTA) is not kept.
 */
export const keepsStateOf =
  (catalogue: StateCatalogue, now: number) =>
  (ctaId: string): boolean =>
    catalogue.stateTtlOf(ctaId, now) !== undefined;

/**
 * Whether merging `request` into `state` and pruning would drop or ignore
 * anything on the catalogue's word alone: a snapshot or stored state of a CTA
 * without kept state, a tag's active CTA without it, or an unknown tag; `otherCtaIds`
 * are CTAs of other stored data the caller drops by the same rule (the insights' marks). An
 * instance's catalogue may be older than the request, so such a decision needs a catalogue
 * revalidated after the request arrived (docs/decisions/0006-user-state-merge.md, "A stale catalogue never loses data").
 */
export function dropsOnCatalogueWord(
  state: StateEntries,
  request: SnapshotRequest,
  catalogue: StateCatalogue,
  now: number,
  otherCtaIds: Iterable<string> = [],
): boolean {
  const keepsCta = keepsStateOf(catalogue, now);
  const keepsActive = (activeCtas: readonly string[] | undefined): boolean => !activeCtas || activeCtas.every(keepsCta);
  return (
    request.ctas.some((snapshot) => !keepsCta(snapshot.ctaId)) ||
    request.behaviourTags.some((snapshot) => !catalogue.hasTag(snapshot.behaviourTagName) || !keepsActive(snapshot.activeCtas)) ||
    [...state.ctas.keys()].some((ctaId) => !keepsCta(ctaId)) ||
    [...state.tags].some(([name, tag]) => !catalogue.hasTag(name) || !keepsActive(tag.activeCtas)) ||
    [...otherCtaIds].some((ctaId) => !keepsCta(ctaId))
  );
}

/**
 * Merges a validated request into `state` (docs/decisions/0006-user-state-merge.md): `reset: true` deletes a
 * machine; otherwise the incoming machine wins when none is stored or
 * `stored.lastTransitionAt <= incoming.lastTransitionAt`; lists present in the
 * snapshot replace the stored ones. Snapshots of CTAs without kept state or of
 * unknown tags are ignored.
 */
export function mergeSnapshots(state: UserState, request: SnapshotRequest, catalogue: StateCatalogue, now: number): MergeCounts {
  const counts: MergeCounts = { applied: 0, ignored: 0 };
  for (const snapshot of request.ctas) {
    if (catalogue.stateTtlOf(snapshot.ctaId, now) === undefined) {
      counts.ignored++;
      continue;
    }
    let stored = state.ctas.get(snapshot.ctaId);
    if (!stored) {
      stored = { activeStateMachines: new Map(), resetAt: [], actionDoneAt: [] };
      state.ctas.set(snapshot.ctaId, stored);
    }
    for (const [key, { machine, reset }] of snapshot.activeStateMachines) {
      const current = stored.activeStateMachines.get(key);
      if (reset) {
        stored.activeStateMachines.delete(key);
        counts.applied++;
      } else if (!current || current.lastTransitionAt <= machine.lastTransitionAt) {
        stored.activeStateMachines.set(key, machine);
        counts.applied++;
      } else {
        counts.ignored++;
      }
    }
    if (snapshot.resetAt) {
      stored.resetAt = newest(snapshot.resetAt, byValue);
    }
    if (snapshot.actionDoneAt) {
      stored.actionDoneAt = newest(snapshot.actionDoneAt, byValue);
    }
  }
  for (const snapshot of request.behaviourTags) {
    if (!catalogue.hasTag(snapshot.behaviourTagName)) {
      counts.ignored++;
      continue;
    }
    const stored = state.tags.get(snapshot.behaviourTagName) ?? { activeCtas: [], ctasResetAt: [] };
    state.tags.set(snapshot.behaviourTagName, {
      activeCtas: snapshot.activeCtas ? newest(snapshot.activeCtas) : stored.activeCtas,
      ctasResetAt: snapshot.ctasResetAt ? newest(snapshot.ctasResetAt, byResetAt) : stored.ctasResetAt,
    });
  }
  return counts;
}

/** Whether a machine created at `createdAt` has outlived its CTA's `stateMachineTTL` at `now`. */
const expiredAt = (createdAt: number, ttl: number, now: number): boolean => createdAt + ttl <= now;

/**
 * Drops what a launch must not serve and need not keep (docs/decisions/0006-user-state-merge.md):
 * machines whose `createdAt + stateMachineTTL <= now`, the state of CTAs that
 * are neither live nor paused (or no longer exist), state of unknown tags, the ids of such CTAs
 * from a tag's `activeCtas` (devices never clear it: a tag is released when its active CTA ends,
 * docs/decisions/0004-behaviour-tags.md), and entries left empty. Answers whether anything was dropped;
 * `pruneDropsAnything` answers that of a launch's reading without dropping.
 */
export function pruneUserState(state: UserState, catalogue: StateCatalogue, now: number): boolean {
  const sizeBefore = state.ctas.size + state.tags.size;
  const keepsCta = keepsStateOf(catalogue, now);
  let dropped = false;
  for (const [ctaId, cta] of state.ctas) {
    const ttl = catalogue.stateTtlOf(ctaId, now);
    if (ttl === undefined) {
      state.ctas.delete(ctaId);
      continue;
    }
    for (const [key, machine] of cta.activeStateMachines) {
      if (expiredAt(machine.createdAt, ttl, now)) {
        cta.activeStateMachines.delete(key);
        dropped = true;
      }
    }
  }
  for (const [name, tag] of state.tags) {
    if (!catalogue.hasTag(name)) {
      state.tags.delete(name);
    } else if (!tag.activeCtas.every(keepsCta)) {
      tag.activeCtas = tag.activeCtas.filter(keepsCta);
      dropped = true;
    }
  }
  dropEmptyEntries(state);
  return dropped || state.ctas.size + state.tags.size !== sizeBefore;
}

const isEmptyCta = (machineCount: number, cta: Pick<CtaState, 'resetAt' | 'actionDoneAt'>): boolean =>
  machineCount === 0 && cta.resetAt.length === 0 && cta.actionDoneAt.length === 0;
const isEmptyTag = (tag: Readonly<TagState>): boolean => tag.activeCtas.length === 0 && tag.ctasResetAt.length === 0;

/** Removes CTA and tag entries left with nothing in them. */
export function dropEmptyEntries(state: UserState): void {
  for (const [ctaId, cta] of state.ctas) {
    if (isEmptyCta(cta.activeStateMachines.size, cta)) state.ctas.delete(ctaId);
  }
  for (const [name, tag] of state.tags) {
    if (isEmptyTag(tag)) state.tags.delete(name);
  }
}

/**
 * Whether `pruneUserState` would drop anything of the state `reading` holds, told from what the launch
 * reads (each CTA's oldest machine, not every machine): a CTA without kept state, an expired machine, an
 * unknown tag, a tag's active CTA without kept state, an empty entry. The lists are read only for a
 * CTA without machines.
 */
export function pruneDropsAnything(reading: StoredUserStateReading, catalogue: StateCatalogue, now: number): boolean {
  const keepsCta = keepsStateOf(catalogue, now);
  for (const [ctaId, cta] of reading.ctas) {
    const ttl = catalogue.stateTtlOf(ctaId, now);
    if (ttl === undefined || (cta.machineCount > 0 && expiredAt(cta.oldestCreatedAt, ttl, now)) || isEmptyCta(cta.machineCount, cta)) {
      return true;
    }
  }
  for (const [name, tag] of reading.tags) {
    if (!catalogue.hasTag(name) || !tag.activeCtas.every(keepsCta) || isEmptyTag(tag)) return true;
  }
  return false;
}

/** The user's state as the launch answer carries it: JSON text per CTA and per tag. */
export interface UserStateJson {
  /** `{"key":machine,…},"resetAt":[…],"actionDoneAt":[…]` (`ctaStateJson`), or undefined without state for the CTA. */
  cta(ctaId: string): string | undefined;
  /** The tag's two lists, or undefined without state for the tag. */
  tag(name: string): { ctasResetAt: string; activeCtas: string } | undefined;
}

/** `state`'s parts serialised as the launch answer asks for them, from `texts` (those of its stored document). */
export function userStateJson(state: UserState, texts = new StateTexts()): UserStateJson {
  return {
    cta: (ctaId) => {
      const cta = state.ctas.get(ctaId);
      return cta && ctaStateJson(cta, texts);
    },
    tag: (name) => {
      const tag = state.tags.get(name);
      return tag && { ctasResetAt: JSON.stringify(tag.ctasResetAt), activeCtas: JSON.stringify(tag.activeCtas) };
    },
  };
}

/** What the launch reads of a CTA's stored state: its machines' count and oldest age, and its lists. */
export interface CtaReading {
  readonly machineCount: number;
  /** The oldest machine's `createdAt`; 0 without machines. */
  readonly oldestCreatedAt: number;
  readonly resetAt: number[];
  readonly actionDoneAt: number[];
}

/** A stored document as the launch reads it: what the pruning check and the caps need, and the answer's JSON text. */
export interface StoredUserStateReading extends StateEntries {
  ctas: ReadonlyMap<string, CtaReading>;
  json: UserStateJson;
}

/**
 * The launch's reading of a stored document: through its index (`readIndexed`), or parsed when it has
 * none (stored before the index) or another shape. `json` answers the state as read: for a launch
 * that prunes nothing.
 */
export function readStoredUserState(text: string): StoredUserStateReading {
  const indexed = readIndexed(text);
  if (indexed) {
    return indexed;
  }
  const state = parseUserState(text);
  const ctas = new Map<string, CtaReading>();
  for (const [ctaId, cta] of state.ctas) {
    const { activeStateMachines: machines, resetAt, actionDoneAt } = cta;
    ctas.set(ctaId, { machineCount: machines.size, oldestCreatedAt: oldestCreatedAt(machines), resetAt, actionDoneAt });
  }
  return { ctas, tags: state.tags, json: userStateJson(state) };
}

const CTA_STATE_START = ',{"activeStateMachines":[';
const MINUS = 0x2d;
const ZERO = 0x30;

/**
 * The launch's reading of a document `serializeUserState` wrote, through its index: each CTA's machines and
 * lists are sliced out of the document at the lengths the index gives, the keys and machines put
 * together as the answer frames them, and the count and oldest age are the index's; only the ids and
 * the tags (a few short lists) are read. Null for a document without the index or of another shape, and for
 * an id or a tag with an escape (a backslash): the parse reads those, so a string read here is its text
 * without its quotes (docs/benchmarks.md).
 */
function readIndexed(text: string): StoredUserStateReading | null {
  if (!text.startsWith(INDEX_START)) return null;
  const indexEnd = text.indexOf(INDEX_END, INDEX_START.length);
  if (indexEnd === -1) return null;
  const ctas = new Map<string, CtaReading>();
  const ctaJson = new Map<string, string>();
  const tags = new Map<string, ScannedTagState>();
  const tagJson = new Map<string, { ctasResetAt: string; activeCtas: string }>();
  const index = new DocumentScan(text, INDEX_START.length);
  /** The index's next number, a count or a length. */
  const size = (): number | undefined => {
    const value = index.pass(',') ? index.integer() : undefined;
    return value !== undefined && value >= 0 ? value : undefined;
  };
  const scan = new DocumentScan(text, indexEnd + INDEX_END.length);
  if (!scan.pass('"ctas":[')) return null;
  while (index.position < indexEnd) {
    if (ctas.size > 0 && !(index.pass(';') && scan.pass(','))) return null;
    const oldest = index.integer();
    const count = size();
    const ctaId = scan.entryName(CTA_STATE_START);
    if (oldest === undefined || count === undefined || ctaId === undefined || ctaId.includes('\\') || ctas.has(ctaId)) return null;
    const members: string[] = [];
    for (let machine = 0; machine < count; machine++) {
      const keyLength = size();
      const machineLength = size();
      if (keyLength === undefined || machineLength === undefined || !scan.pass(machine === 0 ? '[' : ',[')) return null;
      const key = scan.take(keyLength);
      if (!scan.pass(',')) return null;
      members.push(machineMember(key, scan.take(machineLength)));
      if (!scan.pass(']')) return null;
    }
    const listsLength = size();
    if (listsLength === undefined || !scan.pass(']')) return null;
    const lists = scan.take(listsLength);
    if (!lists.startsWith(RESET_AT) || !scan.pass('}]')) return null;
    ctas.set(ctaId, new IndexedCtaReading(count, oldest, lists));
    ctaJson.set(ctaId, answerStateJson(members, lists));
  }
  if (!scan.pass('],"tags":[') || text.includes('\\', scan.position)) return null;
  if (!scan.at(CLOSE_BRACKET)) {
    do {
      const name = scan.entryName(',{"activeCtas":');
      if (name === undefined || tags.has(name)) return null;
      const activeCtas = scan.value();
      if (!scan.pass(',"ctasResetAt":')) return null;
      const ctasResetAt = scan.value();
      if (!scan.pass('}]')) return null;
      tags.set(name, new ScannedTagState(JSON.parse(activeCtas) as string[], ctasResetAt));
      tagJson.set(name, { ctasResetAt, activeCtas });
    } while (scan.pass(','));
  }
  if (!scan.pass(']}') || !scan.atEnd()) return null;
  return { ctas, tags, json: { cta: (ctaId) => ctaJson.get(ctaId), tag: (name) => tagJson.get(name) } };
}

/** A cursor over a stored document (readIndexed): each method passes what it reads, or answers that it could not. */
class DocumentScan {
  constructor(
    private readonly text: string,
    public position: number,
  ) {}

  at(char: number): boolean {
    return this.text.charCodeAt(this.position) === char;
  }

  atEnd(): boolean {
    return this.position === this.text.length;
  }

  pass(literal: string): boolean {
    if (!this.text.startsWith(literal, this.position)) return false;
    this.position += literal.length;
    return true;
  }

  /** The integer here (at most 16 digits: a safe one, as the index holds), or undefined. */
  integer(): number | undefined {
    const text = this.text;
    let at = this.position;
    const negative = text.charCodeAt(at) === MINUS;
    if (negative) at++;
    const start = at;
    let value = 0;
    for (let digit = text.charCodeAt(at) - ZERO; digit >= 0 && digit <= 9; digit = text.charCodeAt(++at) - ZERO) {
      value = value * 10 + digit;
    }
    if (at === start || at - start > 16) return undefined;
    this.position = at;
    return negative ? -value : value;
  }

  /** The next `length` characters. */
  take(length: number): string {
    const start = this.position;
    this.position = Math.min(start + length, this.text.length);
    return this.text.slice(start, this.position);
  }

  /** The JSON text of the value here. */
  value(): string {
    const start = this.position;
    this.position = valueEnd(this.text, start);
    return this.text.slice(start, this.position);
  }

  /** `["name"` and then `after`: the name, or undefined. */
  entryName(after: string): string | undefined {
    if (!this.pass('["')) return undefined;
    const start = this.position;
    const end = this.text.indexOf('"', start);
    if (end === -1) return undefined;
    this.position = end + 1;
    return this.pass(after) ? this.text.slice(start, end) : undefined;
  }
}

/**
 * A CTA's state read through the index: its lists are parsed from their text only when read, which a
 * launch does for a CTA without machines, or when the exposure cap counts them.
 */
class IndexedCtaReading implements CtaReading {
  private lists: [number[], number[]] | undefined;

  constructor(
    readonly machineCount: number,
    readonly oldestCreatedAt: number,
    /** `,"resetAt":[…],"actionDoneAt":[…]`: numbers only, so the key is found by searching. */
    private readonly listsJson: string,
  ) {}

  get resetAt(): number[] {
    return this.parsedLists()[0];
  }

  get actionDoneAt(): number[] {
    return this.parsedLists()[1];
  }

  private parsedLists(): [number[], number[]] {
    if (!this.lists) {
      const actionDoneAt = this.listsJson.indexOf(ACTION_DONE_AT);
      this.lists = [
        JSON.parse(this.listsJson.slice(RESET_AT.length, actionDoneAt)) as number[],
        JSON.parse(this.listsJson.slice(actionDoneAt + ACTION_DONE_AT.length)) as number[],
      ];
    }
    return this.lists;
  }
}

/** A scanned tag's state: its active CTAs (the pruning check reads them), its resets parsed only when read. */
class ScannedTagState implements Readonly<TagState> {
  private ctasResetAtList: CtaResetAt[] | undefined;

  constructor(
    readonly activeCtas: string[],
    private readonly ctasResetAtJson: string,
  ) {}

  get ctasResetAt(): CtaResetAt[] {
    return (this.ctasResetAtList ??= JSON.parse(this.ctasResetAtJson) as CtaResetAt[]);
  }
}
