import { DomainError, invalidRequest } from '../common/domain-error';
import { MAX_PROBLEMS_NAMED } from '../common/problems';
import { reportedCtaId } from '../common/cta-id';

/**
 * The body of the SDK launch and delta calls (seed "Client snapshots"), validated
 * by hand on the hot path instead of through a ValidationPipe (docs/decisions/0006-user-state-merge.md):
 * types are exact (longs are JSON numbers, `reset` a boolean), CTA ids come as
 * decimal strings or integers and are kept as canonical strings. An optional
 * field sent as `null` reads as absent (SDKs built on Jackson send nulls). A malformed body is answered
 * with the seed's "invalid request" followed by its problems at their paths, up to 20.
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

/** The start of every malformed SDK body's message (seed: "invalid request"); its problems follow. */
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
const absent = (value: unknown): boolean => value === undefined || value === null;

const OBJECT = 'must be an object';
const ARRAY = 'must be an array';
const STRING = 'must be a string';
const LONG = 'must be an integer (epoch milliseconds)';
const CTA_ID = 'must be a CTA id (an integer, or its decimal string)';

/**
 * The problems of one body, each at its path. Paths are built only for a problem, so a valid body costs
 * what the checks cost; at the 21st problem the reading stops (with "and more"), so a malformed body
 * costs no more than a valid one.
 */
class Problems {
  private readonly named: string[] = [];

  add(path: string, problem: string): void {
    if (this.named.length === MAX_PROBLEMS_NAMED) throw this.refusal('; and more');
    this.named.push(`${path} ${problem}`);
  }

  /** INVALID_REQUEST naming them, when there are any. */
  check(): void {
    if (this.named.length > 0) throw this.refusal('');
  }

  private refusal(more: string): DomainError {
    return invalidRequest(`${INVALID}: ${this.named.join('; ')}${more}`);
  }
}

/**
 * An optional list of at most `max` entries (absent or null: undefined), each entry checked in place; `path`
 * is asked for only when there is a problem. Over the cap, the entries are not looked at.
 */
function optionalList(
  value: unknown,
  max: number,
  problems: Problems,
  path: () => string,
  entry: (item: unknown, index: number) => void,
): unknown[] | undefined {
  if (absent(value)) return undefined;
  if (!Array.isArray(value)) {
    problems.add(path(), ARRAY);
    return undefined;
  }
  if (value.length > max) {
    problems.add(path(), `holds ${value.length} entries, at most ${max} are allowed`);
    return undefined;
  }
  for (let index = 0; index < value.length; index++) entry(value[index], index);
  return value;
}

/** A list of epoch milliseconds, checked in place (a body's lists are the largest part of it). */
function longs(value: unknown, problems: Problems, path: () => string): number[] | undefined {
  return optionalList(value, MAX_SNAPSHOT_LIST_ENTRIES, problems, path, (item, index) => {
    if (!Number.isSafeInteger(item)) problems.add(`${path()}[${index}]`, LONG);
  }) as number[] | undefined;
}

/** The machine of `key` in the snapshot at `at` (the path of its activeStateMachines). */
function stateMachine(value: unknown, problems: Problems, at: string, key: string): IncomingStateMachine {
  if (!isObject(value)) {
    problems.add(`${at}.${key}`, OBJECT);
    return { machine: value as StateMachine, reset: false };
  }
  const { reset, ...fields } = value;
  if (typeof fields.currentState !== 'string') problems.add(`${at}.${key}.currentState`, STRING);
  if (!Number.isSafeInteger(fields.lastTransitionAt)) problems.add(`${at}.${key}.lastTransitionAt`, LONG);
  if (!Number.isSafeInteger(fields.createdAt)) problems.add(`${at}.${key}.createdAt`, LONG);
  if (fields.context === null) {
    delete fields.context;
  } else if (fields.context !== undefined && !isObject(fields.context)) {
    problems.add(`${at}.${key}.context`, OBJECT);
  }
  if (!absent(reset) && typeof reset !== 'boolean') problems.add(`${at}.${key}.reset`, 'must be a boolean');
  return { machine: fields as StateMachine, reset: reset === true };
}

