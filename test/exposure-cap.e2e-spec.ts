import { AdminClient } from './admin-client';
import { machine, runClockAfterExamples } from './fixtures';
import { eachDatabase, TestApp } from './harness';
import { SdkClient } from './sdk-client';
import { MINUTE, HOUR } from './test-clock';

type Json = Record<string, any>;

const USER = '4242';
const at = (iso: string): number => Date.parse(iso);

eachDatabase('the exposure cap at launch', (database) => {
  let api: TestApp;
  let tenantCount = 0;

  /** A tenant with `policy` and live CTAs `a` and `b`, and the device of USER. */
  const tenantWith = async (policy: Json) => {
    const admin = new AdminClient(api, `capped-${++tenantCount}`);
    expect((await admin.exposurePolicy.put(policy)).status).toBe(200);
    const ids = { a: await admin.cta(), b: await admin.cta() };
    return { admin, ids, device: new SdkClient(api, admin.tenantId, USER) };
  };
  /** The user acted on each CTA at the times given (a delta, as the device sends it). */
  const acted = async (device: SdkClient, actions: Record<string, number[]>) => {
    const ctas = Object.entries(actions).map(([ctaId, actionDoneAt]) => ({
      ctaId,
      activeStateMachines: { [`machine-${ctaId}`]: machine('1', api.clock.now()) },
      actionDoneAt,
    }));
    expect((await device.delta({ ctas, behaviourTags: [] })).body).toEqual({ data: true });
  };
  const launched = async (device: SdkClient): Promise<Json> => {
    const res = await device.launch();
    expect(res.status).toBe(200);
    return res.body.data;
  };
  const servedIds = async (device: SdkClient): Promise<string[]> => (await launched(device)).ctas.map((cta: Json) => cta.ctaId).sort();
  const explained = async (admin: AdminClient): Promise<Json> => {
    const res = await api.get(`/engine/app-users/${USER}/launch`, admin.headers());
    expect(res.status).toBe(200);
    return res.body.data;
  };
  const capReason = (explanation: Json, ctaId: string): Json | undefined =>
    explanation.ctas.find((cta: Json) => cta.ctaId === ctaId)?.reasons.find((reason: Json) => reason.code === 'EXPOSURE_CAP_REACHED');
  const setClock = (instant: number) => api.clock.advance(instant - api.clock.now());

  beforeAll(async () => {
    api = await TestApp.start(database);
  });
  beforeEach(() => runClockAfterExamples(api));
  afterAll(() => api.close());

  it("over a rolling window serves only exempt CTAs and the test CTAs listing the user, keeps the others' state, and serves them again once a slot frees", async () => {
    const { admin, ids, device } = await tenantWith({ maxActions: 2, window: { value: 1, unit: 'hours' } });
    const exempt = String(await admin.create({ capExempt: true }));
    await admin.move(exempt, 'live');
    const test = await admin.testCta([Number(USER)], 600);
    const now = api.clock.now();
    await acted(device, { [ids.a]: [now - 50 * MINUTE] });
    expect(await servedIds(device)).toEqual([ids.a, ids.b, exempt, test].sort());

    await acted(device, { [ids.b]: [now - 10 * MINUTE] });
    expect(await servedIds(device)).toEqual([exempt, test].sort());
    const explanation = await explained(admin);
    expect(capReason(explanation, ids.a)).toEqual({
      code: 'EXPOSURE_CAP_REACHED',
      message: expect.stringContaining('acted 2 times'),
      count: 2,
      limit: 2,
      freesAt: new Date(now - 50 * MINUTE + HOUR).toISOString(),
    });
    expect(explanation.ctas.find((cta: Json) => cta.ctaId === ids.b)).toMatchObject({ served: false });
    expect(explanation.ctas.find((cta: Json) => cta.ctaId === exempt)).toMatchObject({ served: true });
    expect(explanation.launch).toEqual(await launched(device));

    api.clock.advance(11 * MINUTE);
    const after = await launched(device);
    expect(after.ctas.map((cta: Json) => cta.ctaId).sort()).toEqual([ids.a, ids.b, exempt, test].sort());
    const entry = after.ctas.find((cta: Json) => cta.ctaId === ids.a);
    expect(Object.keys(entry.activeStateMachines)).toEqual([`machine-${ids.a}`]);
    expect(entry.actionDoneAt).toEqual([now - 50 * MINUTE]);
    expect(capReason(await explained(admin), ids.a)).toBeUndefined();
  });

  it('over a calendar day counts the day of its zone: a new day in Kolkata serves again while it is still the same day in Los Angeles', async () => {
    setClock(at('2026-11-28T18:25:00Z'));
    const kolkata = await tenantWith({ maxActions: 2, window: { calendarDay: 'Asia/Kolkata' } });
    const losAngeles = await tenantWith({ maxActions: 2, window: { calendarDay: 'America/Los_Angeles' } });
    for (const { device, ids } of [kolkata, losAngeles]) {
      // 23:40 and 23:50 in Kolkata; 10:10 and 10:20 in Los Angeles.
      await acted(device, { [ids.a]: [at('2026-11-28T18:10:00Z')], [ids.b]: [at('2026-11-28T18:20:00Z')] });
      expect(await servedIds(device)).toEqual([]);
    }
    expect(capReason(await explained(kolkata.admin), kolkata.ids.a)).toMatchObject({
      count: 2,
      limit: 2,
      freesAt: '2026-11-28T18:30:00.000Z',
    });
    expect(capReason(await explained(losAngeles.admin), losAngeles.ids.a)).toMatchObject({ freesAt: '2026-11-29T08:00:00.000Z' });

    setClock(at('2026-11-28T18:35:00Z'));
    expect(await servedIds(kolkata.device)).toEqual([kolkata.ids.a, kolkata.ids.b].sort());
    expect(await servedIds(losAngeles.device)).toEqual([]);
  });

  it('ends a calendar day where its zone does on a DST change: 25 hours in New York on the day clocks go back', async () => {
    // 00:30 EDT on 1 November; at 04:30 UTC the next day it is still 23:30 EST on 1 November.
    setClock(at('2026-11-02T04:30:00Z'));
    const { admin, ids, device } = await tenantWith({ maxActions: 1, window: { calendarDay: 'America/New_York' } });
    await acted(device, { [ids.a]: [at('2026-11-01T04:30:00Z')] });
    expect(await servedIds(device)).toEqual([]);
    expect(capReason(await explained(admin), ids.b)).toMatchObject({ count: 1, limit: 1, freesAt: '2026-11-02T05:00:00.000Z' });
    setClock(at('2026-11-02T05:00:00Z'));
    expect(await servedIds(device)).toEqual([ids.a, ids.b].sort());
  });

  it('counts the actions of a CTA that ended and whose state the launch pruned', async () => {
    const { admin, ids, device } = await tenantWith({ maxActions: 2, window: { value: 1, unit: 'days' } });
    const ending = await admin.cta();
    const now = api.clock.now();
    await acted(device, { [ids.a]: [now - HOUR], [ending]: [now - 2 * HOUR] });
    await admin.move(ending, 'conclude');
    expect(await servedIds(device)).toEqual([]);
    const exported = await admin.appUsers.export(USER);
    expect(exported.body.data.state.ctas.map((cta: Json) => cta.ctaId)).toEqual([ids.a]);
    expect(capReason(await explained(admin), ids.b)).toMatchObject({ count: 2, limit: 2 });
    // Off again: everything is served, whatever was counted.
    await admin.exposurePolicy.put({ maxActions: null });
    expect(await servedIds(device)).toEqual([ids.a, ids.b].sort());
  });

  it('counts the launches it withheld CTAs from', async () => {
    const metric = async () => Number(/^cta_exposure_capped_launches_total (\d+)$/m.exec(String((await api.get('/metrics')).body))?.[1]);
    const { device, ids } = await tenantWith({ maxActions: 1, window: { value: 1, unit: 'hours' } });
    await acted(device, { [ids.a]: [api.clock.now()] });
    const before = await metric();
    await device.launch();
    await device.launch();
    expect((await metric()) - before).toBe(2);
  });
});
