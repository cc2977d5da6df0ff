import { CLOSE_BRACE, CLOSE_BRACKET, COLON, COMMA, endOfString, OPEN_BRACE, QUOTE, valueEnd } from '../common/json-text';
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

/** What the pruning rules read of a state machine. */
export type MachineAge = Pick<StateMachine, 'createdAt'>;

export interface CtaState<Machine extends MachineAge = StateMachine> {
  activeStateMachines: Map<string, Machine>;
  resetAt: number[];
  actionDoneAt: number[];
}

export interface TagState {
  activeCtas: string[];
  ctasResetAt: CtaResetAt[];
}

export interface UserState<Machine extends MachineAge = StateMachine> {
  /** By CTA id (decimal string). */
  ctas: Map<string, CtaState<Machine>>;
  /** By behaviour tag name. */
  tags: Map<string, TagState>;
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

export function parseUserState(json: string): UserState {
  const document = JSON.parse(json) as StoredDocument;
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

/** A machine as its CTA's list in the stored document holds it: `["key",{…}]`. */
export const storedMachineJson = (key: string, machine: StateMachine): string => JSON.stringify([key, machine]);

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
  private readonly machines = new Map<StateMachine, string>();
  private readonly lists = new Map<readonly unknown[], string>();

  /** `["key",{…}]`, as the stored document holds the machine. */
  storedMachine(key: string, machine: StateMachine): string {
    let json = this.machines.get(machine);
    if (json === undefined) this.machines.set(machine, (json = storedMachineJson(key, machine)));
    return json;
  }

  list(list: readonly unknown[]): string {
    let json = this.lists.get(list);
    if (json === undefined) this.lists.set(list, (json = listJson(list)));
    return json;
  }
}

/**
 * The stored document: `{"ctas":[[id,{"activeStateMachines":[[key,machine],…],"resetAt":[…],"actionDoneAt":[…]}],…],"tags":[[name,{…}],…]}`,
 * as `JSON.stringify` writes it, from `texts` (the caps have made most of them already).
 */
export function serializeUserState(state: UserState, texts = new StateTexts()): string {
  const ctas: string[] = [];
  for (const [ctaId, cta] of state.ctas) {
    const machines: string[] = [];
    for (const [key, machine] of cta.activeStateMachines) machines.push(texts.storedMachine(key, machine));
    ctas.push(
      `[${JSON.stringify(ctaId)},{"activeStateMachines":[${machines.join(',')}],"resetAt":${texts.list(cta.resetAt)},"actionDoneAt":${texts.list(cta.actionDoneAt)}}]`,
    );
  }
  const tags = [...state.tags].map((entry) => JSON.stringify(entry));
  return `{"ctas":[${ctas.join(',')}],"tags":[${tags.join(',')}]}`;
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
  state: UserState<MachineAge>,
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

/**
 * Drops what a launch must not serve and need not keep (docs/decisions/0006-user-state-merge.md):
 * machines whose `createdAt + stateMachineTTL <= now`, the state of CTAs that
 * are neither live nor paused (or no longer exist), state of unknown tags, the ids of such CTAs
 * from a tag's `activeCtas` (devices never clear it: a tag is released when its active CTA ends,
 * docs/decisions/0004-behaviour-tags.md), and entries left empty. Answers whether anything was dropped.
 */
export function pruneUserState(state: UserState<MachineAge>, catalogue: StateCatalogue, now: number): boolean {
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
      if (machine.createdAt + ttl <= now) {
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

/** Removes CTA and tag entries left with nothing in them. */
export function dropEmptyEntries(state: UserState<MachineAge>): void {
  for (const [ctaId, cta] of state.ctas) {
    if (cta.activeStateMachines.size === 0 && cta.resetAt.length === 0 && cta.actionDoneAt.length === 0) {
      state.ctas.delete(ctaId);
    }
  }
  for (const [name, tag] of state.tags) {
    if (tag.activeCtas.length === 0 && tag.ctasResetAt.length === 0) {
      state.tags.delete(name);
    }
  }
}

/**
 * `{"key":machine,…}` in stored order; built by hand so any key (even `__proto__`) round-trips: each
 * machine's stored text `["key",{…}]` with its brackets dropped and the comma after the key a colon.
 */
export function stateMachinesJson(machines: Map<string, StateMachine> | undefined, texts = new StateTexts()): string {
  if (!machines || machines.size === 0) {
    return '{}';
  }
  let json = '{';
  for (const [key, machine] of machines) {
    const stored = texts.storedMachine(key, machine);
    const keyEnd = endOfString(stored, 1) + 1;
    json += `${json.length > 1 ? ',' : ''}${stored.slice(1, keyEnd)}:${stored.slice(keyEnd + 1, -1)}`;
  }
  return `${json}}`;
}

/** The user's state as the launch answer carries it: JSON text per CTA and per tag. */
export interface UserStateJson {
  /** `{"key":machine,…},"resetAt":[…],"actionDoneAt":[…]`, or undefined without state for the CTA. */
  cta(ctaId: string): string | undefined;
  /** The tag's two lists, or undefined without state for the tag. */
  tag(name: string): { ctasResetAt: string; activeCtas: string } | undefined;
}

/** `state`'s parts serialised as the launch answer asks for them, from `texts` (those of its stored document). */
export function userStateJson(state: UserState, texts = new StateTexts()): UserStateJson {
  return {
    cta: (ctaId) => {
      const cta = state.ctas.get(ctaId);
      return (
        cta &&
        `${stateMachinesJson(cta.activeStateMachines, texts)},"resetAt":${texts.list(cta.resetAt)},"actionDoneAt":${texts.list(cta.actionDoneAt)}`
      );
    },
    tag: (name) => {
      const tag = state.tags.get(name);
      return tag && { ctasResetAt: JSON.stringify(tag.ctasResetAt), activeCtas: JSON.stringify(tag.activeCtas) };
    },
  };
}

/** A stored document as the launch reads it: what the pruning rules need, and the answer's JSON text. */
export interface StoredUserStateReading {
  state: UserState<MachineAge>;
  json: UserStateJson;
}

/**
 * The launch's reading of a stored document: scanned (`scanUserState`), or parsed when its text
 * has another shape. `json` answers the state as read: for a launch that prunes nothing.
 */
export function readStoredUserState(json: string): StoredUserStateReading {
  const scanned = scanUserState(json);
  if (scanned) {
    return scanned;
  }
  const state = parseUserState(json);
  return { state, json: userStateJson(state) };
}

/**
 * The launch's reading of a stored document (written by `serializeUserState`, so
 * `JSON.stringify`'s text): CTA ids, tag names, lists and each machine's `createdAt`
 * are read, and the machines' and lists' JSON text is kept as stored, which is what
 * serialising them again would give (parsing the document and serialising its machines again
 * were the largest part of a launch's own work). Null for any text of another shape, and for text
 * with an escape (a backslash anywhere): the parse reads those, so a string is always its text
 * without its quotes here. One pass over the text (docs/benchmarks.md).
 */
function scanUserState(json: string): StoredUserStateReading | null {
  if (json.includes('\\')) return null;
  const scan = new DocumentScan(json);
  const ctas = new Map<string, CtaState<MachineAge>>();
  const ctaJson = new Map<string, string>();
  const tags = new Map<string, TagState>();
  const tagJson = new Map<string, { ctasResetAt: string; activeCtas: string }>();
  if (!scan.pass('{"ctas":[')) return null;
  if (!scan.at(CLOSE_BRACKET)) {
    do {
      const ctaId = scan.entryName(',{"activeStateMachines":[');
      if (ctaId === undefined || ctas.has(ctaId)) return null;
      const machines = new Map<string, MachineAge>();
      let machinesJson = '{';
      if (!scan.at(CLOSE_BRACKET)) {
        do {
          const keyStart = scan.position + 1;
          const key = scan.entryName(',');
          if (key === undefined || machines.has(key)) return null;
          const machineStart = scan.position;
          const createdAt = scan.machineCreatedAt();
          if (createdAt === undefined || !scan.pass(']')) return null;
          machines.set(key, { createdAt });
          machinesJson += `${machinesJson.length > 1 ? ',' : ''}${json.slice(keyStart, machineStart - 1)}:${json.slice(machineStart, scan.position - 1)}`;
        } while (scan.pass(','));
      }
      const listsStart = scan.position + 1;
      if (!scan.pass('],"resetAt":')) return null;
      const resetAt = scan.value();
      if (!scan.pass(',"actionDoneAt":')) return null;
      const actionDoneAt = scan.value();
      const listsEnd = scan.position;
      if (!scan.pass('}]')) return null;
      ctas.set(ctaId, new ScannedCtaState(machines, resetAt, actionDoneAt));
      ctaJson.set(ctaId, `${machinesJson}}${json.slice(listsStart, listsEnd)}`);
    } while (scan.pass(','));
  }
  if (!scan.pass('],"tags":[')) return null;
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
  return { state: { ctas, tags }, json: { cta: (ctaId) => ctaJson.get(ctaId), tag: (name) => tagJson.get(name) } };
}

const CREATED_AT_KEY = '"createdAt"';

/** A cursor over a stored document without escapes (scanUserState): each method passes what it reads, or answers that it could not. */
class DocumentScan {
  position = 0;

  constructor(private readonly text: string) {}

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

  /** Passes the machine object here, its nested values skipped; its top-level `createdAt` when that is a finite number, else undefined. */
  machineCreatedAt(): number | undefined {
    const text = this.text;
    if (text.charCodeAt(this.position) !== OPEN_BRACE) return undefined;
    let createdAt: number | undefined;
    let at = this.position + 1;
    if (text.charCodeAt(at) !== CLOSE_BRACE) {
      for (;;) {
        if (text.charCodeAt(at) !== QUOTE) return undefined;
        const keyEnd = text.indexOf('"', at + 1) + 1;
        if (keyEnd === 0 || text.charCodeAt(keyEnd) !== COLON) return undefined;
        const valueStart = keyEnd + 1;
        const end = valueEnd(text, valueStart);
        if (keyEnd - at === CREATED_AT_KEY.length && text.startsWith(CREATED_AT_KEY, at)) {
          const number = text.charCodeAt(valueStart) === QUOTE ? Number.NaN : Number(text.slice(valueStart, end));
          createdAt = Number.isFinite(number) ? number : undefined;
        }
        at = end;
        if (text.charCodeAt(at) !== COMMA) break;
        at++;
      }
      if (text.charCodeAt(at) !== CLOSE_BRACE) return undefined;
    }
    this.position = at + 1;
    return createdAt;
  }
}

/**
 * A scanned CTA's state whose lists are parsed from their stored text only when read: a launch that
 * prunes nothing reads the machines (their age) and never the lists, unless the exposure cap counts them.
 */
class ScannedCtaState implements CtaState<MachineAge> {
  private resetAtList: number[] | undefined;
  private actionDoneAtList: number[] | undefined;

  constructor(
    readonly activeStateMachines: Map<string, MachineAge>,
    private readonly resetAtJson: string,
    private readonly actionDoneAtJson: string,
  ) {}

  get resetAt(): number[] {
    return (this.resetAtList ??= JSON.parse(this.resetAtJson) as number[]);
  }

  set resetAt(list: number[]) {
    this.resetAtList = list;
  }

  get actionDoneAt(): number[] {
    return (this.actionDoneAtList ??= JSON.parse(this.actionDoneAtJson) as number[]);
  }

  set actionDoneAt(list: number[]) {
    this.actionDoneAtList = list;
  }
}

/** A scanned tag's state: its active CTAs (the pruning reads them), its resets parsed only when read. */
class ScannedTagState implements TagState {
  private ctasResetAtList: CtaResetAt[] | undefined;

  constructor(
    public activeCtas: string[],
    private readonly ctasResetAtJson: string,
  ) {}

  get ctasResetAt(): CtaResetAt[] {
    return (this.ctasResetAtList ??= JSON.parse(this.ctasResetAtJson) as CtaResetAt[]);
  }

  set ctasResetAt(list: CtaResetAt[]) {
    this.ctasResetAtList = list;
  }
}
