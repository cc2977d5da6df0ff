import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { filtersPass } from '../rule/device-filters';
import { simulateJourney } from './journey-simulator';
import { checkCtaRule } from '../rule/cta-rule';
import { eligibilityCohorts, ruleWarnings } from '../rule/cta-rule-warnings';
import type { CtaRule } from '../rule/rule.types';

/**
 * The examples of docs/rule-reference.md, checked by the grammar and run through the simulator's
 * own reading of them (`filtersPass`, `simulateJourney`: the device's semantics,
 * docs/decisions/0016-explain-and-simulate.md), so the reference cannot show a rule that the service
 * refuses or that does something else than it says.
 */

type Json = Record<string, any>;

const reference = readFileSync(join(__dirname, '../../docs/rule-reference.md'), 'utf8');
const blocks: unknown[] = [...reference.matchAll(/```json\n([\s\S]*?)```/g)].map(([, text]) => JSON.parse(text));
const block = (matches: (value: any) => boolean): any => {
  const found = blocks.filter(matches);
  expect(found).toHaveLength(1);
  return found[0];
};

/** Whether `filters` pass for an event of these properties at `now`, as the simulator evaluates them. */
const passes = (filters: unknown, properties: Json, now = 0): boolean => filtersPass(filters, { properties, at: now });

interface Step {
  event: string;
  properties: Json;
  state: string;
  action: string | null;
  reset?: boolean;
}

/** What the simulator says each step does, written as the reference writes it. */
function walk(rule: CtaRule, steps: Step[]): Step[] {
  const events = steps.map(({ event, properties }, index) => ({ eventName: event, properties, at: index }));
  const noState = { activeStateMachines: new Map(), resetAt: [], actionDoneAt: [] };
  const simulated = simulateJourney({ rule, validTill: null, ownMachineId: 'cta' }, noState, events).steps;
  return steps.map(({ event, properties }, index) => {
    const { to, action, reset } = simulated[index];
    return { event, properties, state: to as string, action: action?.actionId ?? null, ...(reset ? { reset: true } : {}) };
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
