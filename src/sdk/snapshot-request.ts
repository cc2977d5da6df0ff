import { invalidRequest } from '../common/domain-error';
import { reportedCtaId } from '../ctas/cta-id';

/**
 * The body of the SDK launch and delta calls (seed "Client snapshots"), validated
 * by hand on the hot path instead of through a ValidationPipe (docs/decisions/0006-user-state-merge.md):
 * types are exact (longs are JSON numbers, `reset` a boolean), CTA ids come as
 * decimal strings or integers and are kept as canonical strings. An optional
 * field sent as `null` reads as absent (SDKs built on Jackson send nulls).
 */

export interface StateMachine {
  currentState: string;
  lastTransitionAt: number;
  createdAt: number;
  /** Other keys (`context`, newer SDKs' fields) are kept as sent. */
  [key: string]: unknown;
}

export interface IncomingStateMachine {
  machine: StateMachine;
  reset: boolean;
}

export interface CtaSnapshot {
  ctaId: string;
  activeStateMachines: Map<string, IncomingStateMachine>;
  resetAt?: number[];
  actionDoneAt?: number[];
}

export interface CtaResetAt {
  ctaId: string;
  resetAt: number;
}

export interface BehaviourTagSnapshot {
  behaviourTagName: string;
  ctasResetAt?: CtaResetAt[];
  activeCtas?: string[];
}

export interface SnapshotRequest {
  ctas: CtaSnapshot[];
  behaviourTags: BehaviourTagSnapshot[];
}

/** The one message of every malformed SDK body (seed: "invalid request"). */
const INVALID = 'invalid request';

/**
 * Caps on the lists of one body, so a single request cannot make the service
 * hold or write an unbounded number of rows (the body limit alone allows
 * tens of thousands of tiny entries). A device tracks far fewer.
 */
export const MAX_CTA_SNAPSHOTS = 1000;
export const MAX_TAG_SNAPSHOTS = 1000;
export const MAX_STATE_MACHINES_PER_SNAPSHOT = 1000;
/** Entries of one resetAt, actionDoneAt, ctasResetAt or activeCtas list; the merge keeps the newest MAX_STORED_LIST_ENTRIES of them anyway. */
export const MAX_SNAPSHOT_LIST_ENTRIES = 10_000;

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

function fail(): never {
  throw invalidRequest(INVALID);
}

function object(value: unknown): Json {
  return isObject(value) ? value : fail();
}

function array(value: unknown): unknown[] {
  return Array.isArray(value) ? value : fail();
}

/** An array of at most `max` entries; over the cap the message says which list and the cap. */
function capped(value: unknown, max: number, what: string): unknown[] {
  const list = array(value);
  if (list.length > max) {
    throw invalidRequest(`${INVALID}: ${what} holds ${list.length} entries, at most ${max} are allowed`);
  }
  return list;
}

function long(value: unknown): number {
  return Number.isSafeInteger(value) ? (value as number) : fail();
}

function string(value: unknown): string {
  return typeof value === 'string' ? value : fail();
}

/** A CTA id as sent (`"12"` or `12`) → `"12"`. */
const snapshotCtaId = (value: unknown): string => reportedCtaId(value) ?? fail();

/** `undefined` for an absent or null optional field, else the field checked by `read`. */
function optional<T>(value: unknown, read: (value: unknown) => T): T | undefined {
  return value === undefined || value === null ? undefined : read(value);
}

/** A list of longs, checked in place (the list itself: a body's lists are the largest part of it). */
const longs =
  (what: string) =>
  (value: unknown): number[] => {
    const list = capped(value, MAX_SNAPSHOT_LIST_ENTRIES, what);
    list.forEach(long);
    return list as number[];
  };

function stateMachine(value: unknown): IncomingStateMachine {
  const { reset, ...fields } = object(value);
  string(fields.currentState);
  long(fields.lastTransitionAt);
  long(fields.createdAt);
  optional(fields.context, object);
  if (fields.context === null) {
    delete fields.context;
  }
  return { machine: fields as StateMachine, reset: optional(reset, (flag) => (typeof flag === 'boolean' ? flag : fail())) ?? false };
}

function ctaSnapshot(value: unknown, index: number): CtaSnapshot {
  const snapshot = object(value);
  const entries = Object.entries(object(snapshot.activeStateMachines));
  if (entries.length > MAX_STATE_MACHINES_PER_SNAPSHOT) {
    throw invalidRequest(
      `${INVALID}: ctas[${index}].activeStateMachines holds ${entries.length} state machines, at most ${MAX_STATE_MACHINES_PER_SNAPSHOT} are allowed`,
    );
  }
  const machines = new Map<string, IncomingStateMachine>();
  for (const [key, machine] of entries) {
    machines.set(key, stateMachine(machine));
  }
  return {
    ctaId: snapshotCtaId(snapshot.ctaId),
    activeStateMachines: machines,
    resetAt: optional(snapshot.resetAt, longs(`ctas[${index}].resetAt`)),
    actionDoneAt: optional(snapshot.actionDoneAt, longs(`ctas[${index}].actionDoneAt`)),
  };
}

function ctaResetAt(value: unknown): CtaResetAt {
  const entry = object(value);
  return { ctaId: snapshotCtaId(entry.ctaId), resetAt: long(entry.resetAt) };
}

function tagSnapshot(value: unknown, index: number): BehaviourTagSnapshot {
  const snapshot = object(value);
  const exposureRule = optional(snapshot.exposureRule, object);
  const ctaRelation = optional(snapshot.ctaRelation, object);
  const path = `behaviourTags[${index}]`;
  return {
    behaviourTagName: string(snapshot.behaviourTagName),
    ctasResetAt: optional(exposureRule?.ctasResetAt, (list) =>
      capped(list, MAX_SNAPSHOT_LIST_ENTRIES, `${path}.exposureRule.ctasResetAt`).map(ctaResetAt),
    ),
    activeCtas: optional(ctaRelation?.activeCtas, (list) =>
      capped(list, MAX_SNAPSHOT_LIST_ENTRIES, `${path}.ctaRelation.activeCtas`).map(snapshotCtaId),
    ),
  };
}

/** Validates the whole body before anything is merged; no body at all is an empty request. */
export function parseSnapshotRequest(body: unknown): SnapshotRequest {
  if (body === undefined || body === null) {
    return { ctas: [], behaviourTags: [] };
  }
  const request = object(body);
  return {
    ctas: optional(request.ctas, (list) => capped(list, MAX_CTA_SNAPSHOTS, 'ctas').map(ctaSnapshot)) ?? [],
    behaviourTags: optional(request.behaviourTags, (list) => capped(list, MAX_TAG_SNAPSHOTS, 'behaviourTags').map(tagSnapshot)) ?? [],
  };
}
