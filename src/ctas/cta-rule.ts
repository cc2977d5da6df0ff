import { DomainError } from '../common/domain-error';
import type { ErrorCode } from '../common/error-code';
import { CtaRule, WINDOW_UNITS } from './cta.types';

/**
 * Validation of a CTA rule (DESIGN §5), shared by create, update and test CTA.
 * Returns the rule to store: the input with every unknown key kept as sent,
 * `frequency.lifespan` renamed to `lifeSpan`, optional fields sent as `null`
 * dropped, and `ctaValidTill` dropped (it is derived on read, never stored).
 * The first problem found is thrown as `DomainError(code, "<path> <problem>")`.
 */
export function validateCtaRule(value: unknown, code: ErrorCode): CtaRule {
  return new RuleValidator(code).rule(value);
}

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const isInteger = (value: unknown): value is number => typeof value === 'number' && Number.isSafeInteger(value);
const isStringArray = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((item) => typeof item === 'string');

/** Paths as clients read them: `rule.stateTransition.store_opened.0[1].transitionTo`. */
const at = (path: string, key: string | number): string => (typeof key === 'number' ? `${path}[${key}]` : `${path}.${key}`);

class RuleValidator {
  constructor(private readonly code: ErrorCode) {}

  rule(value: unknown): CtaRule {
    const rule = this.object(value, 'rule');
    delete rule.ctaValidTill;
    this.cohortEligibility(rule.cohortEligibility, 'rule.cohortEligibility');
    this.stateToAction(rule.stateToAction, 'rule.stateToAction');
    this.stateTransition(rule.stateTransition, 'rule.stateTransition');
    this.check(isInteger(rule.priority), 'rule.priority', 'must be an integer');
    this.check(isInteger(rule.stateMachineTTL) && rule.stateMachineTTL > 0, 'rule.stateMachineTTL', 'must be a positive integer');
    this.check(Array.isArray(rule.actions) && rule.actions.every(isObject), 'rule.actions', 'must be an array of objects');
    rule.frequency = this.frequency(rule.frequency, 'rule.frequency');
    this.optional(rule, 'resetStates', (item) => this.check(isStringArray(item), 'rule.resetStates', 'must be an array of strings'));
    this.optional(rule, 'resetCTAonFirstLaunch', (item) =>
      this.check(typeof item === 'boolean', 'rule.resetCTAonFirstLaunch', 'must be a boolean'),
    );
    this.optional(rule, 'contextParams', (item) => this.check(isStringArray(item), 'rule.contextParams', 'must be an array of strings'));
    this.optional(rule, 'groupByConfig', (item) => (rule.groupByConfig = this.groupByConfig(item, 'rule.groupByConfig')));
    return rule as CtaRule;
  }

  private cohortEligibility(value: unknown, path: string): void {
    const cohorts = this.object(value, path, false);
    this.check(isStringArray(cohorts.includes) && cohorts.includes.length > 0, at(path, 'includes'), 'must be a non-empty array of strings');
    this.check(isStringArray(cohorts.excludes), at(path, 'excludes'), 'must be an array of strings');
  }

  private stateToAction(value: unknown, path: string): void {
    const map = this.object(value, path, false);
    this.check(Object.keys(map).length > 0, path, 'must be a non-empty map of state to action name');
    for (const [state, action] of Object.entries(map)) {
      this.check(typeof action === 'string', at(path, state), 'must be a string');
    }
  }

  private stateTransition(value: unknown, path: string): void {
    for (const [event, byState] of Object.entries(this.object(value, path, false))) {
      for (const [state, conditions] of Object.entries(this.object(byState, at(path, event), false))) {
        const conditionsPath = at(at(path, event), state);
        this.check(Array.isArray(conditions), conditionsPath, 'must be an array of transition conditions');
        (conditions as unknown[]).forEach((condition, index) => this.condition(condition, at(conditionsPath, index)));
      }
    }
  }

  private condition(value: unknown, path: string): void {
    const condition = this.object(value, path, false);
    this.check(typeof condition.transitionTo === 'string', at(path, 'transitionTo'), 'must be a string');
    const filters = this.object(condition.filters, at(path, 'filters'), false);
    this.check(typeof filters.operator === 'string', at(path, 'filters.operator'), 'must be a string');
    this.check(Array.isArray(filters.filter) && filters.filter.every(isObject), at(path, 'filters.filter'), 'must be an array of objects');
  }

  private frequency(value: unknown, path: string): Json {
    const frequency = this.object(value, path);
    // `lifespan` is the SDK's spelling (DESIGN §18); `lifeSpan` wins when a client sends both.
    if (frequency.lifeSpan === undefined && frequency.lifespan !== undefined) {
      frequency.lifeSpan = frequency.lifespan;
    }
    delete frequency.lifespan;
    this.limit(frequency.session, at(path, 'session'));
    const window = this.limit(frequency.window, at(path, 'window'));
    this.check(
      (WINDOW_UNITS as readonly unknown[]).includes(window.unit),
      at(path, 'window.unit'),
      `must be one of ${WINDOW_UNITS.join(', ')}`,
    );
    this.nonNegativeInteger(window.value, at(path, 'window.value'));
    this.limit(frequency.lifeSpan, at(path, 'lifeSpan'));
    return frequency;
  }

  private limit(value: unknown, path: string): Json {
    const limit = this.object(value, path, false);
    this.nonNegativeInteger(limit.limit, at(path, 'limit'));
    return limit;
  }

  private groupByConfig(value: unknown, path: string): Json {
    const config = this.object(value, path);
    this.optional(config, 'maxActiveStateMachineCount', (count) =>
      this.check(isInteger(count) && count > 0, at(path, 'maxActiveStateMachineCount'), 'must be a positive integer'),
    );
    this.optional(config, 'groupByKeys', (keys) => this.check(isStringArray(keys), at(path, 'groupByKeys'), 'must be an array of strings'));
    return config;
  }

  private nonNegativeInteger(value: unknown, path: string): void {
    this.check(isInteger(value) && value >= 0, path, 'must be a non-negative integer');
  }

  /** An optional field: absent or `null` (then dropped), else checked. */
  private optional(container: Json, key: string, validate: (value: unknown) => void): void {
    if (container[key] === null) {
      delete container[key];
    } else if (container[key] !== undefined) {
      validate(container[key]);
    }
  }

  /** The object at `path`; `copy` gives a shallow copy the caller may normalise without touching the input. */
  private object(value: unknown, path: string, copy = true): Json {
    this.check(isObject(value), path, 'must be an object');
    return copy ? { ...(value as Json) } : (value as Json);
  }

  private check(condition: boolean, path: string, problem: string): void {
    if (!condition) {
      throw new DomainError(this.code, `${path} ${problem}`);
    }
  }
}
