import { pathTo as at, Problem } from '../common/problems';
import { ALL_USERS_COHORT, type PropertyType } from './rule.types';

/**
 * What create accepts but an operator should see before going live (docs/decisions/0003-device-rule-grammar.md): events and
 * properties the tenant's event definitions do not have, type mismatches with them, states no
 * transition reaches, and `groupByKeys`/`contextParams` no transition's event defines. Reads the
 * rule defensively: it may also have errors.
 */

/** The device adds these to every event it sends through the state machines. */
export const DEVICE_EVENT_PROPERTIES: readonly string[] = ['app_name', 'platform', 'app_version'];

/** Event definition property types (case-insensitive) and the filter propertyType they match. */
const PROPERTY_TYPE_OF: Readonly<Record<string, PropertyType>> = {
  string: 'string',
  integer: 'number',
  long: 'number',
  double: 'number',
  float: 'number',
  number: 'number',
  boolean: 'boolean',
};

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const entries = (value: unknown): [string, unknown][] => (isObject(value) ? Object.entries(value) : []);
const items = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

/** One comparison of a transition condition, with its path. */
interface Leaf {
  path: string;
  leaf: Json;
}

function leavesOf(group: unknown, path: string, found: Leaf[]): Leaf[] {
  if (!isObject(group)) return found;
  items(group.filter).forEach((item, index) => {
    const itemPath = at(at(path, 'filter'), index);
    if (isObject(item) && 'operator' in item) {
      leavesOf(item, itemPath, found);
    } else if (isObject(item)) {
      found.push({ path: itemPath, leaf: item });
    }
  });
  return found;
}

/** What the warnings read of an event definition (the events feature's `EventDefinition` is one). */
export interface DefinedEvent {
  eventName: string;
  properties: readonly { propertyName: string; type: string }[];
}

export function ruleWarnings(rule: Json, definitions: readonly DefinedEvent[]): Problem[] {
  const definitionOf = new Map(definitions.map((definition) => [definition.eventName, definition]));
  const warnings: Problem[] = [];
  const transitionEvents = entries(rule.stateTransition);

  for (const [event, byState] of transitionEvents) {
    const eventPath = at('rule.stateTransition', event);
    const definition = definitionOf.get(event);
    if (!definition) {
      warnings.push({ path: eventPath, message: `event ${JSON.stringify(event)} is not in the tenant's event definitions` });
      continue;
    }
    const typeOf = new Map(definition.properties.map((property) => [property.propertyName, property.type]));
    for (const [state, conditions] of entries(byState)) {
      items(conditions).forEach((condition, index) => {
        if (!isObject(condition)) return;
        for (const { path, leaf } of leavesOf(condition.filters, at(at(at(eventPath, state), index), 'filters'), [])) {
          const name = leaf.propertyName;
          if (typeof name !== 'string' || DEVICE_EVENT_PROPERTIES.includes(name)) continue;
          const definedType = typeOf.get(name);
          if (definedType === undefined) {
            warnings.push({
              path: at(path, 'propertyName'),
              message: `${JSON.stringify(name)} is not a property of event ${JSON.stringify(event)}`,
            });
            continue;
          }
          const expected = PROPERTY_TYPE_OF[definedType.toLowerCase()];
          if (expected !== undefined && typeof leaf.propertyType === 'string' && leaf.propertyType !== expected) {
            warnings.push({
              path: at(path, 'propertyType'),
              message: `${JSON.stringify(leaf.propertyType)} does not match the type ${JSON.stringify(definedType)} of property ${JSON.stringify(name)} of event ${JSON.stringify(event)} (use ${expected})`,
            });
          }
        }
      });
    }
  }

  warnings.push(...unreachableStates(rule));

  // Keys that some transition's (defined) event carries, the device's own included.
  const eventKeys = new Set(DEVICE_EVENT_PROPERTIES);
  for (const [event] of transitionEvents) {
    definitionOf.get(event)?.properties.forEach((property) => eventKeys.add(property.propertyName));
  }
  const keyLists: [string, unknown][] = [
    ['rule.groupByConfig.groupByKeys', isObject(rule.groupByConfig) ? rule.groupByConfig.groupByKeys : undefined],
    ['rule.contextParams', rule.contextParams],
  ];
  for (const [path, keys] of keyLists) {
    items(keys).forEach((key, index) => {
      if (typeof key === 'string' && !eventKeys.has(key)) {
        warnings.push({ path: at(path, index), message: `${JSON.stringify(key)} is not a property of any event of rule.stateTransition` });
      }
    });
  }
  return warnings;
}

/** States of `stateToAction` and `resetStates` that no walk from "0" through the transitions reaches. */
function unreachableStates(rule: Json): Problem[] {
  const next = new Map<string, Set<string>>();
  for (const [, byState] of entries(rule.stateTransition)) {
    for (const [state, conditions] of entries(byState)) {
      for (const condition of items(conditions)) {
        if (isObject(condition) && typeof condition.transitionTo === 'string') {
          next.set(state, (next.get(state) ?? new Set()).add(condition.transitionTo));
        }
      }
    }
  }
  const reached = new Set(['0']);
  const pending = ['0'];
  for (let state = pending.pop(); state !== undefined; state = pending.pop()) {
    for (const target of next.get(state) ?? []) {
      if (!reached.has(target)) {
        reached.add(target);
        pending.push(target);
      }
    }
  }
  const message = (state: string): string => `state ${JSON.stringify(state)} is never reached: no transition leads to it from "0"`;
  const warnings: Problem[] = [];
  for (const [state] of entries(rule.stateToAction)) {
    if (!reached.has(state)) warnings.push({ path: at('rule.stateToAction', state), message: message(state) });
  }
  items(rule.resetStates).forEach((state, index) => {
    if (typeof state === 'string' && !reached.has(state)) warnings.push({ path: at('rule.resetStates', index), message: message(state) });
  });
  return warnings;
}

/** The cohorts of `cohortEligibility` other than `all`, with their paths. */
export function eligibilityCohorts(rule: Json): { path: string; name: string }[] {
  const eligibility = isObject(rule.cohortEligibility) ? rule.cohortEligibility : {};
  return (['includes', 'excludes'] as const).flatMap((list) =>
    items(eligibility[list])
      .map((name, index) => ({ path: at(at('rule.cohortEligibility', list), index), name }))
      .filter((entry): entry is { path: string; name: string } => typeof entry.name === 'string' && entry.name !== ALL_USERS_COHORT),
  );
}
