import type { CtaRule } from '../rule/rule.types';
import { JourneyCta, JourneyEvent, JourneyState, JourneyStep, simulateJourney } from './journey-simulator';

const T = 1_893_456_000_000;
const HOUR = 3_600_000;

/** open: 0 → 1; view: 1 → 2 (the banner); done: 2 → 3, a reset. */
function rule(fields: Partial<CtaRule> = {}): CtaRule {
  return {
    cohortEligibility: { includes: ['all'], excludes: [] },
    stateToAction: { '2': 'banner' },
    resetStates: ['3'],
    stateTransition: {
      open: { '0': [{ transitionTo: '1' }] },
      view: { '1': [{ transitionTo: '2' }] },
      done: { '2': [{ transitionTo: '3' }] },
    },
    priority: 1,
    stateMachineTTL: HOUR,
    actions: [{ actionId: 'banner', type: 'NUDGE_UI', template: { type: 'bottomsheet' } }],
    frequency: { session: { limit: 0 }, window: { limit: 0, unit: 'days', value: 1 }, lifeSpan: { limit: 0 } },
    ...fields,
  };
}

const cta = (fields: Partial<CtaRule> = {}, validTill: number | null = null): JourneyCta => ({
  rule: rule(fields),
  validTill,
  ownMachineId: '12',
});
const noState = (): JourneyState => ({ activeStateMachines: new Map(), resetAt: [], actionDoneAt: [] });
const ev = (eventName: string, at: number, properties: Record<string, unknown> = {}, device: Partial<JourneyEvent> = {}): JourneyEvent => ({
  eventName,
  properties,
  at,
  ...device,
});
const codes = (steps: JourneyStep[]): (string | null)[] => steps.map((step) => step.skipped?.code ?? null);

