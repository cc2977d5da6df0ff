import { describeInstant } from '../common/clock';
import { pathTo } from '../common/problems';
import type { CtaRule } from '../rule/rule.types';
import { capReached, countInWindow } from '../rule/device-caps';
import { DeviceEvent, deviceString, filtersPass } from '../rule/device-filters';

/** What a step holds before anything happens to it: no move, no action, no reset, not skipped. */
export const UNMOVED = { from: null, to: null, condition: null, action: null, reset: false, skipped: null } as const;

/**
 * One CTA's rule run over a sequence of app events in one app session, step by step as the mobile
 * SDK runs it (measured with the SDK's code; README "Support tools" lists what devices do that
 * one might not expect). Pure: the caller hands the prior state in and gets the final state back.
 *
 * Per event: the CTA is tried only when `stateTransition` names the event; it is skipped once
 * `ctaValidTill` has passed or a frequency cap is reached (caps count resets: lifeSpan and window
 * the stored ones and this session's, session only this session's), or when a `groupByKeys`
 * property is missing. The machine (the group-by values joined with `-`, else the CTA's own) is
 * created in state "0" before any condition is tried, while fewer than `maxActiveStateMachineCount`
 * exist; an existing one past `createdAt + stateMachineTTL` is deleted instead and the CTA skipped.
 * The first condition of `stateTransition[event][state]` whose filters pass is taken: its state's
 * action runs (and is recorded, shown or not), `contextParams` are copied from the event, and a
 * state of `resetStates` deletes the machine and records a reset. Devices never advance a machine's
 * `lastTransitionAt`.
 */

/**
 * The device engines the simulator can follow (docs/support-tools.md). They differ only in the
 * one-action-per-event gate (conditions leading to a state with an action are passed over once an
 * action was performed for the event): `newest`, what devices run from now on, keeps that flag in
 * the engine and clears it at every app event, so one CTA alone never meets it; `legacy` reads it
 * from the event object, so an app event carrying `actionDone: true` triggers it.
 */
export const DEVICE_ENGINES = ['newest', 'legacy'] as const;
export type DeviceEngine = (typeof DEVICE_ENGINES)[number];
export const DEFAULT_ENGINE: DeviceEngine = 'newest';

export const SKIP_CODES = [
  'NO_TRANSITION',
  'FILTERS_FAILED',
  'FREQUENCY_REACHED',
  'GROUP_KEY_MISSING',
  'MACHINE_CAP',
  'MACHINE_EXPIRED',
  'VALID_TILL_PASSED',
] as const;
export type SkipCode = (typeof SKIP_CODES)[number];
export type FrequencyCap = 'lifeSpan' | 'window' | 'session';

/** Why a shown-type action did not show. */
export const ACTION_NOT_SHOWN = ['CONTEXT_MISSING', 'EVENT_NAME_MISSING', 'UNKNOWN_TYPE'] as const;

export interface SimulatedMachine {
  currentState: string;
  lastTransitionAt: number;
  createdAt: number;
  context: Record<string, unknown>;
  /** Other keys of a prior machine are kept as sent. */
  [key: string]: unknown;
}

/** A user's state of the CTA, as a launch hands it to the device and as the device holds it after the events. */
export interface JourneyState {
  activeStateMachines: Map<string, SimulatedMachine>;
  resetAt: number[];
  actionDoneAt: number[];
}

export interface JourneyEvent {
  eventName: string;
  properties: Record<string, unknown>;
  /** Epoch ms: the device's clock when the event happens. */
  at: number;
  /** The device's own values, which it adds to every event as app_version, app_name and platform. */
  appVersion?: string;
  packageName?: string;
  platform?: string;
}

export interface JourneyCta {
  rule: CtaRule;
  /** `ctaValidTill`: the CTA's endTime (a test CTA's expiry), or null. */
  validTill: number | null;
  /** The machine id of a rule without groupByKeys: the CTA's id. */
  ownMachineId: string;
}

