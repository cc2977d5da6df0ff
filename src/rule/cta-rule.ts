import { DomainError } from '../common/domain-error';
import { copyJson } from '../common/json-values';
import type { ErrorCode } from '../common/error-code';
import { joinProblemTexts, pathTo as at, Problem, problemText } from '../common/problems';
import {
  ACTION_TYPES,
  ALL_USERS_COHORT,
  COMPARISONS_BY_PROPERTY_TYPE,
  CtaRule,
  FILTER_OPERATORS,
  PROPERTY_TYPES,
  PropertyType,
} from './rule.types';
import { exposureLimitProblem, weeksAsDays, windowUnitProblem } from './exposure-limits';

/**
 * The rule grammar (docs/decisions/0003-device-rule-grammar.md, docs/rule-reference.md), shared by CTA create, update and test
 * CTA create: what the mobile SDK can evaluate on the device. A rule it cannot
 * evaluate does nothing there, silently, so every such rule is refused, naming
 * every problem at its JSON path.
 */

/** Filter groups nest at most this deep, the condition's own `filters` counting as 1. */
export const MAX_FILTER_DEPTH = 5;
/** Leaves (comparisons) in one transition condition. */
export const MAX_FILTER_LEAVES = 100;
/** `functions` objects nest at most this deep. */
export const MAX_FUNCTION_DEPTH = 5;

export interface RuleCheck {
  /**
   * The rule to store (when `rule` was an object): a copy of the input with every unknown key kept,
   * `transitionTo` integers as strings, `frequency.lifespan` renamed to `lifeSpan`, boolean filter
   * values sent as strings turned into the JSON booleans they mean, a window in weeks into days, optional fields sent as `null`
   * dropped, and no `ctaValidTill` (derived on read, never stored).
   */
  rule: CtaRule | null;
  problems: Problem[];
  /**
   * Values stored otherwise than sent (boolean filter values sent as strings, a window in weeks): the validate
   * endpoint shows them as warnings.
   */
  normalised: Problem[];
}

export interface RuleCheckOptions {
  /**
   * A test CTA's rule: the real admin panel builds them without `cohortEligibility` (stored as every
   * user) and sometimes without a lifetime cap (stored as limit 0, which devices do not check).
   */
  testCta?: boolean;
  /**
   * The caller hands the rule over (it uses the input no more): normalised in place, not copied. The
   * copy of a rule of a megabyte, and its garbage, cost more than checking it (docs/benchmarks.md).
   */
  inPlace?: boolean;
}

/** Checks a rule and answers its stored form and every problem found (none when it is valid). */
export function checkCtaRule(value: unknown, options: RuleCheckOptions = {}): RuleCheck {
  return new RuleChecker(options).run(value);
}

/**
 * The stored form of a valid rule; otherwise a `DomainError(code)` naming every problem (the first 20),
 * after `otherProblems` of the same body, so one answer names them all.
 */
export function validateCtaRule(
  value: unknown,
  code: ErrorCode,
  options: RuleCheckOptions = {},
  otherProblems: readonly string[] = [],
): CtaRule {
  const { rule, problems } = checkCtaRule(value, options);
  if (problems.length > 0 || rule === null || otherProblems.length > 0) {
    throw new DomainError(code, joinProblemTexts([...otherProblems, ...problems.map(problemText)]));
  }
  return rule;
}