describe('simulateJourney', () => {
  it('walks a journey: a machine per CTA, its action, its reset, then a new machine', () => {
    const { steps, state } = simulateJourney(cta(), noState(), [ev('open', T), ev('view', T + 1), ev('done', T + 2), ev('open', T + 3)]);
    expect(steps.map(({ from, to, reset }) => [from, to, reset])).toEqual([
      [null, '1', false],
      ['1', '2', false],
      ['2', '3', true],
      [null, '1', false],
    ]);
    expect(steps[0]).toEqual({
      event: 0,
      eventName: 'open',
      machineId: '12',
      from: null,
      to: '1',
      condition: 'rule.stateTransition.open.0[0]',
      action: null,
      reset: false,
      skipped: null,
      created: true,
    });
    expect(steps[1].action).toEqual({ actionId: 'banner', type: 'NUDGE_UI', shown: true });
    expect(state).toEqual({
      // The device never advances lastTransitionAt.
      activeStateMachines: new Map([['12', { currentState: '1', lastTransitionAt: T + 3, createdAt: T + 3, context: {} }]]),
      resetAt: [T + 2],
      actionDoneAt: [T + 1],
    });
  });

  it('does not try the CTA for an event its rule does not name, and keeps a machine in "0" when no condition exists for its state', () => {
    const { steps, state } = simulateJourney(cta(), noState(), [ev('scroll', T), ev('view', T + 1)]);
    expect(steps[0]).toMatchObject({ machineId: null, from: null, to: null, skipped: { code: 'NO_TRANSITION' } });
    expect(steps[0]).not.toHaveProperty('created');
    expect(steps[1]).toMatchObject({ machineId: '12', from: null, to: '0', created: true, skipped: { code: 'NO_TRANSITION' } });
    expect(state.activeStateMachines.get('12')?.currentState).toBe('0');
  });

  it('counts machines left in "0" toward maxActiveStateMachineCount', () => {
    const grouped = cta({ groupByConfig: { groupByKeys: ['store'], maxActiveStateMachineCount: 1 } });
    const { steps } = simulateJourney(grouped, noState(), [ev('view', T, { store: 'a' }), ev('open', T + 1, { store: 'b' })]);
    expect(steps.map((step) => [step.machineId, step.skipped?.code])).toEqual([
      ['a', 'NO_TRANSITION'],
      ['b', 'MACHINE_CAP'],
    ]);
  });

  it('joins group-by values with "-" and skips an event missing one, naming it', () => {
    const grouped = cta({ groupByConfig: { groupByKeys: ['store', 'city'] } });
    const { steps } = simulateJourney(grouped, noState(), [ev('open', T, { store: 7, city: 'blr' }), ev('open', T + 1, { store: 's' })]);
    expect(steps[0].machineId).toBe('7-blr');
    expect(steps[1]).toMatchObject({
      machineId: null,
      skipped: { code: 'GROUP_KEY_MISSING', message: 'the event has no "city" (groupByKeys)' },
    });
  });

  it('reads a null group-by value as present, joined as the empty string; only an absent key is missing', () => {
    const grouped = cta({ groupByConfig: { groupByKeys: ['n', 'b'] } });
    const { steps, state } = simulateJourney(grouped, noState(), [
      ev('open', T, { n: null, b: false }),
      ev('view', T + 1, { n: null, b: false }),
      ev('open', T + 2, { n: null, b: null }),
      ev('open', T + 3, { b: false }),
      ev('open', T + 4, { n: 0, b: 'null' }),
    ]);
    expect(steps.map((step) => [step.machineId, step.from, step.to, step.skipped?.code ?? null])).toEqual([
      ['-false', null, '1', null],
      ['-false', '1', '2', null],
      ['-', null, '1', null],
      [null, null, null, 'GROUP_KEY_MISSING'],
      ['0-null', null, '1', null],
    ]);
    expect(steps[3].skipped?.message).toBe('the event has no "n" (groupByKeys)');
    expect([...state.activeStateMachines.keys()]).toEqual(['-false', '-', '0-null']);
  });

  it('joins other group-by values as String(value), and names a value JavaScript cannot make a string of', () => {
    const grouped = cta({ groupByConfig: { groupByKeys: ['a', 'b', 'c'] } });
    const { steps } = simulateJourney(grouped, noState(), [
      ev('open', T, { a: 1.5, b: true, c: [1, 2] }),
      ev('open', T + 1, { a: { toString: 1, valueOf: 1 }, c: 'x' }),
    ]);
    expect(steps[0].machineId).toBe('1.5-true-1,2');
    expect(steps[1]).toMatchObject({
      machineId: null,
      skipped: { code: 'GROUP_KEY_MISSING', message: `the event has no "b"; the event's "a" cannot be made a string (groupByKeys)` },
    });
  });

  it('keeps a machine alive at exactly createdAt + stateMachineTTL and deletes it a millisecond later', () => {
    const events = [ev('open', T), ev('view', T + HOUR)];
    expect(codes(simulateJourney(cta(), noState(), events).steps)).toEqual([null, null]);
    const { steps, state } = simulateJourney(cta(), noState(), [ev('open', T), ev('view', T + HOUR + 1), ev('view', T + HOUR + 2)]);
    expect(steps[1]).toMatchObject({ from: '1', to: null, deleted: true, skipped: { code: 'MACHINE_EXPIRED' } });
    expect(steps[2]).toMatchObject({ from: null, to: '0', created: true, skipped: { code: 'NO_TRANSITION' } });
    expect(state.activeStateMachines.get('12')?.createdAt).toBe(T + HOUR + 2);
  });

  it('acts until ctaValidTill, at it included', () => {
    const { steps } = simulateJourney(cta({}, T + 1), noState(), [ev('open', T + 1), ev('view', T + 2)]);
    expect(steps[1]).toMatchObject({ machineId: '12', from: '1', to: '1', skipped: { code: 'VALID_TILL_PASSED' } });
    expect(codes(steps)).toEqual([null, 'VALID_TILL_PASSED']);
  });

  describe('frequency caps, counted in resets', () => {
    const capped = (frequency: Partial<CtaRule['frequency']>): JourneyCta => cta({ frequency: { ...rule().frequency, ...frequency } });
    const prior = (resetAt: number[]): JourneyState => ({ ...noState(), resetAt });

    it('lifeSpan: stored resets and this session’s, and it also stops a machine mid-journey', () => {
      const { steps } = simulateJourney(capped({ lifeSpan: { limit: 2 } }), prior([T - 5 * HOUR]), [
        ev('open', T),
        ev('view', T + 1),
        ev('done', T + 2),
        ev('open', T + 3),
      ]);
      expect(steps[3].skipped).toEqual({
        code: 'FREQUENCY_REACHED',
        message: 'the lifeSpan limit 2 is reached: 2 resets in all',
        cap: 'lifeSpan',
      });
    });

    it('window: a reset exactly value × unit ago still counts', () => {
      const window = { window: { limit: 1, unit: 'hours' as const, value: 2 } };
      expect(simulateJourney(capped(window), prior([T - 2 * HOUR]), [ev('open', T)]).steps[0].skipped).toMatchObject({ cap: 'window' });
      expect(simulateJourney(capped(window), prior([T - 2 * HOUR - 1]), [ev('open', T)]).steps[0].skipped).toBeNull();
    });

    it('session: only this session’s resets', () => {
      const journey = [ev('open', T), ev('view', T + 1), ev('done', T + 2), ev('open', T + 3)];
      const { steps } = simulateJourney(capped({ session: { limit: 1 } }), prior([T - 1, T - 2]), journey);
      expect(codes(steps)).toEqual([null, null, null, 'FREQUENCY_REACHED']);
      expect(steps[3].skipped?.cap).toBe('session');
    });

    it('a limit of 0 is not checked', () => {
      expect(simulateJourney(capped({}), prior([T - 1, T - 2, T - 3]), [ev('open', T)]).steps[0].skipped).toBeNull();
    });
  });

  it('takes the first condition that passes, and copies contextParams from the event into the context', () => {
    const branching = cta({
      contextParams: ['store'],
      stateTransition: {
        open: {
          '0': [
            {
              transitionTo: '1',
              filters: {
                operator: 'AND',
                filter: [{ propertyName: 'n', propertyType: 'number', comparisonType: '>', comparisonValue: 9 }],
              },
            },
            { transitionTo: '2' },
          ],
        },
      },
    });
    const { steps, state } = simulateJourney(branching, noState(), [ev('open', T, { n: 3, store: 's1', other: 'x' })]);
    expect(steps[0]).toMatchObject({ to: '2', condition: 'rule.stateTransition.open.0[1]', action: { shown: true } });
    expect(state.activeStateMachines.get('12')?.context).toEqual({ store: 's1' });
  });

  it('records a nudge suppressed for a missing context key, and an action without the event to emit', () => {
    const contextual = cta({ contextParams: ['store'] });
    const { steps, state } = simulateJourney(contextual, noState(), [ev('open', T), ev('view', T + 1)]);
    expect(steps[1].action).toEqual({ actionId: 'banner', type: 'NUDGE_UI', shown: false, reason: 'CONTEXT_MISSING' });
    expect(state.actionDoneAt).toEqual([T + 1]);
    const silent = cta({ actions: [{ actionId: 'banner', type: 'NUDGE_ACTION', template: {} }] });
    expect(simulateJourney(silent, noState(), [ev('open', T), ev('view', T + 1)]).steps[1].action).toMatchObject({
      shown: false,
      reason: 'EVENT_NAME_MISSING',
    });
  });

  describe('the one-action gate', () => {
    const gated = cta({ stateTransition: { open: { '0': [{ transitionTo: '2' }, { transitionTo: '1' }] } } });
    const onlyActing = cta({ stateTransition: { open: { '0': [{ transitionTo: '2' }] } } });
    const flagged = [ev('open', T, { actionDone: true })];

    it('legacy: passes over conditions leading to an acting state when the event carries actionDone', () => {
      expect(simulateJourney(gated, noState(), flagged, 'legacy').steps[0]).toMatchObject({ to: '1', action: null });
      expect(simulateJourney(onlyActing, noState(), flagged, 'legacy').steps[0].skipped).toEqual({
        code: 'FILTERS_FAILED',
        message:
          'no condition for state "0" passed (1 condition tried) (the event carries actionDone, which the legacy engine reads: ' +
          'conditions leading to a state with an action are passed over)',
      });
      // A falsy actionDone does not trigger it.
      expect(simulateJourney(gated, noState(), [ev('open', T, { actionDone: false })], 'legacy').steps[0].to).toBe('2');
    });

    it('newest, the default: the event’s own actionDone no longer matters', () => {
      for (const engine of ['newest', undefined] as const) {
        expect(simulateJourney(gated, noState(), flagged, engine).steps[0]).toMatchObject({
          to: '2',
          action: { actionId: 'banner', shown: true },
          skipped: null,
        });
        expect(simulateJourney(onlyActing, noState(), flagged, engine).steps[0]).toMatchObject({ to: '2', skipped: null });
      }
    });
  });

  it("writes the device's app name, platform and version over the event's properties", () => {
    const leaf = (propertyName: string, value: string) => ({
      propertyName,
      propertyType: 'string',
      comparisonType: '=',
      comparisonValue: value,
    });
    const byDevice = cta({
      stateTransition: {
        open: {
          '0': [
            {
              transitionTo: '1',
              filters: { operator: 'AND', filter: [leaf('platform', 'ios'), leaf('app_version', '5.2.0'), leaf('app_name', 'shop')] },
            },
          ],
        },
      },
    });
    const sent = { platform: 'android', app_version: '1.0', app_name: 'x' };
    expect(codes(simulateJourney(byDevice, noState(), [ev('open', T, sent)]).steps)).toEqual(['FILTERS_FAILED']);
    const device = { platform: 'ios', appVersion: '5.2.0', packageName: 'shop' };
    expect(codes(simulateJourney(byDevice, noState(), [ev('open', T, sent, device)]).steps)).toEqual([null]);
  });

  it('continues a prior machine, keeping its fields, and leaves the prior state untouched', () => {
    const prior: JourneyState = {
      activeStateMachines: new Map([
        ['__proto__', { currentState: '1', lastTransitionAt: T - 5, createdAt: T - 10, context: { a: 1 }, extra: true }],
      ]),
      resetAt: [T - HOUR],
      actionDoneAt: [],
    };
    const keyed = { ...cta(), ownMachineId: '__proto__' };
    const { steps, state } = simulateJourney(keyed, prior, [ev('view', T)]);
    expect(steps[0]).toMatchObject({ machineId: '__proto__', from: '1', to: '2' });
    expect(state.activeStateMachines.get('__proto__')).toEqual({
      currentState: '2',
      lastTransitionAt: T - 5,
      createdAt: T - 10,
      context: { a: 1 },
      extra: true,
    });
    expect(prior.activeStateMachines.get('__proto__')?.currentState).toBe('1');
    expect(prior.actionDoneAt).toEqual([]);
  });
});