export interface StepAction {
  actionId: string;
  type: unknown;
  shown: boolean;
  reason?: (typeof ACTION_NOT_SHOWN)[number];
}

export interface StepSkip {
  code: SkipCode;
  message: string;
  cap?: FrequencyCap;
}

export interface JourneyStep {
  /** The event's index in the request. */
  event: number;
  eventName: string;
  /** Null when the CTA was not tried for the event, or no machine could be named (a group-by key missing). */
  machineId: string | null;
  /** The machine's state before the event; null without a machine. */
  from: string | null;
  /** Its state after: the state entered (also when that state resets the machine), else the unchanged one, else null. */
  to: string | null;
  /** JSON path of the condition taken, e.g. `rule.stateTransition.app_open.0[1]`. */
  condition: string | null;
  action: StepAction | null;
  /** The state entered is in resetStates: the machine is deleted and one reset recorded. */
  reset: boolean;
  skipped: StepSkip | null;
  /** The device created the machine during this event and holds it after it. */
  created?: true;
  /** The device deleted the machine without a reset (its stateMachineTTL ran out). */
  deleted?: true;
}

export interface JourneyResult {
  steps: JourneyStep[];
  state: JourneyState;
}

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** An own key's value (event names and states come from the rule: never Object.prototype's). */
const own = (object: unknown, key: string): unknown => (isObject(object) && Object.hasOwn(object, key) ? object[key] : undefined);

/**
 * A group-by value as it joins the machine id: `null` as the empty string (the device joins with
 * `Array.prototype.join`), anything else as `String(value)`; undefined for an absent key (or a
 * value JavaScript cannot make a string of).
 */
function machineIdPart(properties: Json, key: string): string | undefined {
  if (!Object.hasOwn(properties, key)) return undefined;
  const value = properties[key];
  return value === null ? '' : deviceString(value);
}

/** "1 reset", "2 resets": counts in messages. */
const counted = (count: number, noun: string): string => `${count} ${noun}${count === 1 ? '' : 's'}`;

/** The event as the device holds it: its properties, with the device's app name, platform and version written over theirs. */
function deviceEvent(event: JourneyEvent): DeviceEvent {
  const properties: Json = { ...event.properties };
  if (event.packageName !== undefined) properties.app_name = event.packageName;
  if (event.platform !== undefined) properties.platform = event.platform;
  if (event.appVersion !== undefined) properties.app_version = event.appVersion;
  return { properties, at: event.at };
}

class Journey {
  private readonly machines: Map<string, SimulatedMachine>;
  private readonly resetAt: number[];
  private readonly actionDoneAt: number[];
  private readonly sessionResets: number[] = [];

  constructor(
    private readonly cta: JourneyCta,
    prior: JourneyState,
    private readonly engine: DeviceEngine,
  ) {
    this.machines = new Map(
      [...prior.activeStateMachines].map(([id, machine]) => [id, { ...structuredClone(machine), context: { ...machine.context } }]),
    );
    this.resetAt = [...prior.resetAt];
    this.actionDoneAt = [...prior.actionDoneAt];
  }

  state(): JourneyState {
    return { activeStateMachines: this.machines, resetAt: this.resetAt, actionDoneAt: this.actionDoneAt };
  }

