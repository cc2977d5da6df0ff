import { Clock } from '../common/clock';
import { unknownCta } from '../common/cta-id';
import { ErrorCode } from '../common/error-code';
import type { CtaExperiment } from '../ctas/cta-experiment';
import type { CtaRecord } from '../ctas/cta-record';
import { CtaValidationService } from '../ctas/cta-validation.service';
import type { CtasService } from '../ctas/ctas.service';
import { resolveSettings } from '../orchestration-options';
import { NEW_CTA_MACHINE_ID, SimulateService } from './simulate.service';

const NOW = 1_893_456_000_000;

class FixedClock extends Clock {
  override now(): number {
    return NOW;
  }
}

/** app_open: "0" → "1"; product_view: "1" → "2", where the banner shows; purchase: "2" → "3", a reset. */
const rule = () => ({
  cohortEligibility: { includes: ['all'], excludes: [] },
  stateToAction: { '2': 'banner' },
  resetStates: ['3'],
  resetCTAonFirstLaunch: false,
  contextParams: [],
  stateTransition: {
    app_open: { '0': [{ transitionTo: '1' }] },
    product_view: { '1': [{ transitionTo: '2' }] },
    purchase: { '2': [{ transitionTo: '3' }] },
  },
  priority: 1,
  stateMachineTTL: 86_400_000,
  actions: [{ actionId: 'banner', type: 'NUDGE_UI', template: { type: 'bottomsheet', props: { title: 'Hello' } } }],
  frequency: { session: { limit: 10 }, window: { limit: 10, unit: 'days', value: 1 }, lifeSpan: { limit: 10 } },
});
const body = (fields: Record<string, unknown> = {}) => ({
  name: 'journey',
  team: 'growth',
  tags: [],
  description: null,
  startTime: null,
  endTime: null,
  rule: rule(),
  ...fields,
});
const events = [
  { eventName: 'app_open', at: NOW + 1000 },
  { eventName: 'product_view', at: NOW + 2000 },
];
const experiment: CtaExperiment = { holdoutPercent: 10, goal: { state: '3' }, windowDays: 7, holdoutEvent: 'cta_holdout' };

describe('SimulateService', () => {
  /** The simulator over stored CTAs `records` (the CTA read stands in for the ctas feature) and the real body check. */
  function simulator(records: Partial<CtaRecord>[] = []) {
    const clock = new FixedClock();
    const ctas = {
      get: async (_tenantId: string, rawId: string) => {
        const record = records.find((cta) => String(cta.id) === rawId);
        if (!record) throw unknownCta(rawId);
        return record;
      },
    } as unknown as CtasService;
    const validation = new CtaValidationService(ctas, {} as never, {} as never, resolveSettings({}), clock);
    return new SimulateService(ctas, validation, clock);
  }

  it('runs a CTA body over the events as a device does, its machine named $ctaId, and answers the state after them', async () => {
    const { steps, state } = await simulator().simulate('t1', { cta: body(), events });
    expect(steps.map(({ machineId, from, to, action, reset, skipped }) => ({ machineId, from, to, action, reset, skipped }))).toEqual([
      // A new machine: created by the event, from no state.
      { machineId: NEW_CTA_MACHINE_ID, from: null, to: '1', action: null, reset: false, skipped: null },
      {
        machineId: NEW_CTA_MACHINE_ID,
        from: '1',
        to: '2',
        action: { actionId: 'banner', type: 'NUDGE_UI', shown: true },
        reset: false,
        skipped: null,
      },
    ]);
    expect(state).toEqual({
      activeStateMachines: {
        [NEW_CTA_MACHINE_ID]: { currentState: '2', lastTransitionAt: NOW + 1000, createdAt: NOW + 1000, context: {} },
      },
      resetAt: [],
      actionDoneAt: [NOW + 2000],
    });
  });

  it('runs a stored CTA by id, its machine named by the id', async () => {
    const stored = { id: 12, rule: { ...rule(), ctaValidTill: null }, experiment: null } as unknown as CtaRecord;
    const { steps, state } = await simulator([stored]).simulate('t1', { cta: { id: 12 }, events });
    expect(steps.map((step) => [step.machineId, step.to])).toEqual([
      ['12', '1'],
      ['12', '2'],
    ]);
    expect(Object.keys(state.activeStateMachines)).toEqual(['12']);
  });

  it("runs the holdout variant for arm holdout: the same journey, its action emitting the experiment's event", async () => {
    const stored = { id: 12, rule: { ...rule(), ctaValidTill: null }, experiment } as unknown as CtaRecord;
    const { steps, state } = await simulator([stored]).simulate('t1', { cta: { id: 12 }, events, arm: 'holdout' });
    expect(steps[1]).toMatchObject({ to: '2', action: { actionId: 'banner', type: 'NUDGE_ACTION' } });
    expect(state.actionDoneAt).toEqual([NOW + 2000]);
    const treatment = await simulator([stored]).simulate('t1', { cta: { id: 12 }, events, arm: 'treatment' });
    expect(treatment.steps[1].action).toEqual({ actionId: 'banner', type: 'NUDGE_UI', shown: true });
  });

  it('refuses arm holdout for a CTA without an experiment (INVALID_REQUEST)', async () => {
    await expect(simulator().simulate('t1', { cta: body(), events, arm: 'holdout' })).rejects.toMatchObject({
      code: ErrorCode.INVALID_REQUEST,
      message: 'arm: "holdout" runs the holdout variant of an experiment, and this CTA has no experiment',
    });
  });

  it('refuses a CTA body as create refuses it, each problem under cta', async () => {
    const broken = body({ rule: { ...rule(), priority: 'high' }, team: undefined });
    const refusal = simulator().simulate('t1', { cta: broken, events });
    await expect(refusal).rejects.toMatchObject({ code: ErrorCode.INVALID_REQUEST });
    const { message } = (await refusal.catch((error: unknown) => error)) as Error;
    expect(message).toContain('cta.team');
    expect(message).toContain('cta.rule.priority');
  });

  it('answers CTA_ID_INVALID for an unknown stored CTA, and INVALID_REQUEST for a body that is not an object', async () => {
    await expect(simulator().simulate('t1', { cta: { id: 99 }, events })).rejects.toMatchObject({ code: ErrorCode.CTA_ID_INVALID });
    await expect(simulator().simulate('t1', [])).rejects.toMatchObject({ code: ErrorCode.INVALID_REQUEST });
  });
});
