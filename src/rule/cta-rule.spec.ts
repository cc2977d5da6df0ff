import { expectDomainError } from '../../test/expect-thrown';
import { examples } from '../../test/fixtures';
import { DomainError } from '../common/domain-error';
import { ErrorCode } from '../common/error-code';
import { checkCtaRule, MAX_FILTER_DEPTH, MAX_FILTER_LEAVES, validateCtaRule } from './cta-rule';

/** The problems of a rule, as `path: message` lines. */
const problemsOf = (rule: unknown): string[] => checkCtaRule(rule).problems.map(({ path, message }) => `${path}: ${message}`);

const leaf = (fields: Record<string, unknown> = {}): Record<string, unknown> => ({
  propertyName: 'source',
  propertyType: 'string',
  comparisonType: '=',
  comparisonValue: 'home',
  ...fields,
});

/** The example with the first condition of store_opened/"0" filtered by `filters`. */
const withFilters = (filters: unknown): Record<string, any> => {
  const rule = examples.rule();
  rule.stateTransition.store_opened['0'][0].filters = filters;
  return rule;
};
const FIRST = 'rule.stateTransition.store_opened.0[0].filters';

describe('validateCtaRule', () => {
  it('accepts the shared example unchanged', () => {
    expect(problemsOf(examples.rule())).toEqual([]);
    expect(validateCtaRule(examples.rule(), ErrorCode.INVALID_REQUEST)).toEqual(examples.rule());
  });

  it('keeps unknown keys at every level and does not modify its input', () => {
    const rule = examples.rule();
    rule.extra = 1;
    rule.cohortEligibility.extra = 2;
    rule.stateTransition.store_opened['0'][0].extra = 3;
    rule.stateTransition.store_opened['0'][0].filters.extra = 4;
    rule.stateTransition.store_opened['0'][0].filters.filter[0].extra = 4.5;
    rule.actions[0].extra = 5;
    rule.frequency.extra = 6;
    rule.frequency.window.extra = 7;
    rule.groupByConfig.extra = 8;
    const input = JSON.parse(JSON.stringify(rule));
    expect(validateCtaRule(rule, ErrorCode.INVALID_REQUEST)).toEqual(input);
    expect(rule).toEqual(input);
  });

  it('stores a transitionTo integer as its string, leaving the input alone', () => {
    const rule = examples.rule();
    rule.stateTransition.store_opened['0'][0].transitionTo = 1;
    rule.stateTransition.purchase_completed['2'][0].transitionTo = 3;
    const stored = validateCtaRule(rule, ErrorCode.INVALID_REQUEST);
    expect(stored.stateTransition.store_opened['0'][0].transitionTo).toBe('1');
    expect(stored.stateTransition.purchase_completed['2'][0].transitionTo).toBe('3');
    expect(rule.stateTransition.store_opened['0'][0].transitionTo).toBe(1);
  });

  it('renames frequency.lifespan to lifeSpan; lifeSpan wins when both are sent', () => {
    const alias = examples.rule();
    alias.frequency.lifespan = { limit: 9 };
    delete alias.frequency.lifeSpan;
    expect(validateCtaRule(alias, ErrorCode.INVALID_REQUEST).frequency).toEqual({ ...examples.rule().frequency, lifeSpan: { limit: 9 } });
    const both = examples.rule();
    both.frequency.lifespan = { limit: 9 };
    const frequency = validateCtaRule(both, ErrorCode.INVALID_REQUEST).frequency;
    expect(frequency.lifeSpan).toEqual({ limit: 5 });
    expect(frequency).not.toHaveProperty('lifespan');
  });

  it('drops ctaValidTill and optional fields sent as null', () => {
    const rule = {
      ...examples.rule(),
      ctaValidTill: 5,
      resetStates: null,
      groupByConfig: { groupByKeys: null, maxActiveStateMachineCount: 2 },
    };
    const result = validateCtaRule(rule, ErrorCode.INVALID_REQUEST);
    expect(result).not.toHaveProperty('ctaValidTill');
    expect(result).not.toHaveProperty('resetStates');
    expect(result.groupByConfig).toEqual({ maxActiveStateMachineCount: 2 });
  });

  it('accepts the minimal rule (no optional fields, no filters)', () => {
    const rule = {
      cohortEligibility: { includes: ['all'], excludes: [] },
      stateToAction: { '1': 'nudge' },
      stateTransition: { app_open: { '0': [{ transitionTo: '1' }] } },
      priority: -1,
      stateMachineTTL: 1,
      actions: [{ actionId: 'nudge', type: 'NUDGE_ACTION', template: { eventName: 'nudge_fired' } }],
      frequency: { session: { limit: 0 }, window: { limit: 0, unit: 'seconds', value: 0 }, lifeSpan: { limit: 0 } },
    };
    expect(problemsOf(rule)).toEqual([]);
  });

  it.each([[undefined], [null], [{}], [{ operator: 'AND', filter: [] }]])('accepts %p filters (always)', (filters) => {
    expect(problemsOf(withFilters(filters))).toEqual([]);
  });

  it('accepts every comparison each propertyType allows, typed values, nested groups and functions', () => {
    const leaves = [
      leaf({ comparisonType: '!=' }),
      ...['=', '>', '<', '>=', '<='].map((comparisonType) => leaf({ propertyType: 'number', comparisonType, comparisonValue: 5 })),
      leaf({ propertyType: 'number', comparisonType: '>', comparisonValue: '-2.5' }),
      leaf({ propertyType: 'boolean', comparisonType: '=', comparisonValue: false }),
      leaf({
        propertyName: 'lastSeenAt',
        propertyType: 'number',
        comparisonType: '>',
        comparisonValue: 86400000,
        functions: { operator: '-', operand1: '$.currentTime', operand2: { operator: '+', operand1: '$.lastSeenAt', operand2: '10' } },
      }),
      { operator: 'OR', filter: [leaf(), { operator: 'AND', filter: [leaf()] }] },
    ];
    expect(problemsOf(withFilters({ operator: 'AND', filter: leaves }))).toEqual([]);
  });

  it.each<[string, (rule: Record<string, any>) => unknown, string]>([
    [
      'includes of non-strings',
      (r) => (r.cohortEligibility.includes = [1]),
      'rule.cohortEligibility.includes: must be a non-empty array of strings',
    ],
    [
      'a condition not an object',
      (r) => (r.stateTransition.store_opened['0'] = [5]),
      'rule.stateTransition.store_opened.0[0]: must be an object',
    ],
    [
      'a state key not an integer string',
      (r) => (r.stateTransition.store_opened.start = []),
      'rule.stateTransition.store_opened.start: the key "start" is not a state: a decimal integer string such as "0" or "1" (no sign, no leading zeros)',
    ],
    [
      'a state with a leading zero',
      (r) => (r.stateTransition.store_opened['01'] = []),
      'rule.stateTransition.store_opened.01: the key "01" is not a state: a decimal integer string such as "0" or "1" (no sign, no leading zeros)',
    ],
    [
      'transitionTo a name',
      (r) => (r.stateTransition.store_opened['1'][0].transitionTo = 'done'),
      'rule.stateTransition.store_opened.1[0].transitionTo: "done" is not a state: a decimal integer string such as "0" or "1" (no sign, no leading zeros) or a non-negative integer',
    ],
    [
      'transitionTo negative',
      (r) => (r.stateTransition.store_opened['1'][0].transitionTo = -1),
      'rule.stateTransition.store_opened.1[0].transitionTo: -1 is not a state: a decimal integer string such as "0" or "1" (no sign, no leading zeros) or a non-negative integer',
    ],
    ['an empty event name', (r) => (r.stateTransition[''] = {}), 'rule.stateTransition.: event names must be non-empty'],
    [
      'an operator in lower case',
      (r) => (r.stateTransition.store_opened['1'][0].filters.operator = 'and'),
      'rule.stateTransition.store_opened.1[0].filters.operator: "and" is not one of AND, OR (exact case)',
    ],
    [
      'the operator XOR',
      (r) => (r.stateTransition.store_opened['1'][0].filters.operator = 'XOR'),
      'rule.stateTransition.store_opened.1[0].filters.operator: "XOR" is not one of AND, OR (exact case)',
    ],
    [
      'an OR over an empty list',
      (r) => (r.stateTransition.store_opened['1'][0].filters.operator = 'OR'),
      'rule.stateTransition.store_opened.1[0].filters.filter: an OR over an empty list never passes on the device; add a comparison or use AND',
    ],
    [
      'filter not a list',
      (r) => (r.stateTransition.store_opened['1'][0].filters.filter = {}),
      'rule.stateTransition.store_opened.1[0].filters.filter: must be an array of filter groups and comparisons',
    ],
    [
      'a filter item not an object',
      (r) => (r.stateTransition.store_opened['1'][0].filters.filter = ['x']),
      'rule.stateTransition.store_opened.1[0].filters.filter[0]: must be an object: a filter group ({operator, filter}) or a comparison',
    ],
    [
      'the seed comparison EQUALS',
      (r) => (r.stateTransition.store_opened['0'][0].filters.filter[0].comparisonType = 'EQUALS'),
      `${FIRST}.filter[0].comparisonType: "EQUALS" is not one of =, != for propertyType string`,
    ],
    [
      'no propertyType',
      (r) => delete r.stateTransition.store_opened['0'][0].filters.filter[0].propertyType,
      `${FIRST}.filter[0].propertyType: nothing is not one of string, number, boolean`,
    ],
    [
      'propertyType String',
      (r) => (r.stateTransition.store_opened['0'][0].filters.filter[0].propertyType = 'String'),
      `${FIRST}.filter[0].propertyType: "String" is not one of string, number, boolean`,
    ],
    [
      '!= on a number',
      (r) => (r.stateTransition.store_opened['0'][0].filters.filter[1].comparisonType = '!='),
      `${FIRST}.filter[1].comparisonType: "!=" is not one of =, >, <, >=, <= for propertyType number (the device always fails != on numbers)`,
    ],
    [
      'a number compared with a word',
      (r) => (r.stateTransition.store_opened['0'][0].filters.filter[1].comparisonValue = 'lots'),
      `${FIRST}.filter[1].comparisonValue: must be a number or a numeric string for propertyType number, not "lots", which would read as NaN on devices (Number("lots"))`,
    ],
    [
      'a string compared with a number',
      (r) => (r.stateTransition.store_opened['0'][0].filters.filter[0].comparisonValue = 5),
      `${FIRST}.filter[0].comparisonValue: must be a string for propertyType string, not 5`,
    ],
    [
      'an empty propertyName',
      (r) => (r.stateTransition.store_opened['0'][0].filters.filter[0].propertyName = ''),
      `${FIRST}.filter[0].propertyName: must be a non-empty string`,
    ],
    [
      'a functions operator *',
      (r) => (r.stateTransition.store_opened['0'][0].filters.filter[1].functions = { operator: '*', operand1: 1, operand2: 2 }),
      `${FIRST}.filter[1].functions.operator: "*" is not one of +, -`,
    ],
    [
      'a functions operand of a bare name',
      (r) => (r.stateTransition.store_opened['0'][0].filters.filter[1].functions = { operator: '+', operand1: 'cartValue', operand2: 2 }),
      `${FIRST}.filter[1].functions.operand1: "cartValue" is not an operand: a number, a numeric string, "$.<property>", "$.currentTime" or a functions object`,
    ],
    ['actions not a list', (r) => (r.actions = {}), 'rule.actions: must be an array of actions'],
    [
      'an action type BANNER',
      (r) => (r.actions[1].type = 'BANNER'),
      'rule.actions[1].type: "BANNER" is not one of NUDGE_UI, POPUP, NUDGE_ACTION, TOOLTIP',
    ],
    [
      'an action without an actionId',
      (r) => ((r.actions[1].actionId = ''), (r.stateToAction['2'] = 'store_banner')),
      'rule.actions[1].actionId: must be a non-empty string',
    ],
    [
      'stateToAction naming no action',
      (r) => (r.stateToAction['2'] = 'popup'),
      'rule.stateToAction.2: "popup" is not an actionId of rule.actions',
    ],
    [
      'stateToAction keyed by a name',
      (r) => (r.stateToAction = { shown: 'store_banner' }),
      'rule.stateToAction.shown: the key "shown" is not a state: a decimal integer string such as "0" or "1" (no sign, no leading zeros)',
    ],
    [
      'resetStates of a name',
      (r) => (r.resetStates = ['3', 'done']),
      'rule.resetStates[1]: "done" is not a state: a decimal integer string such as "0" or "1" (no sign, no leading zeros)',
    ],
    ['priority unsafe', (r) => (r.priority = 2 ** 60), 'rule.priority: must be an integer'],
    ['stateMachineTTL negative', (r) => (r.stateMachineTTL = -5), 'rule.stateMachineTTL: must be a positive integer'],
    ['window missing', (r) => delete r.frequency.window, 'rule.frequency.window: must be an object'],
    ['window.limit fractional', (r) => (r.frequency.window.limit = 0.5), 'rule.frequency.window.limit: must be a non-negative integer'],
    [
      'window.value beyond a Java int',
      (r) => (r.frequency.window.value = 2 ** 31),
      'rule.frequency.window.value: must not be greater than 2147483647',
    ],
    [
      'window.unit missing',
      (r) => delete r.frequency.window.unit,
      'rule.frequency.window.unit: must be one of days, hours, minutes, seconds, or weeks (stored as days × 7)',
    ],
    [
      'lifespan alias invalid',
      (r) => ((r.frequency.lifespan = { limit: -1 }), delete r.frequency.lifeSpan),
      'rule.frequency.lifeSpan.limit: must be a non-negative integer',
    ],
    ['groupByConfig not an object', (r) => (r.groupByConfig = []), 'rule.groupByConfig: must be an object'],
  ])('refuses %s, naming the path', (_case, change, message) => {
    const rule = examples.rule();
    change(rule);
    expect(problemsOf(rule)).toEqual([message]);
    expect(() => validateCtaRule(rule, ErrorCode.INVALID_REQUEST)).toThrow(new DomainError(ErrorCode.INVALID_REQUEST, message));
  });

  it('refuses a boolean compared with another string, saying what the device would read', () => {
    expect(problemsOf(withFilters({ operator: 'AND', filter: [leaf({ propertyType: 'boolean', comparisonValue: '0' })] }))).toEqual([
      `${FIRST}.filter[0].comparisonValue: "0" would read as true on devices (Boolean("0")); send true or false for propertyType boolean`,
    ]);
  });

  it('refuses a duplicate actionId, naming the first one', () => {
    const rule = examples.rule();
    rule.actions[1].actionId = 'store_banner';
    rule.stateToAction['2'] = 'store_banner';
    expect(problemsOf(rule)).toEqual([
      'rule.actions[1].actionId: "store_banner" is also the actionId of rule.actions[0]; actionIds must be unique',
    ]);
  });

  it(`allows filter groups ${MAX_FILTER_DEPTH} deep, the condition's filters counting as 1`, () => {
    const nest = (depth: number): Record<string, unknown> =>
      depth === 1 ? { operator: 'AND', filter: [leaf()] } : { operator: 'OR', filter: [nest(depth - 1)] };
    expect(problemsOf(withFilters(nest(MAX_FILTER_DEPTH)))).toEqual([]);
    const deepPath = `${FIRST}${'.filter[0]'.repeat(MAX_FILTER_DEPTH)}`;
    expect(problemsOf(withFilters(nest(MAX_FILTER_DEPTH + 1)))).toEqual([`${deepPath}: filter groups nest deeper than 5 levels`]);
  });

  it(`allows ${MAX_FILTER_LEAVES} comparisons per condition, nested ones counted`, () => {
    const leaves = (count: number) => Array.from({ length: count }, () => leaf());
    expect(problemsOf(withFilters({ operator: 'AND', filter: [...leaves(60), { operator: 'AND', filter: leaves(40) }] }))).toEqual([]);
    expect(problemsOf(withFilters({ operator: 'AND', filter: [...leaves(60), { operator: 'AND', filter: leaves(41) }] }))).toEqual([
      `${FIRST}: has 101 comparisons; at most 100 per condition`,
    ]);
  });

  it('names every problem of a rule, in one message, the first 20 of more', () => {
    const rule = examples.rule();
    rule.actions[1].type = 'BANNER';
    rule.stateToAction['2'] = 'popup';
    rule.stateTransition.store_opened['0'][0].filters.filter[0].comparisonType = 'EQUALS';
    rule.priority = 'high';
    expect(() => validateCtaRule(rule, ErrorCode.CTA_CREATION_ERROR)).toThrow(
      new DomainError(
        ErrorCode.CTA_CREATION_ERROR,
        'rule.actions[1].type: "BANNER" is not one of NUDGE_UI, POPUP, NUDGE_ACTION, TOOLTIP; ' +
          'rule.stateToAction.2: "popup" is not an actionId of rule.actions; ' +
          `${FIRST}.filter[0].comparisonType: "EQUALS" is not one of =, != for propertyType string; ` +
          'rule.priority: must be an integer',
      ),
    );
    const many = examples.rule();
    many.resetStates = Array.from({ length: 25 }, (_, index) => `s${index}`);
    const { message } = expectDomainError(() => validateCtaRule(many, ErrorCode.INVALID_REQUEST));
    expect(message.split('; ')).toHaveLength(21);
    expect(message).toMatch(
      /^rule\.resetStates\[0\]: "s0" is not a state.*rule\.resetStates\[19\]: "s19" is not a state[^;]*; and 5 more$/,
    );
  });

  it.each([['rule'], [null], [[]], [undefined]])('refuses %p as not an object', (rule) => {
    expect(() => validateCtaRule(rule, ErrorCode.INVALID_REQUEST)).toThrow(
      new DomainError(ErrorCode.INVALID_REQUEST, 'rule: must be an object'),
    );
  });
});