  step(event: JourneyEvent, index: number): JourneyStep {
    const { rule } = this.cta;
    const device = deviceEvent(event);
    const step: JourneyStep = { event: index, eventName: event.eventName, machineId: null, ...UNMOVED };
    const transitions = own(rule.stateTransition, event.eventName);
    if (!isObject(transitions)) {
      return skip(
        step,
        'NO_TRANSITION',
        `rule.stateTransition has no event ${JSON.stringify(event.eventName)}: the CTA is not tried for it`,
      );
    }
    const machineId = this.machineIdOf(device);
    const existing = machineId === null ? undefined : this.machines.get(machineId);
    step.machineId = machineId;
    step.from = step.to = existing?.currentState ?? null;
    const blocked = this.blockedAt(event.at);
    if (blocked) {
      return { ...step, skipped: blocked };
    }
    if (machineId === null) {
      const unread = (rule.groupByConfig?.groupByKeys ?? []).filter((key) => machineIdPart(device.properties, key) === undefined);
      const names = (keys: string[]): string => keys.map((key) => JSON.stringify(key)).join(', ');
      const absent = unread.filter((key) => !Object.hasOwn(device.properties, key));
      const unreadable = unread.filter((key) => Object.hasOwn(device.properties, key));
      const why = [
        absent.length > 0 && `the event has no ${names(absent)}`,
        unreadable.length > 0 && `the event's ${names(unreadable)} cannot be made a string`,
      ].filter(Boolean);
      return skip(step, 'GROUP_KEY_MISSING', `${why.join('; ')} (groupByKeys)`);
    }
    let machine = existing;
    let created = false;
    if (!machine) {
      const max = rule.groupByConfig?.maxActiveStateMachineCount;
      if (max !== undefined && this.machines.size >= max) {
        return skip(step, 'MACHINE_CAP', `${counted(this.machines.size, 'machine')} active, at most ${max} (maxActiveStateMachineCount)`);
      }
      machine = { currentState: '0', lastTransitionAt: event.at, createdAt: event.at, context: {} };
      this.machines.set(machineId, machine);
      created = true;
    } else if (machine.createdAt + rule.stateMachineTTL < event.at) {
      this.machines.delete(machineId);
      const expiredAt = describeInstant(machine.createdAt + rule.stateMachineTTL);
      return {
        ...skip({ ...step, to: null }, 'MACHINE_EXPIRED', `the machine expired at ${expiredAt} (createdAt + stateMachineTTL)`),
        deleted: true,
      };
    }
    step.to = machine.currentState;
    const taken = this.transition(step, machineId, machine, device);
    return created && this.machines.has(machineId) ? { ...taken, created: true } : taken;
  }

  /**
   * The group-by values joined with `-`, the CTA's own id without groupByKeys; null when the event
   * lacks one of them (a key whose value is null is present: keys ["n", "b"] and {n: null, b: false} make "-false").
   */
  private machineIdOf(event: DeviceEvent): string | null {
    const keys = this.cta.rule.groupByConfig?.groupByKeys ?? [];
    if (keys.length === 0) return this.cta.ownMachineId;
    const parts = keys.map((key) => machineIdPart(event.properties, key));
    return parts.every((part) => part !== undefined) ? parts.join('-') : null;
  }

  /** ctaValidTill passed, or a frequency cap reached; null when the CTA may act. */
  private blockedAt(at: number): StepSkip | null {
    const { rule, validTill } = this.cta;
    if (validTill !== null && at > validTill) {
      return { code: 'VALID_TILL_PASSED', message: `ctaValidTill ${describeInstant(validTill)} has passed` };
    }
    const { lifeSpan, window, session } = rule.frequency;
    const reached = (cap: FrequencyCap, limit: number | undefined, count: number, over: string): StepSkip | null =>
      capReached(limit, count)
        ? { code: 'FREQUENCY_REACHED', message: `the ${cap} limit ${limit} is reached: ${counted(count, 'reset')} ${over}`, cap }
        : null;
    return (
      reached('lifeSpan', lifeSpan?.limit, this.resetAt.length, 'in all') ??
      (window
        ? reached(
            'window',
            window.limit,
            countInWindow(this.resetAt, window, at),
            `in the last ${counted(window.value, window.unit.slice(0, -1))}`,
          )
        : null) ??
      reached('session', session?.limit, this.sessionResets.length, 'in this session')
    );
  }

