import createCtaExample from '../../test/fixtures/create-cta.json';
import { DomainError } from '../common/domain-error';
import { ErrorCode } from '../common/error-code';
import { validateCtaRule } from './cta-rule';

const example = (): Record<string, any> => JSON.parse(JSON.stringify(createCtaExample.rule));

function rejection(rule: unknown, code = ErrorCode.INVALID_REQUEST): DomainError {
  try {
    validateCtaRule(rule, code);
  } catch (error) {
    return error as DomainError;
  }
  throw new Error('the rule was accepted');
}

describe('validateCtaRule', () => {
  it('accepts the shared example unchanged', () => {
    expect(validateCtaRule(example(), ErrorCode.INVALID_REQUEST)).toEqual(example());
  });

  it('keeps unknown keys at every level and does not modify its input', () => {
    const rule = example();
    rule.extra = 1;
    rule.cohortEligibility.extra = 2;
    rule.stateTransition.store_opened['0'][0].extra = 3;
    rule.stateTransition.store_opened['0'][0].filters.extra = 4;
    rule.actions[0].extra = 5;
    rule.frequency.extra = 6;
    rule.frequency.window.extra = 7;
    rule.groupByConfig.extra = 8;
    const input = JSON.parse(JSON.stringify(rule));
    expect(validateCtaRule(rule, ErrorCode.INVALID_REQUEST)).toEqual(input);
    expect(rule).toEqual(input);
  });

  it('renames frequency.lifespan to lifeSpan; lifeSpan wins when both are sent', () => {
    const alias = example();
    alias.frequency.lifespan = { limit: 9 };
    delete alias.frequency.lifeSpan;
    expect(validateCtaRule(alias, ErrorCode.INVALID_REQUEST).frequency).toEqual({ ...example().frequency, lifeSpan: { limit: 9 } });
    const both = example();
    both.frequency.lifespan = { limit: 9 };
    const frequency = validateCtaRule(both, ErrorCode.INVALID_REQUEST).frequency;
    expect(frequency.lifeSpan).toEqual({ limit: 5 });
    expect(frequency).not.toHaveProperty('lifespan');
  });

  it('drops ctaValidTill and optional fields sent as null', () => {
    const rule = { ...example(), ctaValidTill: 5, resetStates: null, groupByConfig: { groupByKeys: null, maxActiveStateMachineCount: 2 } };
    const result = validateCtaRule(rule, ErrorCode.INVALID_REQUEST);
    expect(result).not.toHaveProperty('ctaValidTill');
    expect(result).not.toHaveProperty('resetStates');
    expect(result.groupByConfig).toEqual({ maxActiveStateMachineCount: 2 });
  });

  it('accepts the minimal rule (no optional fields, empty lists where allowed)', () => {
    const rule = {
      cohortEligibility: { includes: ['all'], excludes: [] },
      stateToAction: { a: 'b' },
      stateTransition: {},
      priority: -1,
      stateMachineTTL: 1,
      actions: [],
      frequency: { session: { limit: 0 }, window: { limit: 0, unit: 'seconds', value: 0 }, lifeSpan: { limit: 0 } },
    };
    expect(validateCtaRule(rule, ErrorCode.INVALID_REQUEST)).toEqual(rule);
  });

  it.each<[string, (rule: Record<string, any>) => unknown, string]>([
    ['includes of non-strings', (r) => (r.cohortEligibility.includes = [1]), 'rule.cohortEligibility.includes must be a non-empty array of strings'],
    ['stateTransition condition not an object', (r) => (r.stateTransition.store_opened['0'] = [5]), 'rule.stateTransition.store_opened.0[0] must be an object'],
    ['filters missing', (r) => delete r.stateTransition.store_opened['1'][0].filters, 'rule.stateTransition.store_opened.1[0].filters must be an object'],
    ['a filter item not an object', (r) => (r.stateTransition.store_opened['1'][0].filters.filter = ['x']), 'rule.stateTransition.store_opened.1[0].filters.filter must be an array of objects'],
    ['priority unsafe', (r) => (r.priority = 2 ** 60), 'rule.priority must be an integer'],
    ['stateMachineTTL negative', (r) => (r.stateMachineTTL = -5), 'rule.stateMachineTTL must be a positive integer'],
    ['window missing', (r) => delete r.frequency.window, 'rule.frequency.window must be an object'],
    ['window.limit fractional', (r) => (r.frequency.window.limit = 0.5), 'rule.frequency.window.limit must be a non-negative integer'],
    ['window.unit missing', (r) => delete r.frequency.window.unit, 'rule.frequency.window.unit must be one of days, hours, minutes, seconds'],
    ['lifespan alias invalid', (r) => ((r.frequency.lifespan = { limit: -1 }), delete r.frequency.lifeSpan), 'rule.frequency.lifeSpan.limit must be a non-negative integer'],
    ['groupByConfig not an object', (r) => (r.groupByConfig = []), 'rule.groupByConfig must be an object'],
  ])('rejects %s naming the path', (_case, change, message) => {
    const rule = example();
    change(rule);
    expect(rejection(rule)).toEqual(new DomainError(ErrorCode.INVALID_REQUEST, message));
  });

  it.each([['rule'], [null], [[]], [undefined]])('rejects %p as not an object', (rule) => {
    expect(rejection(rule)).toEqual(new DomainError(ErrorCode.INVALID_REQUEST, 'rule must be an object'));
  });

  it('throws with the code the caller names', () => {
    expect(rejection({}, ErrorCode.CTA_CREATION_ERROR).code).toBe(ErrorCode.CTA_CREATION_ERROR);
  });
});
