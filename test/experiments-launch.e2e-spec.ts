import { armOf } from '../src/serving/experiment-arm';
import { AdminClient } from './admin-client';
import { ctaBody, examples } from './fixtures';
import { eachDatabase, errorBody, TestApp } from './harness';
import { SdkClient } from './sdk-client';

type Json = Record<string, any>;

/** An experiment at the launch, in explain and in simulate (docs/experiments.md): who is held out, and what they get. */

const EXPERIMENT = { holdoutPercent: 20, goal: { state: '3' }, holdoutEvent: 'nudge_held' };
const USERS = Array.from({ length: 400 }, (_, index) => String(7_000_000 + index * 7919));

eachDatabase('Experiments at the launch', (database) => {
  let api: TestApp;
  beforeAll(async () => {
    api = await TestApp.start(database);
  });
  afterAll(() => api.close());

  const launchEntry = async (tenantId: string, userId: string, ctaId: string): Promise<Json> => {
    const res = await new SdkClient(api, tenantId, userId).launch();
    expect(res.status).toBe(200);
    const entry = res.body.data.ctas.find((cta) => cta.ctaId === ctaId);
    expect(entry).toBeDefined();
    return entry as Json;
  };

  it('holds out a stable share of users within binomial bounds, each served the holdout variant of exactly the same journey', async () => {
    const admin = new AdminClient(api, 'experiment-split');
    const id = String(await admin.create({ experiment: EXPERIMENT }));
    const plain = String(await admin.create());
    await admin.move(id, 'live');
    await admin.move(plain, 'live');
    let heldOut = 0;
    let treatment: Json | undefined;
    let holdout: Json | undefined;
    for (const userId of USERS) {
      const entry = await launchEntry('experiment-split', userId, id);
      const arm = armOf('experiment-split', id, userId, EXPERIMENT.holdoutPercent);
      const isHoldout = entry.rule.actions[0].type === 'NUDGE_ACTION';
      expect(isHoldout).toBe(arm === 'holdout');
      if (isHoldout) heldOut++;
      if (isHoldout) holdout ??= entry;
      else treatment ??= entry;
      // A CTA without an experiment is the same for everyone.
      expect((await launchEntry('experiment-split', userId, plain)).rule.actions[0].type).toBe('NUDGE_UI');
    }
    // 400 users at 20%: 80 expected, standard deviation 8; four of them either side.
    expect(heldOut).toBeGreaterThanOrEqual(48);
    expect(heldOut).toBeLessThanOrEqual(112);
    // The variant: every action replaced, its actionId kept; everything else as the treatment has it.
    expect(holdout!.rule.actions).toEqual([
      { actionId: 'store_banner', type: 'NUDGE_ACTION', template: { eventName: 'nudge_held' } },
      { actionId: 'discount_popup', type: 'NUDGE_ACTION', template: { eventName: 'nudge_held' } },
    ]);
    expect({ ...holdout, rule: { ...holdout!.rule, actions: [] } }).toEqual({ ...treatment, rule: { ...treatment!.rule, actions: [] } });
    expect(Object.keys(holdout!.rule)).toEqual(Object.keys(treatment!.rule));
    // Stable: the same users, launch after launch.
    const again = await launchEntry('experiment-split', USERS[0], id);
    expect(again.rule.actions[0].type === 'NUDGE_ACTION').toBe(armOf('experiment-split', id, USERS[0], 20) === 'holdout');
  });

  it('salts the buckets with the CTA: two experiments hold out different users', () => {
    const both = USERS.filter((userId) => armOf('t', '1', userId, 50) === 'holdout' && armOf('t', '2', userId, 50) === 'holdout');
    // Independent halves overlap on about a quarter (100 of 400; bounds of four standard deviations).
    expect(both.length).toBeGreaterThanOrEqual(65);
    expect(both.length).toBeLessThanOrEqual(135);
  });

  it('explain marks a holdout user HOLDOUT beside SERVED, and its launch is the real one', async () => {
    const admin = new AdminClient(api, 'experiment-explain');
    const id = String(await admin.create({ experiment: EXPERIMENT }));
    await admin.move(id, 'live');
    const held = USERS.find((userId) => armOf('experiment-explain', id, userId, 20) === 'holdout')!;
    const treated = USERS.find((userId) => armOf('experiment-explain', id, userId, 20) === 'treatment')!;
    const explain = async (userId: string): Promise<Json> => {
      const res = await api.get(`/engine/app-users/${userId}/launch`, { 'x-tenant-id': 'experiment-explain' });
      expect(res.status).toBe(200);
      return res.body.data;
    };
    const heldExplained = await explain(held);
    expect(heldExplained.ctas[0].reasons.map((reason: Json) => reason.code)).toEqual(['SERVED', 'HOLDOUT']);
    expect(heldExplained.ctas[0].reasons[1].message).toContain('"nudge_held"');
    expect(heldExplained.launch).toEqual((await new SdkClient(api, 'experiment-explain', held).launch()).body.data);
    expect(heldExplained.launch.ctas[0].rule.actions[0].type).toBe('NUDGE_ACTION');
    expect((await explain(treated)).ctas[0].reasons.map((reason: Json) => reason.code)).toEqual(['SERVED']);
  });

  describe('simulate', () => {
    const simulate = (body: unknown) => api.post('/engine/ctas/simulate', body, { 'x-tenant-id': 'experiment-simulate' });
    const opened = { source: 'home', cartValue: 650, storeId: 'store-77' };
    const events = [{ eventName: 'store_opened', properties: opened, at: 1_000 }];

    it('runs the holdout variant with "arm": "holdout": the same journey, the holdout event where the treatment acts', async () => {
      const body = { cta: ctaBody({ experiment: EXPERIMENT }), events };
      const treatment = await simulate(body);
      const holdout = await simulate({ ...body, arm: 'holdout' });
      expect(holdout.status).toBe(200);
      expect(treatment.body.data.steps[0].action).toMatchObject({ actionId: 'store_banner', type: 'NUDGE_UI' });
      expect(holdout.body.data.steps[0].action).toMatchObject({ actionId: 'store_banner', type: 'NUDGE_ACTION', shown: true });
      expect(holdout.body.data.state).toEqual(treatment.body.data.state);
      expect((await simulate({ ...body, arm: 'treatment' })).body).toEqual(treatment.body);
      // A stored CTA by id too.
      const admin = new AdminClient(api, 'experiment-simulate');
      const id = await admin.create({ experiment: EXPERIMENT });
      const byId = await simulate({ cta: { id }, events, arm: 'holdout' });
      expect(byId.body.data.steps[0].action).toMatchObject({ type: 'NUDGE_ACTION' });
    });

    it('names arm for another value, and for a CTA without an experiment', async () => {
      const other = await simulate({ cta: ctaBody({ experiment: EXPERIMENT }), events, arm: 'control' });
      expect(other.body).toEqual(
        errorBody('INVALID_REQUEST', 'arm: must be "treatment" or "holdout" (default "treatment"), not "control"'),
      );
      const none = await simulate({ cta: { ...ctaBody(), rule: examples.rule() }, events, arm: 'holdout' });
      expect(none.body).toEqual(errorBody('INVALID_REQUEST', expect.stringMatching(/^arm: "holdout" .* has no experiment$/)));
    });
  });
});
