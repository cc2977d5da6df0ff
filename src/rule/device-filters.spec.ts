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
    ['=', '5', 5, true],
    ['=', '5.0', 5, false],
    ['!=', '5', 5, false],
    ['=', 'true', true, true],
    ['=', 'false', false, true],
    ['=', 'null', null, true],
    ['!=', 'null', null, false],
    ['!=', 'x', null, true],
    ['=', '', null, false],
    ['=', '1,2', [1, 2], true],
    ['=', '[object Object]', { a: 1 }, true],
  ])('compares String(value) with a string: %s %j with %j → %p', (comparison, target, value, expected) => {
    expect(passes(leaf('string', comparison, target), { p: value })).toBe(expected);
  });

  it('fails every comparison of a property the event does not carry, != included, with or without functions', () => {
    for (const [type, comparison, target] of [
      ['string', '!=', 'email'],
      ['string', '!=', 'undefined'],
      ['number', '<', 10],
      ['boolean', '=', false],
    ] as const) {
      expect(passes(leaf(type, comparison, target), {})).toBe(false);
      expect(passes(leaf(type, comparison, target), { q: 1 })).toBe(false);
    }
    // An inherited name is not a property of the event.
    expect(
      passes(
        { operator: 'AND', filter: [{ propertyName: 'toString', propertyType: 'string', comparisonType: '!=', comparisonValue: 'x' }] },
        {},
      ),
    ).toBe(false);
    // A computed value needs its propertyName on the event too, though the functions do not read it.
    const sinceEpoch = leaf('number', '>', 0, { functions: { operator: '+', operand1: '$.currentTime', operand2: 0 } });
    expect(passes(sinceEpoch, { p: 'anything' })).toBe(true);
    expect(passes(sinceEpoch, {})).toBe(false);
  });

  it('reads a value JavaScript cannot make a string or a number of as failing, not as an error', () => {
    const unreadable = { toString: 1, valueOf: 1 };
    expect(passes(leaf('string', '!=', 'x'), { p: unreadable })).toBe(false);
    expect(passes(leaf('number', '<', 10), { p: unreadable })).toBe(false);
    expect(passes(leaf('boolean', '=', true), { p: unreadable })).toBe(true);
  });

  it.each<[string, unknown, unknown, boolean]>([
    ['>=', 500, 500, true],
    ['>=', 500, 499, false],
    ['<', '10', 3, true],
    ['<', '10', 10, false],
    ['=', 750, '750', true],
    ['>', 1, 'many', false],
    ['<', 1, 'many', false],
    ['!=', 1, 2, false],
    ['=', 1, true, true],
    ['=', 0, false, true],
    ['=', 0, null, true],
    ['<', 1, null, true],
    ['>=', 0, null, true],
    ['=', 0, '', true],
    ['=', 0, ' ', true],
    ['=', 16, '0x10', true],
    ['=', 5, [5], true],
    ['<', 1e9, {}, false],
    ['>', -1e9, {}, false],
    ['=', 5, '5', true],
    ['=', '', 0, true],
  ])('compares Number(value), as JavaScript reads it: %s %j with %j → %p', (comparison, target, value, expected) => {
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
    [false, null, true],
    [true, null, false],
    [true, 'null', true],
    [true, {}, true],
    [false, Number.NaN, true],
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
