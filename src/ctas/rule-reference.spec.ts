import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkCtaRule } from './cta-rule';
import { eligibilityCohorts, ruleWarnings } from './cta-rule-warnings';

/**
 * The examples of docs/rule-reference.md, checked by the grammar and run through a small
 * interpreter of the device's filter semantics (docs/decisions/0003-device-rule-grammar.md), so the reference cannot
 * show a rule that the service refuses or that does something else than it says.
 */

type Json = Record<string, any>;

const reference = readFileSync(join(__dirname, '../../docs/rule-reference.md'), 'utf8');
const blocks: unknown[] = [...reference.matchAll(/```json\n([\s\S]*?)```/g)].map(([, text]) => JSON.parse(text));
const block = (matches: (value: any) => boolean): any => {
  const found = blocks.filter(matches);
  expect(found).toHaveLength(1);
  return found[0];
};

/** The device's reading of a value: numbers and numeric strings as numbers. */
const numberOf = (value: unknown): number => (typeof value === 'number' ? value : Number(value));

function computed(functions: Json, event: Json, now: number): number {
  const operand = (value: unknown): number => {
    if (typeof value === 'object' && value !== null) return computed(value as Json, event, now);
    if (value === '$.currentTime') return now;
    if (typeof value === 'string' && value.startsWith('$.')) return numberOf(event[value.slice(2)]);
    return numberOf(value);
  };
  const [left, right] = [operand(functions.operand1), operand(functions.operand2)];
  return functions.operator === '+' ? left + right : left - right;
}

/** Whether `filters` pass for `event`, the way the SDK evaluates them. */
function passes(filters: Json | null | undefined, event: Json, now = 0): boolean {
  if (!filters || Object.keys(filters).length === 0) return true;
  const items: Json[] = filters.filter;
  const pass = (item: Json): boolean => ('operator' in item ? passes(item, event, now) : compare(item, event, now));
  return filters.operator === 'AND' ? items.every(pass) : filters.operator === 'OR' ? items.some(pass) : false;
}

function compare(leaf: Json, event: Json, now: number): boolean {
  const value = leaf.functions ? computed(leaf.functions, event, now) : event[leaf.propertyName];
  const expected = leaf.comparisonValue;
  switch (`${leaf.propertyType} ${leaf.comparisonType}`) {
    case 'string =':
      return value === expected;
    case 'string !=':
      return value !== expected;
    case 'number =':
      return numberOf(value) === numberOf(expected);
    case 'number >':
      return numberOf(value) > numberOf(expected);
    case 'number <':
      return numberOf(value) < numberOf(expected);
    case 'number >=':
      return numberOf(value) >= numberOf(expected);
    case 'number <=':
      return numberOf(value) <= numberOf(expected);
    case 'boolean =':
      // Truthiness: the string "false" reads as true.
      return Boolean(value) === Boolean(expected);
    default:
      // `number !=`, `EQUALS`, a missing propertyType: the device knows nothing else and fails.
      return false;
  }
}

interface Step {
  event: string;
  properties: Json;
  state: string;
  action: string | null;
  reset?: boolean;
}

/** Walks a rule's machines (one per groupByKeys value) through `steps`, answering what each step did. */
function walk(rule: Json, steps: Step[]): Step[] {
  const machines = new Map<string, string>();
  return steps.map(({ event, properties }) => {
    const key = (rule.groupByConfig?.groupByKeys ?? []).map((name: string) => properties[name]).join('|');
    const state = machines.get(key) ?? '0';
    const condition = (rule.stateTransition[event]?.[state] ?? []).find((candidate: Json) => passes(candidate.filters, properties));
    if (!condition) return { event, properties, state, action: null };
    const next: string = condition.transitionTo;
    const reset = (rule.resetStates ?? []).includes(next);
    if (reset) machines.delete(key);
    else machines.set(key, next);
    return { event, properties, state: next, action: rule.stateToAction[next] ?? null, ...(reset ? { reset: true } : {}) };
  });
}

describe('docs/rule-reference.md', () => {
  const example = block((value) => value?.rule !== undefined);
  const events = block((value) => Array.isArray(value?.events));

  it('shows a worked example that create accepts', () => {
    expect(checkCtaRule(example.rule).problems).toEqual([]);
  });

  it('registers events that leave the validate endpoint only the cohort to warn about', () => {
    expect(ruleWarnings(example.rule, events.events)).toEqual([]);
    expect(eligibilityCohorts(example.rule).map((cohort) => cohort.name)).toEqual(['paying_users']);
  });

  it('walks the worked example as the reference says the device does', () => {
    const steps: Step[] = block((value) => Array.isArray(value) && value[0]?.event !== undefined);
    expect(walk(example.rule, steps)).toEqual(steps);
  });

  it('shows a filter group that create accepts and that passes as its comparisons say', () => {
    const group = block((value) => value?.operator === 'AND' && Array.isArray(value.filter));
    const rule = JSON.parse(JSON.stringify(example.rule));
    rule.stateTransition.store_opened['0'][0].filters = group;
    expect(checkCtaRule(rule).problems).toEqual([]);
    expect(passes(group, { source: 'home', cartValue: 500 })).toBe(true);
    expect(passes(group, { source: 'home', cartValue: '10', isMember: true })).toBe(true);
    expect(passes(group, { source: 'home', cartValue: 10, isMember: false })).toBe(false);
    expect(passes(group, { source: 'Home', cartValue: 900 })).toBe(false);
  });

  it('shows a functions comparison that create accepts and that computes as it says', () => {
    const leaf = block((value) => value?.functions !== undefined);
    const rule = JSON.parse(JSON.stringify(example.rule));
    rule.stateTransition.store_opened['0'][0].filters = { operator: 'AND', filter: [leaf] };
    expect(checkCtaRule(rule).problems).toEqual([]);
    const now = 10 * 86_400_000;
    expect(passes({ operator: 'AND', filter: [leaf] }, { lastSeenAt: now - 2 * 86_400_000 }, now)).toBe(true);
    expect(passes({ operator: 'AND', filter: [leaf] }, { lastSeenAt: now - 3_600_000 }, now)).toBe(false);
  });

  it('explains why the grammar refuses what it refuses: the device never matches those', () => {
    const event = { source: 'home', cartValue: 1, isMember: 'false' };
    expect(
      passes({ operator: 'AND', filter: [{ propertyName: 'source', comparisonType: 'EQUALS', comparisonValue: 'home' }] }, event),
    ).toBe(false);
    expect(
      passes(
        { operator: 'AND', filter: [{ propertyName: 'cartValue', propertyType: 'number', comparisonType: '!=', comparisonValue: 2 }] },
        event,
      ),
    ).toBe(false);
    expect(passes({ operator: 'OR', filter: [] }, event)).toBe(false);
    expect(passes({ operator: 'XOR', filter: [] }, event)).toBe(false);
    // A boolean compared with the string "false" reads it as true.
    expect(
      passes(
        { operator: 'AND', filter: [{ propertyName: 'isMember', propertyType: 'boolean', comparisonType: '=', comparisonValue: true }] },
        event,
      ),
    ).toBe(true);
  });
});
