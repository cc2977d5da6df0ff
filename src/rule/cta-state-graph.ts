import type { Problem } from '../common/problems';

/**
 * A rule's state graph: what the state machines that devices and the service hold depend on —
 * the set of states and the keys that pick a machine. An edit that keeps it leaves every running
 * machine meaningful, so a live or scheduled CTA may take it; one that changes it may not.
 * Reads stored rules defensively: CTAs stored before the rule grammar may hold any shape.
 */

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const entries = (value: unknown): [string, unknown][] => (isObject(value) ? Object.entries(value) : []);
const items = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
/** A state as stored; `transitionTo` integers of old rules read as their strings. */
const stateOf = (value: unknown): string | null => (typeof value === 'string' ? value : Number.isSafeInteger(value) ? String(value) : null);

const TRANSITIONS = 'rule.stateTransition';
const ACTIONS = 'rule.stateToAction';
const RESETS = 'rule.resetStates';
const GROUP_BY_KEYS = 'rule.groupByConfig.groupByKeys';

/** Every state of the rule, with the first field naming it. */
function statesOf(rule: unknown): Map<string, string> {
  const found = new Map<string, string>();
  const add = (state: string | null, path: string): void => {
    if (state !== null && !found.has(state)) found.set(state, path);
  };
  const ruleObject = isObject(rule) ? rule : {};
  for (const [, byState] of entries(ruleObject.stateTransition)) {
    for (const [state, conditions] of entries(byState)) {
      add(state, TRANSITIONS);
      items(conditions).forEach((condition) => add(isObject(condition) ? stateOf(condition.transitionTo) : null, TRANSITIONS));
    }
  }
  entries(ruleObject.stateToAction).forEach(([state]) => add(state, ACTIONS));
  items(ruleObject.resetStates).forEach((state) => add(stateOf(state), RESETS));
  return found;
}

/** Every state a rule names (in its transitions, actions or resets): what an experiment's goal may be. */
export const ruleStates = (rule: unknown): ReadonlySet<string> => new Set(statesOf(rule).keys());

/** `groupByConfig.groupByKeys` in order (a machine's id joins their values in this order); none when absent. */
function groupByKeysOf(rule: unknown): unknown[] {
  const config = isObject(rule) ? rule.groupByConfig : undefined;
  return isObject(config) ? items(config.groupByKeys) : [];
}

const byNumber = (a: string, b: string): number => Number(a) - Number(b) || a.localeCompare(b);

export interface StateGraphChange {
  /** Each difference at the field it shows in: `rule.stateTransition: state "3" is new`. */
  problems: Problem[];
  /** What changes, for the way out: `its states`, `its groupByKeys` or both. */
  changes: string;
}

/** How `after` changes the state graph of `before`; null when it keeps it. */
export function stateGraphChange(before: unknown, after: unknown): StateGraphChange | null {
  const [was, will] = [statesOf(before), statesOf(after)];
  const states: Problem[] = [
    ...[...will.keys()].filter((state) => !was.has(state)).map((state) => ({ state, path: will.get(state)!, change: 'is new' })),
    ...[...was.keys()].filter((state) => !will.has(state)).map((state) => ({ state, path: was.get(state)!, change: 'would be gone' })),
  ]
    .sort((a, b) => byNumber(a.state, b.state))
    .map(({ state, path, change }) => ({ path, message: `state ${JSON.stringify(state)} ${change}` }));
  const [keysBefore, keysAfter] = [groupByKeysOf(before), groupByKeysOf(after)];
  const keys: Problem[] =
    JSON.stringify(keysBefore) === JSON.stringify(keysAfter)
      ? []
      : [
          {
            path: GROUP_BY_KEYS,
            message: `${JSON.stringify(keysBefore)} would become ${JSON.stringify(keysAfter)}, which re-keys every machine`,
          },
        ];
  if (states.length === 0 && keys.length === 0) {
    return null;
  }
  const changes = [states.length > 0 ? 'states' : '', keys.length > 0 ? 'groupByKeys' : ''].filter(Boolean).join(' and ');
  return { problems: [...states, ...keys], changes: `its ${changes}` };
}
