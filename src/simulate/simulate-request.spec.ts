import { DomainError } from '../common/domain-error';
import { MAX_SIMULATED_EVENTS, parseSimulateRequest } from './simulate-request';

const NOW = 5_000;

function problemsOf(body: unknown): string {
  try {
    parseSimulateRequest(body, NOW);
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    return (error as DomainError).message;
  }
  throw new Error('the request was accepted');
}

describe('parseSimulateRequest', () => {
  it('reads a CTA by id (as a number or a decimal string) or a CTA body', () => {
    expect(parseSimulateRequest({ cta: { id: '012' }, events: [{ eventName: 'e' }] }, NOW).cta).toEqual({ id: 12 });
    const body = { name: 'n', rule: {} };
    expect(parseSimulateRequest({ cta: body, events: [{ eventName: 'e' }] }, NOW).cta).toEqual({ body });
  });

  it('times events without `at` at now plus their index, and reads optional fields sent as null as absent', () => {
    const { events, state } = parseSimulateRequest(
      {
        cta: { id: 1 },
        state: null,
        events: [
          { eventName: 'a', at: NOW - 3 },
          { eventName: 'b', properties: null, platform: null },
        ],
      },
      NOW,
    );
    expect(events).toEqual([
      { eventName: 'a', properties: {}, at: NOW - 3 },
      { eventName: 'b', properties: {}, at: NOW + 1 },
    ]);
    expect(state).toEqual({ activeStateMachines: new Map(), resetAt: [], actionDoneAt: [] });
  });

  it('runs the newest engine unless the legacy one is asked for; any other engine is a problem named at engine', () => {
    const request = (engine?: unknown) => ({ cta: { id: 1 }, events: [{ eventName: 'e' }], ...(engine === undefined ? {} : { engine }) });
    expect(parseSimulateRequest(request(), NOW).engine).toBe('newest');
    expect(parseSimulateRequest(request(null), NOW).engine).toBe('newest');
    expect(parseSimulateRequest(request('newest'), NOW).engine).toBe('newest');
    expect(parseSimulateRequest(request('legacy'), NOW).engine).toBe('legacy');
    for (const engine of ['Legacy', 'latest', '', 1, true, ['legacy'], {}]) {
      expect(problemsOf(request(engine))).toBe(`engine: must be "newest" or "legacy" (default "newest"), not ${JSON.stringify(engine)}`);
    }
  });

  it('completes prior machines: lastTransitionAt defaults to createdAt, context to {}', () => {
    const { state } = parseSimulateRequest(
      {
        cta: { id: 1 },
        state: { activeStateMachines: { m: { currentState: '1', createdAt: 10 } }, resetAt: [1, 2] },
        events: [{ eventName: 'e' }],
      },
      NOW,
    );
    expect(state.activeStateMachines.get('m')).toEqual({ currentState: '1', createdAt: 10, lastTransitionAt: 10, context: {} });
    expect(state.resetAt).toEqual([1, 2]);
  });

  it(`takes 1 to ${MAX_SIMULATED_EVENTS} events in time order`, () => {
    expect(problemsOf({ cta: { id: 1 }, events: Array.from({ length: MAX_SIMULATED_EVENTS + 1 }, () => ({ eventName: 'e' })) })).toBe(
      `events: must be an array of 1 to ${MAX_SIMULATED_EVENTS} events, not ${MAX_SIMULATED_EVENTS + 1} events`,
    );
    expect(problemsOf({ cta: { id: 1 } })).toBe(`events: must be an array of 1 to ${MAX_SIMULATED_EVENTS} events, not nothing`);
    expect(problemsOf({ cta: { id: 1 }, events: [{ eventName: 'e' }, { eventName: 'e', at: 9 }] })).toBe(
      `events[1].at: 9 is before the previous event's ${NOW}: events come in time order`,
    );
  });

  it('names every problem at its path', () => {
    expect(
      problemsOf({
        cta: { id: 3, name: 'x' },
        state: { resetAt: [-1], activeStateMachines: { m: { currentState: 1, createdAt: 'x', context: [] } }, extra: 1 },
        events: [{ eventName: 'e', appVersion: 5 }],
        dryRun: true,
        engine: 'v2',
        arm: 'control',
      }),
    ).toBe(
      [
        'dryRun: is not a field of the request (cta, state, events, engine, arm)',
        'cta.name: is not a field of a CTA named by id (id)',
        'state.extra: is not a field of the state (activeStateMachines, resetAt, actionDoneAt)',
        'state.activeStateMachines.m.currentState: must be a state (a string such as "1"), not 1',
        'state.activeStateMachines.m.createdAt: must be epoch milliseconds, not "x"',
        'state.activeStateMachines.m.lastTransitionAt: must be epoch milliseconds, not "x"',
        'state.activeStateMachines.m.context: must be an object',
        'state.resetAt[0]: must be epoch milliseconds (an integer ≥ 0), not -1',
        'events[0].appVersion: must be a string, not 5',
        'engine: must be "newest" or "legacy" (default "newest"), not "v2"',
        'arm: must be "treatment" or "holdout" (default "treatment"), not "control"',
      ].join('; '),
    );
  });
});