  /** Tries the conditions of the machine's state in order and takes the first that passes. */
  private transition(step: JourneyStep, machineId: string, machine: SimulatedMachine, event: DeviceEvent): JourneyStep {
    const { rule } = this.cta;
    const state = machine.currentState;
    const conditions = own(own(rule.stateTransition, step.eventName), state);
    if (!Array.isArray(conditions) || conditions.length === 0) {
      return skip(step, 'NO_TRANSITION', `rule.stateTransition.${step.eventName} has no condition for state ${JSON.stringify(state)}`);
    }
    // Once an action was performed for this event, conditions leading to an acting state are passed over. Only the
    // legacy engine reads that flag off the event object; the newest one clears its own at every event.
    const actionDone = this.engine === 'legacy' && Boolean(own(event.properties, 'actionDone'));
    const index = conditions.findIndex((condition: unknown) => {
      const target = String(own(condition, 'transitionTo'));
      return !(actionDone && own(rule.stateToAction, target) !== undefined) && filtersPass(own(condition, 'filters'), event);
    });
    if (index < 0) {
      const why = actionDone
        ? ' (the event carries actionDone, which the legacy engine reads: conditions leading to a state with an action are passed over)'
        : '';
      return skip(
        step,
        'FILTERS_FAILED',
        `no condition for state ${JSON.stringify(state)} passed (${counted(conditions.length, 'condition')} tried)${why}`,
      );
    }
    const target = String(own(conditions[index], 'transitionTo'));
    machine.currentState = target;
    for (const key of rule.contextParams ?? []) {
      if (Object.hasOwn(event.properties, key)) machine.context[key] = event.properties[key];
    }
    const condition = pathTo(pathTo(pathTo('rule.stateTransition', step.eventName), state), index);
    const action = this.act(target, machine, event.at);
    const reset = (rule.resetStates ?? []).includes(target);
    if (reset) {
      this.machines.delete(machineId);
      this.resetAt.push(event.at);
      this.sessionResets.push(event.at);
    }
    return { ...step, to: target, condition, action, reset };
  }

  /** The action of the state entered, if it has one: recorded in actionDoneAt whether it shows or not. */
  private act(state: string, machine: SimulatedMachine, at: number): StepAction | null {
    const { rule } = this.cta;
    const actionId = own(rule.stateToAction, state);
    if (typeof actionId !== 'string') return null;
    this.actionDoneAt.push(at);
    const action = rule.actions.find((candidate) => candidate.actionId === actionId);
    const type = action?.type;
    switch (type) {
      case 'NUDGE_UI':
      case 'POPUP': {
        const complete = (rule.contextParams ?? []).every((key) => Object.hasOwn(machine.context, key));
        return complete ? { actionId, type, shown: true } : { actionId, type, shown: false, reason: 'CONTEXT_MISSING' };
      }
      case 'NUDGE_ACTION': {
        const eventName = own(action?.template, 'eventName');
        return typeof eventName === 'string' && eventName !== ''
          ? { actionId, type, shown: true }
          : { actionId, type, shown: false, reason: 'EVENT_NAME_MISSING' };
      }
      case 'TOOLTIP':
        return { actionId, type, shown: true };
      default:
        return { actionId, type, shown: false, reason: 'UNKNOWN_TYPE' };
    }
  }
}

function skip(step: JourneyStep, code: SkipCode, message: string): JourneyStep {
  return { ...step, skipped: { code, message } };
}

/** Runs `events` (their `at` non-decreasing) through the CTA from the `prior` state, as `engine` does; `prior` is not changed. */
export function simulateJourney(
  cta: JourneyCta,
  prior: JourneyState,
  events: readonly JourneyEvent[],
  engine: DeviceEngine = DEFAULT_ENGINE,
): JourneyResult {
  const journey = new Journey(cta, prior, engine);
  const steps = events.map((event, index) => journey.step(event, index));
  return { steps, state: journey.state() };
}
