import type { CtaResetAt, SnapshotRequest, StateMachine } from './snapshot-request';

/**
 * One app user's stored state in one tenant (DESIGN §11), and the merge and
 * pruning rules on it. Kept as one document per (tenant, user) so a launch
 * reads it with one primary-key lookup and a merge rewrites it with one
 * conditional statement. Keys that come from clients (state-machine keys, tag
 * names) live in Maps, never as plain-object keys, so `__proto__` is just a name.
 */

/** Lists are capped at the newest entries (DESIGN §11). */
export const MAX_LIST_ENTRIES = 1000;

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

/** What the rules need to know about the tenant's catalogue. */
export interface StateCatalogue {
  /** `stateMachineTTL` of a CTA whose users keep state (live or paused, DESIGN §11 step 4); else undefined. */
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

export function serializeUserState(state: UserState): string {
  const document: StoredDocument = {
    ctas: [...state.ctas].map(([ctaId, cta]) => [
      ctaId,
      { activeStateMachines: [...cta.activeStateMachines], resetAt: cta.resetAt, actionDoneAt: cta.actionDoneAt },
    ]),
    tags: [...state.tags],
  };
  return JSON.stringify(document);
}

/** The newest `MAX_LIST_ENTRIES` of a list, in the order sent; `newness` ranks entries (default: position). */
function newest<T>(list: T[], newness?: (entry: T) => number): T[] {
  if (list.length <= MAX_LIST_ENTRIES) {
    return list;
  }
  if (!newness) {
    return list.slice(list.length - MAX_LIST_ENTRIES);
  }
  const threshold = list.map(newness).sort((a, b) => b - a)[MAX_LIST_ENTRIES - 1];
  let keepAtThreshold = MAX_LIST_ENTRIES - list.filter((entry) => newness(entry) > threshold).length;
  return list.filter((entry) => newness(entry) > threshold || (newness(entry) === threshold && keepAtThreshold-- > 0));
}

const byValue = (value: number): number => value;

/**
 * Merges a validated request into `state` (DESIGN §11): `reset: true` deletes a
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
      ctasResetAt: snapshot.ctasResetAt ? newest(snapshot.ctasResetAt, (entry) => entry.resetAt) : stored.ctasResetAt,
    });
  }
  return counts;
}

/**
 * Drops what a launch must not serve and need not keep (DESIGN §11 step 4):
 * machines whose `createdAt + stateMachineTTL <= now`, the state of CTAs that
 * are neither live nor paused (or no longer exist), state of unknown tags, and
 * entries left empty. Answers whether anything was dropped.
 */
export function pruneUserState(state: UserState, catalogue: StateCatalogue, now: number): boolean {
  const sizeBefore = state.ctas.size + state.tags.size;
  let machinesDropped = false;
  for (const [ctaId, cta] of state.ctas) {
    const ttl = catalogue.stateTtlOf(ctaId, now);
    if (ttl === undefined) {
      state.ctas.delete(ctaId);
      continue;
    }
    for (const [key, machine] of cta.activeStateMachines) {
      if (machine.createdAt + ttl <= now) {
        cta.activeStateMachines.delete(key);
        machinesDropped = true;
      }
    }
    if (cta.activeStateMachines.size === 0 && cta.resetAt.length === 0 && cta.actionDoneAt.length === 0) {
      state.ctas.delete(ctaId);
    }
  }
  for (const [name, tag] of state.tags) {
    if (!catalogue.hasTag(name) || (tag.activeCtas.length === 0 && tag.ctasResetAt.length === 0)) {
      state.tags.delete(name);
    }
  }
  return machinesDropped || state.ctas.size + state.tags.size !== sizeBefore;
}

/** `{"key":machine,…}` in stored order; built by hand so any key (even `__proto__`) round-trips. */
export function stateMachinesJson(machines: Map<string, StateMachine> | undefined): string {
  if (!machines || machines.size === 0) {
    return '{}';
  }
  let json = '{';
  for (const [key, machine] of machines) {
    json += `${json.length > 1 ? ',' : ''}${JSON.stringify(key)}:${JSON.stringify(machine)}`;
  }
  return `${json}}`;
}
