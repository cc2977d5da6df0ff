import { invalidRequest } from '../common/domain-error';
import { joinProblems, pathTo, Problem } from '../common/problems';
import { parseCtaIdValue } from '../common/cta-id';
import { EXPERIMENT_ARMS, ExperimentArm } from '../serving/experiment-arm';
import { DEFAULT_ENGINE, DEVICE_ENGINES, DeviceEngine, JourneyEvent, JourneyState, SimulatedMachine } from './journey-simulator';

/**
 * The body of `POST /ctas/simulate`: `{"cta": <a CTA create body> | {"id": n}, "state"?, "events", "engine"?, "arm"?}`,
 * checked by hand so that every problem is named at its path (`events[3].at`) in one 400.
 */

export const MAX_SIMULATED_EVENTS = 1000;
/** A device holds far fewer; the caps keep one request's work bounded. */
export const MAX_PRIOR_MACHINES = 1000;
export const MAX_PRIOR_LIST_ENTRIES = 10_000;
export const MAX_EVENT_NAME_LENGTH = 255;

const EVENT_FIELDS = ['eventName', 'properties', 'at', 'appVersion', 'packageName', 'platform'];
const STATE_FIELDS = ['activeStateMachines', 'resetAt', 'actionDoneAt'];

export type SimulatedCtaRequest = { id: number } | { body: Record<string, unknown> };

export interface SimulateRequest {
  cta: SimulatedCtaRequest;
  state: JourneyState;
  events: JourneyEvent[];
  engine: DeviceEngine;
  /** The arm of the CTA's experiment to run (docs/experiments.md): the holdout runs the holdout variant. */
  arm: ExperimentArm;
}

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const isEpochMs = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;
const shown = (value: unknown): string => JSON.stringify(value) ?? 'undefined';

class RequestReader {
  readonly problems: Problem[] = [];

  problem(path: string, message: string): void {
    this.problems.push({ path, message });
  }

  /** Keys of `object` outside `fields`, each a problem. */
  onlyFields(object: Json, fields: readonly string[], path: string, what: string): void {
    for (const key of Object.keys(object)) {
      if (!fields.includes(key)) this.problem(pathTo(path, key), `is not a field of ${what} (${fields.join(', ')})`);
    }
  }

  cta(value: unknown): SimulatedCtaRequest | null {
    if (!isObject(value)) {
      this.problem('cta', value === undefined ? 'is required' : 'must be an object: a CTA create body, or {"id": <CTA id>}');
      return null;
    }
    if (!Object.hasOwn(value, 'id')) {
      return { body: value };
    }
    this.onlyFields(value, ['id'], 'cta', 'a CTA named by id');
    const id = parseCtaIdValue(value.id);
    if (id === null) this.problem('cta.id', `must be a CTA id (a positive integer), not ${shown(value.id)}`);
    return id === null ? null : { id };
  }

  times(value: unknown, path: string): number[] {
    if (value === undefined || value === null) return [];
    if (!Array.isArray(value)) {
      this.problem(path, 'must be an array of epoch milliseconds');
      return [];
    }
    if (value.length > MAX_PRIOR_LIST_ENTRIES) {
      this.problem(path, `holds ${value.length} entries, at most ${MAX_PRIOR_LIST_ENTRIES}`);
      return [];
    }
    value.forEach((time, index) => {
      if (!isEpochMs(time)) this.problem(pathTo(path, index), `must be epoch milliseconds (an integer ≥ 0), not ${shown(time)}`);
    });
    return value as number[];
  }

  machine(value: unknown, path: string): SimulatedMachine | null {
    if (!isObject(value)) {
      this.problem(path, 'must be an object: {currentState, createdAt, lastTransitionAt, context?}');
      return null;
    }
    const { currentState, createdAt, context } = value;
    const lastTransitionAt = value.lastTransitionAt ?? createdAt;
    if (typeof currentState !== 'string')
      this.problem(pathTo(path, 'currentState'), `must be a state (a string such as "1"), not ${shown(currentState)}`);
    if (!isEpochMs(createdAt)) this.problem(pathTo(path, 'createdAt'), `must be epoch milliseconds, not ${shown(createdAt)}`);
    if (!isEpochMs(lastTransitionAt))
      this.problem(pathTo(path, 'lastTransitionAt'), `must be epoch milliseconds, not ${shown(lastTransitionAt)}`);
    if (context !== undefined && context !== null && !isObject(context)) this.problem(pathTo(path, 'context'), 'must be an object');
    return { ...value, lastTransitionAt, context: isObject(context) ? context : {} } as SimulatedMachine;
  }

