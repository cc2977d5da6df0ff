import { DeviceEvent, filtersPass } from './device-filters';

const AT = 1_000_000;
const event = (properties: Record<string, unknown>): DeviceEvent => ({ properties, at: AT });
const leaf = (propertyType: string, comparisonType: string, comparisonValue: unknown, extra: Record<string, unknown> = {}) => ({
  operator: 'AND',
  filter: [{ propertyName: 'p', propertyType, comparisonType, comparisonValue, ...extra }],
});
const passes = (filters: unknown, properties: Record<string, unknown>): boolean => filtersPass(filters, event(properties));

describe('filtersPass', () => {
  it('passes absent, null and empty filters, and an AND over nothing; never an OR over nothing', () => {
    expect(passes(undefined, {})).toBe(true);
    expect(passes(null, {})).toBe(true);
    expect(passes({}, {})).toBe(true);
    expect(passes({ operator: 'AND', filter: [] }, {})).toBe(true);
    expect(passes({ operator: 'OR', filter: [] }, {})).toBe(false);
  });

  it.each<[string, unknown, unknown, boolean]>([
    ['=', 'home', 'home', true],
    ['=', 'home', 'Home', false],
    ['!=', 'email', 'push', true],
    ['!=', 'email', 'email', false],
    ['=', '5', 5, false],
  ])('compares strings exactly: %s %j with %j → %p', (comparison, target, value, expected) => {
    expect(passes(leaf('string', comparison, target), { p: value })).toBe(expected);
  });

  it('fails every comparison of a property the event does not carry, != included', () => {
    for (const [type, comparison, target] of [
      ['string', '!=', 'email'],
      ['number', '<', 10],
      ['boolean', '=', false],
    ] as const) {
      expect(passes(leaf(type, comparison, target), {})).toBe(false);
      expect(passes(leaf(type, comparison, target), { p: null })).toBe(false);
    }
    // An inherited name is not a property of the event.
    expect(
      passes(
        { operator: 'AND', filter: [{ propertyName: 'toString', propertyType: 'string', comparisonType: '!=', comparisonValue: 'x' }] },
        {},
      ),
    ).toBe(false);
  });

  it.each<[string, unknown, unknown, boolean]>([
    ['>=', 500, 500, true],
    ['>=', 500, 499, false],
    ['<', '10', 3, true],
    ['<', '10', 10, false],
    ['=', 750, '750', true],
    ['>', 1, 'many', false],
    ['!=', 1, 2, false],
  ])('compares numbers as numbers, numeric strings included: %s %j with %j → %p', (comparison, target, value, expected) => {
    expect(passes(leaf('number', comparison, target), { p: value })).toBe(expected);
  });

  it.each<[unknown, unknown, boolean]>([
    [true, true, true],
    [true, 1, true],
    [true, 'false', true],
    [true, false, false],
    [true, 0, false],
    [false, 0, true],
    [false, '', true],
  ])('compares booleans as Boolean(value): = %j with %j → %p', (target, value, expected) => {
    expect(passes(leaf('boolean', '=', target), { p: value })).toBe(expected);
  });

  it('compares a computed number with functions, $.currentTime being the event time', () => {
    const dayAgo = leaf('number', '>', 86_400_000, { functions: { operator: '-', operand1: '$.currentTime', operand2: '$.lastSeen' } });
    expect(passes(dayAgo, { p: 0, lastSeen: AT - 86_400_001 })).toBe(true);
    expect(passes(dayAgo, { p: 0, lastSeen: AT - 86_400_000 })).toBe(false);
    expect(passes(dayAgo, { p: 0 })).toBe(false);
    const nested = leaf('number', '=', 12, {
      functions: { operator: '+', operand1: '2', operand2: { operator: '+', operand1: '$.p', operand2: 5 } },
    });
    expect(passes(nested, { p: '5' })).toBe(true);
  });

  it('nests groups: AND of a comparison and an OR', () => {
    const filters = {
      operator: 'AND',
      filter: [
        { propertyName: 'src', propertyType: 'string', comparisonType: '=', comparisonValue: 'home' },
        {
          operator: 'OR',
          filter: [
            { propertyName: 'amount', propertyType: 'number', comparisonType: '>=', comparisonValue: 500 },
            { propertyName: 'vip', propertyType: 'boolean', comparisonType: '=', comparisonValue: true },
          ],
        },
      ],
    };
    expect(passes(filters, { src: 'home', amount: 10, vip: true })).toBe(true);
    expect(passes(filters, { src: 'home', amount: 900 })).toBe(true);
    expect(passes(filters, { src: 'home', amount: 10, vip: false })).toBe(false);
    expect(passes(filters, { src: 'search', amount: 900 })).toBe(false);
  });
});