/** States are decimal integer strings in canonical form ("0", "1", "12"): one spelling per state. */
export const isState = (value: unknown): value is string => typeof value === 'string' && /^(0|[1-9]\d*)$/.test(value);

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const isInteger = (value: unknown): value is number => typeof value === 'number' && Number.isSafeInteger(value);
const isNonEmptyString = (value: unknown): value is string => typeof value === 'string' && value.length > 0;
const isStringArray = (value: unknown): value is string[] => Array.isArray(value) && value.every((item) => typeof item === 'string');
const isNumericString = (value: unknown): boolean => typeof value === 'string' && /^[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?$/.test(value);
const isFiniteNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

/** A value as a message quotes it: strings in quotes, the rest as JSON. */
const shown = (value: unknown): string => (value === undefined ? 'nothing' : JSON.stringify(value));

/** What a device makes of a filter value it reads with `Number(…)` or `Boolean(…)`, for messages: `would read as true on devices (Boolean("0"))`. */
const deviceReading = (reader: 'Number' | 'Boolean', value: unknown): string =>
  `would read as ${String(reader === 'Number' ? Number(value) : Boolean(value))} on devices (${reader}(${shown(value)}))`;

/**
 * The boolean a filter value means: JSON booleans, and the strings the real admin panel sends —
 * "true"/"false" from its picker (any case), "" for a saved `false` reopened (`String(value || "")`).
 * Undefined for anything else.
 */
function booleanMeant(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value;
  if (typeof value !== 'string') return undefined;
  const text = value.toLowerCase();
  return text === 'true' ? true : text === 'false' || text === '' ? false : undefined;
}

/** Action types that render `template`: without one the device shows nothing. */
const TEMPLATED_ACTION_TYPES: readonly string[] = ['NUDGE_UI', 'POPUP', 'TOOLTIP'];

const STATE_FORM = 'a state: a decimal integer string such as "0" or "1" (no sign, no leading zeros)';

class RuleChecker {
  private readonly problems: Problem[] = [];
  private readonly normalised: Problem[] = [];

  constructor(private readonly options: RuleCheckOptions) {}

  run(value: unknown): RuleCheck {
    if (!isObject(value)) {
      return { rule: null, problems: [{ path: 'rule', message: 'must be an object' }], normalised: [] };
    }
    // Otherwise a deep copy: normalising (transitionTo, lifespan, booleans, nulls) never touches the caller's body.
    const rule = this.options.inPlace ? value : copyJson(value);
    delete rule.ctaValidTill;
    if (this.options.testCta) {
      this.testCtaDefaults(rule);
    }
    this.cohortEligibility(rule.cohortEligibility, 'rule.cohortEligibility');
    const actionIds = this.actions(rule.actions, 'rule.actions');
    this.stateToAction(rule.stateToAction, 'rule.stateToAction', actionIds);
    this.stateTransition(rule.stateTransition, 'rule.stateTransition');
    this.check(isInteger(rule.priority), 'rule.priority', 'must be an integer');
    this.check(isInteger(rule.stateMachineTTL) && rule.stateMachineTTL > 0, 'rule.stateMachineTTL', 'must be a positive integer');
    this.frequency(rule, 'rule.frequency');
    this.optional(rule, 'resetStates', (states) => this.states(states, 'rule.resetStates'));
    this.optional(rule, 'resetCTAonFirstLaunch', (item) =>
      this.check(typeof item === 'boolean', 'rule.resetCTAonFirstLaunch', 'must be a boolean'),
    );
    this.optional(rule, 'contextParams', (item) => this.check(isStringArray(item), 'rule.contextParams', 'must be an array of strings'));
    this.optional(rule, 'groupByConfig', (item) => this.groupByConfig(item, 'rule.groupByConfig'));
    return { rule: rule as CtaRule, problems: this.problems, normalised: this.normalised };
  }

  /** What a test CTA's rule may leave out; a `cohortEligibility` that is sent is checked as usual. */
  private testCtaDefaults(rule: Json): void {
    if (rule.cohortEligibility === undefined || rule.cohortEligibility === null) {
      rule.cohortEligibility = { includes: [ALL_USERS_COHORT], excludes: [] };
    }
    const frequency = rule.frequency;
    if (isObject(frequency) && (frequency.lifeSpan ?? frequency.lifespan ?? null) === null) {
      delete frequency.lifespan;
      frequency.lifeSpan = { limit: 0 };
    }
  }

  private cohortEligibility(value: unknown, path: string): void {
    if (!this.object(value, path)) return;
    this.check(isStringArray(value.includes) && value.includes.length > 0, at(path, 'includes'), 'must be a non-empty array of strings');
    this.check(isStringArray(value.excludes), at(path, 'excludes'), 'must be an array of strings');
  }

  /** Checks each action; answers the actionIds defined (for `stateToAction`), or null when `actions` is not a list. */
  private actions(value: unknown, path: string): Set<string> | null {
    if (!Array.isArray(value)) {
      this.problem(path, 'must be an array of actions');
      return null;
    }
    const firstIndexOf = new Map<string, number>();
    value.forEach((action, index) => {
      const actionPath = at(path, index);
      if (!this.object(action, actionPath)) return;
      const { actionId, type } = action;
      if (!isNonEmptyString(actionId)) {
        this.problem(at(actionPath, 'actionId'), 'must be a non-empty string');
      } else if (firstIndexOf.has(actionId)) {
        this.problem(
          at(actionPath, 'actionId'),
          `${shown(actionId)} is also the actionId of ${at(path, firstIndexOf.get(actionId)!)}; actionIds must be unique`,
        );
      } else {
        firstIndexOf.set(actionId, index);
      }
      if (!(ACTION_TYPES as readonly unknown[]).includes(type)) {
        this.problem(at(actionPath, 'type'), `${shown(type)} is not one of ${ACTION_TYPES.join(', ')}`);
      }
      this.template(action, type, at(actionPath, 'template'));
    });
    return new Set(firstIndexOf.keys());
  }

  /** The template an action type needs on the device (what the real SDK does without it, measured). */
  private template(action: Json, type: unknown, path: string): void {
    const { template } = action;
    if (type === 'NUDGE_ACTION') {
      if (!isObject(template)) {
        this.problem(
          path,
          `must be an object with an eventName for type NUDGE_ACTION, not ${shown(template)}: without it the device throws and never sends the transition`,
        );
      } else {
        this.check(
          isNonEmptyString(template.eventName),
          at(path, 'eventName'),
          `must be a non-empty string for type NUDGE_ACTION, not ${shown(template.eventName)}: it is the app event the device emits`,
        );
      }
    } else if (TEMPLATED_ACTION_TYPES.includes(type as string) && (template === undefined || template === null)) {
      this.problem(path, `is required for type ${String(type)}: without a template the device shows nothing`);
    }
  }

  private stateToAction(value: unknown, path: string, actionIds: Set<string> | null): void {
    if (!this.object(value, path)) return;
    this.check(Object.keys(value).length > 0, path, 'must be a non-empty map of state to actionId');
    for (const [state, actionId] of Object.entries(value)) {
      this.check(isState(state), at(path, state), `the key ${shown(state)} is not ${STATE_FORM}`);
      if (typeof actionId !== 'string') {
        this.problem(at(path, state), 'must be an actionId (a string)');
      } else if (actionIds && !actionIds.has(actionId)) {
        this.problem(at(path, state), `${shown(actionId)} is not an actionId of rule.actions`);
      }
    }
  }

  private stateTransition(value: unknown, path: string): void {
    if (!this.object(value, path)) return;
    for (const [event, byState] of Object.entries(value)) {
      const eventPath = at(path, event);
      this.check(event.length > 0, eventPath, 'event names must be non-empty');
      if (!this.object(byState, eventPath)) continue;
      for (const [state, conditions] of Object.entries(byState)) {
        const statePath = at(eventPath, state);
        this.check(isState(state), statePath, `the key ${shown(state)} is not ${STATE_FORM}`);
        if (!Array.isArray(conditions)) {
          this.problem(statePath, 'must be an array of transition conditions');
          continue;
        }
        conditions.forEach((condition, index) => this.condition(condition, at(statePath, index)));
      }
    }
  }

  private condition(condition: unknown, path: string): void {
    if (!this.object(condition, path)) return;
    const { transitionTo, filters } = condition;
    if (isInteger(transitionTo) && transitionTo >= 0) {
      // Devices compare states as strings: an integer is stored and served as its string.
      condition.transitionTo = String(transitionTo);
    } else {
      this.check(isState(transitionTo), at(path, 'transitionTo'), `${shown(transitionTo)} is not ${STATE_FORM} or a non-negative integer`);
    }
    // Absent, null or {} filters mean "always".
    if (filters === undefined || filters === null || (isObject(filters) && Object.keys(filters).length === 0)) return;
    const leaves = { count: 0 };
    this.group(filters, at(path, 'filters'), 1, leaves);
    this.check(
      leaves.count <= MAX_FILTER_LEAVES,
      at(path, 'filters'),
      `has ${leaves.count} comparisons; at most ${MAX_FILTER_LEAVES} per condition`,
    );
  }

  private group(group: unknown, path: string, depth: number, leaves: { count: number }): void {
    if (!this.object(group, path)) return;
    if (depth > MAX_FILTER_DEPTH) {
      this.problem(path, `filter groups nest deeper than ${MAX_FILTER_DEPTH} levels`);
      return;
    }
    const { operator, filter } = group;
    this.check(
      (FILTER_OPERATORS as readonly unknown[]).includes(operator),
      at(path, 'operator'),
      `${shown(operator)} is not one of ${FILTER_OPERATORS.join(', ')} (exact case)`,
    );
    if (!Array.isArray(filter)) {
      this.problem(at(path, 'filter'), 'must be an array of filter groups and comparisons');
      return;
    }
    this.check(
      operator !== 'OR' || filter.length > 0,
      at(path, 'filter'),
      'an OR over an empty list never passes on the device; add a comparison or use AND',
    );
    const filterPath = at(path, 'filter');
    filter.forEach((item, index) => {
      const itemPath = at(filterPath, index);
      if (!isObject(item)) {
        this.problem(itemPath, 'must be an object: a filter group ({operator, filter}) or a comparison');
      } else if ('operator' in item) {
        this.group(item, itemPath, depth + 1, leaves);
      } else {
        leaves.count += 1;
        this.leaf(item, itemPath);
      }
    });
  }

  private leaf(leaf: Json, path: string): void {
    const { propertyName, propertyType, comparisonType, functions } = leaf;
    if (!isNonEmptyString(propertyName)) this.problem(at(path, 'propertyName'), 'must be a non-empty string');
    if (!(PROPERTY_TYPES as readonly unknown[]).includes(propertyType)) {
      this.problem(at(path, 'propertyType'), `${shown(propertyType)} is not one of ${PROPERTY_TYPES.join(', ')}`);
    } else {
      const type = propertyType as PropertyType;
      const allowed = COMPARISONS_BY_PROPERTY_TYPE[type];
      if (!(allowed as readonly unknown[]).includes(comparisonType)) {
        const hint = type === 'number' && comparisonType === '!=' ? ' (the device always fails != on numbers)' : '';
        this.problem(
          at(path, 'comparisonType'),
          `${shown(comparisonType)} is not one of ${allowed.join(', ')} for propertyType ${type}${hint}`,
        );
      }
      this.comparisonValue(type, leaf, at(path, 'comparisonValue'));
    }
    if (functions !== undefined && functions !== null) {
      this.functions(functions, at(path, 'functions'), 1);
    }
  }

  /**
   * The value a comparison compares with, as the real admin panel sends it too: numbers as numeric
   * strings or "" (a saved 0 reopened; devices read `Number("")` as 0), stored as sent; booleans as
   * "true"/"false"/"" — stored as the JSON boolean meant, because devices read `Boolean("false")` as true.
   */
  private comparisonValue(type: PropertyType, leaf: Json, path: string): void {
    const value = leaf.comparisonValue;
    if (type === 'string') {
      // The message only for a problem: a rule holds thousands of comparisons, each value written out for nothing.
      if (typeof value !== 'string') this.problem(path, `must be a string for propertyType string, not ${shown(value)}`);
    } else if (type === 'number') {
      if (!(isFiniteNumber(value) || isNumericString(value) || value === '')) {
        const reading = value === undefined ? '' : `, which ${deviceReading('Number', value)}`;
        this.problem(path, `must be a number or a numeric string for propertyType number, not ${shown(value)}${reading}`);
      }
    } else {
      const meant = booleanMeant(value);
      if (meant === undefined) {
        this.problem(
          path,
          value === undefined
            ? 'must be true or false for propertyType boolean, not nothing'
            : `${shown(value)} ${deviceReading('Boolean', value)}; send true or false for propertyType boolean`,
        );
      } else if (meant !== value) {
        leaf.comparisonValue = meant;
        const reading = Boolean(value) === meant ? '' : `; kept as a string it ${deviceReading('Boolean', value)}`;
        this.normalised.push({ path, message: `${shown(value)} is stored as the JSON boolean ${String(meant)}${reading}` });
      }
    }
  }

  private functions(value: unknown, path: string, depth: number): void {
    if (!this.object(value, path)) return;
    if (depth > MAX_FUNCTION_DEPTH) {
      this.problem(path, `functions nest deeper than ${MAX_FUNCTION_DEPTH} levels`);
      return;
    }
    this.check(value.operator === '+' || value.operator === '-', at(path, 'operator'), `${shown(value.operator)} is not one of +, -`);
    for (const operand of ['operand1', 'operand2']) {
      const item = value[operand];
      if (isObject(item)) {
        this.functions(item, at(path, operand), depth + 1);
      } else {
        const valid = isFiniteNumber(item) || isNumericString(item) || (typeof item === 'string' && /^\$\..+/.test(item));
        this.check(
          valid,
          at(path, operand),
          `${shown(item)} is not an operand: a number, a numeric string, "$.<property>", "$.currentTime" or a functions object`,
        );
      }
    }
  }

  private states(value: unknown, path: string): void {
    if (!Array.isArray(value)) {
      this.problem(path, 'must be an array of states');
      return;
    }
    value.forEach((state, index) => this.check(isState(state), at(path, index), `${shown(state)} is not ${STATE_FORM}`));
  }

  private frequency(rule: Json, path: string): void {
    if (!this.object(rule.frequency, path)) return;
    const frequency = rule.frequency;
    // `lifespan` is the SDK's spelling (docs/decisions/0012-compatibility-with-existing-clients.md); `lifeSpan` wins when
    // a client sends both.
    if (frequency.lifeSpan === undefined && frequency.lifespan !== undefined) {
      frequency.lifeSpan = frequency.lifespan;
    }
    delete frequency.lifespan;
    this.limit(frequency.session, at(path, 'session'));
    const window = frequency.window;
    if (this.limit(window, at(path, 'window'))) {
      const unitProblem = windowUnitProblem(window.unit);
      if (unitProblem !== null) this.problem(at(path, 'window.unit'), unitProblem);
      this.exposureLimit(window.value, at(path, 'window.value'));
      const weeks = weeksAsDays(window);
      if (weeks !== null && 'problem' in weeks) this.problem(at(path, 'window.value'), weeks.problem);
      if (weeks !== null && 'note' in weeks) this.normalised.push({ path: at(path, 'window'), message: weeks.note });
    }
    this.limit(frequency.lifeSpan, at(path, 'lifeSpan'));
  }

  private limit(value: unknown, path: string): value is Json {
    if (!this.object(value, path)) return false;
    this.exposureLimit(value.limit, at(path, 'limit'));
    return true;
  }

  private exposureLimit(value: unknown, path: string): void {
    const problem = exposureLimitProblem(value);
    if (problem !== null) this.problem(path, problem);
  }

  private groupByConfig(config: unknown, path: string): void {
    if (!this.object(config, path)) return;
    this.optional(config, 'maxActiveStateMachineCount', (count) =>
      this.check(isInteger(count) && count > 0, at(path, 'maxActiveStateMachineCount'), 'must be a positive integer'),
    );
    this.optional(config, 'groupByKeys', (keys) => this.check(isStringArray(keys), at(path, 'groupByKeys'), 'must be an array of strings'));
  }

  /** An optional field: absent or `null` (then dropped), else checked. */
  private optional(container: Json, key: string, validate: (value: unknown) => void): void {
    if (container[key] === null) {
      delete container[key];
    } else if (container[key] !== undefined) {
      validate(container[key]);
    }
  }

  /** Whether `value` is an object; records the problem when it is not. */
  private object(value: unknown, path: string): value is Json {
    return this.check(isObject(value), path, 'must be an object');
  }

  private check(condition: boolean, path: string, message: string): boolean {
    if (!condition) {
      this.problem(path, message);
    }
    return condition;
  }

  private problem(path: string, message: string): void {
    this.problems.push({ path, message });
  }
}