function ctaSnapshot(value: unknown, index: number, problems: Problems): CtaSnapshot {
  const path = `ctas[${index}]`;
  const machines = new Map<string, IncomingStateMachine>();
  if (!isObject(value)) {
    problems.add(path, OBJECT);
    return { ctaId: '', activeStateMachines: machines };
  }
  const ctaId = reportedCtaId(value.ctaId);
  if (ctaId === null) problems.add(`${path}.ctaId`, CTA_ID);
  const at = `${path}.activeStateMachines`;
  if (!isObject(value.activeStateMachines)) {
    problems.add(at, OBJECT);
  } else {
    const entries = Object.entries(value.activeStateMachines);
    if (entries.length > MAX_STATE_MACHINES_PER_SNAPSHOT) {
      problems.add(at, `holds ${entries.length} state machines, at most ${MAX_STATE_MACHINES_PER_SNAPSHOT} are allowed`);
    } else {
      for (const [key, machine] of entries) machines.set(key, stateMachine(machine, problems, at, key));
    }
  }
  return {
    ctaId: ctaId ?? '',
    activeStateMachines: machines,
    resetAt: longs(value.resetAt, problems, () => `${path}.resetAt`),
    actionDoneAt: longs(value.actionDoneAt, problems, () => `${path}.actionDoneAt`),
  };
}

function tagSnapshot(value: unknown, index: number, problems: Problems): BehaviourTagSnapshot {
  const path = `behaviourTags[${index}]`;
  if (!isObject(value)) {
    problems.add(path, OBJECT);
    return { behaviourTagName: '' };
  }
  if (typeof value.behaviourTagName !== 'string') problems.add(`${path}.behaviourTagName`, STRING);
  const exposureRule = optionalObject(value.exposureRule, problems, `${path}.exposureRule`);
  const ctaRelation = optionalObject(value.ctaRelation, problems, `${path}.ctaRelation`);
  const resetsPath = () => `${path}.exposureRule.ctasResetAt`;
  const ctasResetAt: CtaResetAt[] = [];
  const resets = optionalList(exposureRule?.ctasResetAt, MAX_SNAPSHOT_LIST_ENTRIES, problems, resetsPath, (entry, at) => {
    if (!isObject(entry)) return problems.add(`${resetsPath()}[${at}]`, OBJECT);
    const ctaId = reportedCtaId(entry.ctaId);
    if (ctaId === null) problems.add(`${resetsPath()}[${at}].ctaId`, CTA_ID);
    if (!Number.isSafeInteger(entry.resetAt)) problems.add(`${resetsPath()}[${at}].resetAt`, LONG);
    ctasResetAt.push({ ctaId: ctaId ?? '', resetAt: entry.resetAt as number });
  });
  const activePath = () => `${path}.ctaRelation.activeCtas`;
  const activeCtas: string[] = [];
  const active = optionalList(ctaRelation?.activeCtas, MAX_SNAPSHOT_LIST_ENTRIES, problems, activePath, (id, at) => {
    const ctaId = reportedCtaId(id);
    if (ctaId === null) problems.add(`${activePath()}[${at}]`, CTA_ID);
    activeCtas.push(ctaId ?? '');
  });
  return {
    behaviourTagName: value.behaviourTagName as string,
    ctasResetAt: resets === undefined ? undefined : ctasResetAt,
    activeCtas: active === undefined ? undefined : activeCtas,
  };
}

/** An optional object (absent or null: undefined). */
function optionalObject(value: unknown, problems: Problems, path: string): Json | undefined {
  if (absent(value)) return undefined;
  if (isObject(value)) return value;
  problems.add(path, OBJECT);
  return undefined;
}

/** Validates the whole body before anything is merged; no body at all is an empty request. */
export function parseSnapshotRequest(body: unknown): SnapshotRequest {
  if (absent(body)) {
    return { ctas: [], behaviourTags: [] };
  }
  const problems = new Problems();
  if (!isObject(body)) {
    problems.add('the body', 'must be a JSON object');
    problems.check();
  }
  const request = body as Json;
  const ctas: CtaSnapshot[] = [];
  const behaviourTags: BehaviourTagSnapshot[] = [];
  optionalList(
    request.ctas,
    MAX_CTA_SNAPSHOTS,
    problems,
    () => 'ctas',
    (snapshot, index) => ctas.push(ctaSnapshot(snapshot, index, problems)),
  );
  optionalList(
    request.behaviourTags,
    MAX_TAG_SNAPSHOTS,
    problems,
    () => 'behaviourTags',
    (snapshot, index) => behaviourTags.push(tagSnapshot(snapshot, index, problems)),
  );
  problems.check();
  return { ctas, behaviourTags };
}