  state(value: unknown): JourneyState {
    const state: JourneyState = { activeStateMachines: new Map(), resetAt: [], actionDoneAt: [] };
    if (value === undefined || value === null) return state;
    if (!isObject(value)) {
      this.problem('state', 'must be an object: {activeStateMachines?, resetAt?, actionDoneAt?}');
      return state;
    }
    this.onlyFields(value, STATE_FIELDS, 'state', 'the state');
    const machines = value.activeStateMachines;
    if (machines !== undefined && machines !== null) {
      const entries = isObject(machines) ? Object.entries(machines) : [];
      if (!isObject(machines)) this.problem('state.activeStateMachines', 'must be an object: {machineId: machine}');
      else if (entries.length > MAX_PRIOR_MACHINES) {
        this.problem('state.activeStateMachines', `holds ${entries.length} machines, at most ${MAX_PRIOR_MACHINES}`);
      } else {
        for (const [id, machine] of entries) {
          const read = this.machine(machine, pathTo('state.activeStateMachines', id));
          if (read) state.activeStateMachines.set(id, read);
        }
      }
    }
    state.resetAt = this.times(value.resetAt, 'state.resetAt');
    state.actionDoneAt = this.times(value.actionDoneAt, 'state.actionDoneAt');
    return state;
  }

  event(value: unknown, path: string, defaultAt: number): JourneyEvent | null {
    if (!isObject(value)) {
      this.problem(path, 'must be an object: {eventName, properties?, at?, appVersion?, packageName?, platform?}');
      return null;
    }
    this.onlyFields(value, EVENT_FIELDS, path, 'an event');
    const { eventName, properties, at } = value;
    if (typeof eventName !== 'string' || eventName === '' || eventName.length > MAX_EVENT_NAME_LENGTH) {
      this.problem(pathTo(path, 'eventName'), `must be a string of 1-${MAX_EVENT_NAME_LENGTH} characters, not ${shown(eventName)}`);
    }
    if (properties !== undefined && properties !== null && !isObject(properties)) {
      this.problem(pathTo(path, 'properties'), 'must be an object: {propertyName: value}');
    }
    if (at !== undefined && !isEpochMs(at))
      this.problem(pathTo(path, 'at'), `must be epoch milliseconds (an integer ≥ 0), not ${shown(at)}`);
    const event: JourneyEvent = {
      eventName: eventName as string,
      properties: isObject(properties) ? properties : {},
      at: isEpochMs(at) ? at : defaultAt,
    };
    for (const field of ['appVersion', 'packageName', 'platform'] as const) {
      const device = value[field];
      if (device === undefined || device === null) continue;
      if (typeof device === 'string') event[field] = device;
      else this.problem(pathTo(path, field), `must be a string, not ${shown(device)}`);
    }
    return event;
  }

  engine(value: unknown): DeviceEngine {
    if (value === undefined || value === null) return DEFAULT_ENGINE;
    if (DEVICE_ENGINES.includes(value as DeviceEngine)) return value as DeviceEngine;
    this.problem('engine', `must be ${DEVICE_ENGINES.map(shown).join(' or ')} (default ${shown(DEFAULT_ENGINE)}), not ${shown(value)}`);
    return DEFAULT_ENGINE;
  }

  arm(value: unknown): ExperimentArm {
    if (value === undefined || value === null) return 'treatment';
    if (EXPERIMENT_ARMS.includes(value as ExperimentArm)) return value as ExperimentArm;
    this.problem('arm', `must be ${EXPERIMENT_ARMS.map(shown).join(' or ')} (default "treatment"), not ${shown(value)}`);
    return 'treatment';
  }

  events(value: unknown, now: number): JourneyEvent[] {
    if (!Array.isArray(value) || value.length === 0 || value.length > MAX_SIMULATED_EVENTS) {
      const found = Array.isArray(value) ? `${value.length} events` : value === undefined ? 'nothing' : shown(value);
      this.problem('events', `must be an array of 1 to ${MAX_SIMULATED_EVENTS} events, not ${found}`);
      return [];
    }
    const events: JourneyEvent[] = [];
    value.forEach((item, index) => {
      const event = this.event(item, pathTo('events', index), now + index);
      const previous = events.at(-1);
      if (event && previous && event.at < previous.at) {
        this.problem(
          pathTo(pathTo('events', index), 'at'),
          `${event.at} is before the previous event's ${previous.at}: events come in time order`,
        );
      }
      if (event) events.push(event);
    });
    return events;
  }
}

/**
 * The request, or a 400 INVALID_REQUEST naming every problem. An event without `at` happens at
 * `now` plus its index in milliseconds.
 */
export function parseSimulateRequest(body: unknown, now: number): SimulateRequest {
  if (!isObject(body)) {
    throw invalidRequest(
      'the body must be a JSON object: {"cta": <a CTA create body> | {"id": <CTA id>}, "state"?, "events": [...], "engine"?, "arm"?}',
    );
  }
  const reader = new RequestReader();
  reader.onlyFields(body, ['cta', 'state', 'events', 'engine', 'arm'], '', 'the request');
  const cta = reader.cta(body.cta);
  const state = reader.state(body.state);
  const events = reader.events(body.events, now);
  const engine = reader.engine(body.engine);
  const arm = reader.arm(body.arm);
  if (reader.problems.length > 0 || cta === null) {
    throw invalidRequest(joinProblems(reader.problems));
  }
  return { cta, state, events, engine, arm };
}