describe('rules as the real admin panel sends them', () => {
  const booleanLeaf = (comparisonValue: unknown) =>
    withFilters({ operator: 'AND', filter: [leaf({ propertyType: 'boolean', comparisonValue })] });
  const storedValue = (rule: any) => rule.stateTransition.store_opened['0'][0].filters.filter[0].comparisonValue;

  it.each<[unknown, boolean, string | null]>([
    [true, true, null],
    ['true', true, '"true" is stored as the JSON boolean true'],
    ['FALSE', false, '"FALSE" is stored as the JSON boolean false; kept as a string it would read as true on devices (Boolean("FALSE"))'],
    ['', false, '"" is stored as the JSON boolean false'],
  ])('stores the boolean %p as %p, noting what it normalised', (value, meant, note) => {
    const input = booleanLeaf(value);
    const { rule, problems, normalised } = checkCtaRule(input);
    expect(problems).toEqual([]);
    expect(storedValue(rule)).toBe(meant);
    expect(normalised).toEqual(note === null ? [] : [{ path: `${FIRST}.filter[0].comparisonValue`, message: note }]);
    expect(storedValue(input)).toBe(value);
  });

  it('stores a window in weeks as days × 7, noting it, and refuses months saying why', () => {
    const inWeeks = examples.rule();
    inWeeks.frequency.window = { limit: 2, unit: 'weeks', value: 3 };
    const { rule, problems, normalised } = checkCtaRule(inWeeks);
    expect(problems).toEqual([]);
    expect(rule?.frequency.window).toEqual({ limit: 2, unit: 'days', value: 21 });
    expect(normalised).toEqual([
      { path: 'rule.frequency.window', message: '3 weeks are stored as 21 days (devices count in seconds, minutes, hours or days)' },
    ]);
    expect(inWeeks.frequency.window).toEqual({ limit: 2, unit: 'weeks', value: 3 });
    const inMonths = examples.rule();
    inMonths.frequency.window = { limit: 2, unit: 'months', value: 1 };
    expect(problemsOf(inMonths)).toEqual([
      'rule.frequency.window.unit: "months" cannot be stored: a month has no fixed length (28 to 31 days), so devices cannot count one; use days (e.g. 30)',
    ]);
    const tooManyWeeks = examples.rule();
    tooManyWeeks.frequency.window = { limit: 2, unit: 'weeks', value: 2 ** 30 };
    expect(problemsOf(tooManyWeeks)).toEqual([
      `rule.frequency.window.value: ${2 ** 30} weeks are ${7 * 2 ** 30} days, more than the 2147483647 devices can count`,
    ]);
  });

  it('takes "" for a number as sent (devices read it as 0)', () => {
    const rule = withFilters({ operator: 'AND', filter: [leaf({ propertyType: 'number', comparisonValue: '' })] });
    expect(checkCtaRule(rule)).toMatchObject({ problems: [], normalised: [] });
    expect(storedValue(checkCtaRule(rule).rule)).toBe('');
  });

  it("fills in a test CTA's missing cohorts and lifetime cap, and checks those sent", () => {
    const { cohortEligibility: _cohorts, ...rule } = examples.rule();
    const { lifeSpan: _cap, ...frequency } = rule.frequency;
    const stored = validateCtaRule({ ...rule, frequency }, ErrorCode.CTA_CREATION_ERROR, { testCta: true });
    expect(stored.cohortEligibility).toEqual({ includes: ['all'], excludes: [] });
    expect(stored.frequency.lifeSpan).toEqual({ limit: 0 });
    expect(problemsOf({ ...rule, frequency })).toEqual([
      'rule.cohortEligibility: must be an object',
      'rule.frequency.lifeSpan: must be an object',
    ]);
    expect(checkCtaRule({ ...rule, cohortEligibility: { includes: [] } }, { testCta: true }).problems.map(({ path }) => path)).toEqual([
      'rule.cohortEligibility.includes',
      'rule.cohortEligibility.excludes',
    ]);
  });
});
