import { armOf } from '../src/serving/experiment-arm';
import { AdminClient } from './admin-client';
import { machine } from './fixtures';
import { eachDatabase, errorBody, TestApp } from './harness';
import { insightsSuite, snapshot } from './insights';
import { DAY } from './test-clock';

/** An experiment's counts, exact at merge time, and its report (docs/experiments.md). */

/** The example rule's journey: "1" (the banner) on a store opening, "3" (a reset state) on a purchase. */
const GOAL = { state: '3' };

eachDatabase('Experiments: counting and the report', (database) => {
  let api: TestApp;
  let tenantCount = 0;
  const { device, send, experimentOf } = insightsSuite(() => api);
  beforeAll(async () => {
    api = await TestApp.start(database);
  });
  afterAll(() => api.close());

  /** A fresh tenant with a live CTA holding out `holdoutPercent`, and users of each arm. */
  const setUp = async (holdoutPercent: number) => {
    const admin = new AdminClient(api, `experiment-count-${++tenantCount}`);
    const id = String(await admin.create({ experiment: { holdoutPercent, goal: GOAL, windowDays: 7 } }));
    await admin.move(id, 'live');
    const users = Array.from({ length: 400 }, (_, index) => String(9_000_000 + index * 104_729));
    const of = (arm: 'treatment' | 'holdout') => users.filter((userId) => armOf(admin.tenantId, id, userId, holdoutPercent) === arm);
    return { admin, tenantId: admin.tenantId, id, treatment: of('treatment'), holdout: of('holdout') };
  };

  /** A user's device: exposed (a machine in "1" and its action), then the purchase (the machine reset from "3"). */
  const exposed = (id: string, at: number) => snapshot(id, { actionDoneAt: [at] }, { s1: machine('1', at) });
  const purchased = (id: string, exposedAt: number, at: number) =>
    snapshot(id, { actionDoneAt: [exposedAt], resetAt: [at] }, { s1: { ...machine('3', at, { createdAt: exposedAt }), reset: true } });

  it('counts entered, exposed and converted users per arm, each once whatever devices re-send, conversions within the window', async () => {
    const { admin, tenantId, id, treatment, holdout } = await setUp(50);
    const [t1, t2] = treatment;
    const [h1, h2] = holdout;
    const start = api.clock.now();
    // h1 is exposed, and buys eight days later: past the 7-day window.
    await send(tenantId, h1, exposed(id, start));
    api.clock.advance(8 * DAY);
    const now = api.clock.now();
    await send(tenantId, h1, purchased(id, start, now));
    // t1 is exposed and buys; its deltas arrive twice, and its other device re-sends the old lists.
    for (let round = 0; round < 2; round++) {
      await send(tenantId, t1, exposed(id, now));
      await send(tenantId, t1, purchased(id, now, now + 5));
    }
    await send(tenantId, t1, exposed(id, now));
    // t2 has a machine, no action: entered only.
    await send(tenantId, t2, snapshot(id, {}, { s1: machine('1', now) }));
    // h2 is exposed and buys; then a reinstalled device empties its lists, and another device sends them all again.
    await send(tenantId, h2, exposed(id, now));
    expect((await device(tenantId, h2).launch(purchased(id, now, now + 9))).status).toBe(200);
    await send(tenantId, h2, snapshot(id, { actionDoneAt: [], resetAt: [] }));
    await send(tenantId, h2, exposed(id, now));
    await send(tenantId, h2, purchased(id, now, now + 9));

    const report = await experimentOf(admin, id);
    expect(report.arms).toEqual({
      treatment: { entered: 2, exposed: 1, converted: 1, rate: 1 },
      holdout: { entered: 2, exposed: 2, converted: 1, rate: 0.5 },
    });
    // By hand: uplift 1 − 0.5; unpooled SE √(0 + 0.5·0.5/2) = 0.353553…; pooled p = 2/3, SE √(2/3·1/3·(1 + 1/2)) = 0.577350…,
    // z = 0.866025…, two-sided p = erfc(z/√2) = 0.386476…; exposed 1 and 2 against 50% each: χ² = 2·0.5²/1.5 = 1/3, p = 0.563702…
    expect(report.uplift.absolute).toBeCloseTo(0.5, 12);
    expect(report.uplift.relative).toBeCloseTo(1, 12);
    expect(report.uplift.ci95![0]).toBeCloseTo(0.5 - 1.959963984540054 * 0.3535533905932738, 9);
    expect(report.uplift.ci95![1]).toBeCloseTo(0.5 + 1.959963984540054 * 0.3535533905932738, 9);
    expect(report.pValue).toBeCloseTo(0.38647623077123266, 6);
    expect(report.srm.pValue).toBeCloseTo(0.5637028616507731, 6);
    expect(report).toMatchObject({
      ctaId: Number(id),
      holdoutPercent: 50,
      goal: GOAL,
      windowDays: 7,
      startedAt: (await admin.get(id)).startTime,
      significant: false,
      srm: { suspect: false },
      status: 'collecting',
    });
    // Insights count both arms together, as devices did them.
    const insights = await admin.insights.ofCta(id);
    expect(insights.body.data.totals.usersReached).toBe(3);
  });

  it('counts a goal state that is stored, not reset, and the whole window but not past it', async () => {
    const admin = new AdminClient(api, `experiment-count-${++tenantCount}`);
    const id = String(await admin.create({ experiment: { holdoutPercent: 1, goal: { state: '2' }, windowDays: 1 } }));
    await admin.move(id, 'live');
    const tenantId = admin.tenantId;
    const users = ['11', '12'].filter((userId) => armOf(tenantId, id, userId, 1) === 'treatment');
    const start = api.clock.now();
    for (const userId of users) await send(tenantId, userId, exposed(id, start));
    // A second before the window of a day closes (the test clock runs with real time): within it; two seconds later, past it.
    api.clock.advance(DAY - 1000);
    await send(tenantId, users[0], snapshot(id, {}, { s1: machine('2', api.clock.now(), { createdAt: start }) }));
    api.clock.advance(2000);
    await send(tenantId, users[1], snapshot(id, {}, { s1: machine('2', api.clock.now(), { createdAt: start }) }));
    const report = await experimentOf(admin, id);
    expect(report.arms.treatment).toEqual({ entered: 2, exposed: 2, converted: 1, rate: 0.5 });
    expect(report.arms.holdout).toEqual({ entered: 0, exposed: 0, converted: 0, rate: null });
    expect(report).toMatchObject({ uplift: { absolute: null, relative: null, ci95: null }, pValue: null, significant: false });
  });

  it('flags a broken split: as many exposed users in a 10% holdout as in the treatment', async () => {
    const { admin, tenantId, id, treatment, holdout } = await setUp(10);
    const now = api.clock.now();
    for (const userId of [...treatment.slice(0, 20), ...holdout.slice(0, 20)]) await send(tenantId, userId, exposed(id, now));
    const report = await experimentOf(admin, id);
    expect(report.arms.treatment.exposed).toBe(20);
    expect(report.arms.holdout.exposed).toBe(20);
    // χ² = (20 − 36)²/36 + (20 − 4)²/4 = 71.11…: p ≈ 3.3e-17.
    expect(report.srm.suspect).toBe(true);
    expect(report.srm.pValue).toBeLessThan(1e-15);
    expect(report.status).toBe('collecting');
  });

  it("answers CTA_ID_INVALID for an unknown, a test or another tenant's CTA, and INVALID_REQUEST for a CTA without an experiment", async () => {
    const { admin, id } = await setUp(10);
    const other = new AdminClient(api, 'experiment-other-tenant');
    expect((await other.insights.experiment(id)).body).toEqual(errorBody('CTA_ID_INVALID'));
    expect((await admin.insights.experiment('999999')).body).toEqual(errorBody('CTA_ID_INVALID', 'CTA 999999 does not exist'));
    expect((await admin.insights.experiment('abc')).body).toEqual(errorBody('CTA_ID_INVALID'));
    const testCta = await admin.testCta([1], 60);
    expect((await admin.insights.experiment(testCta)).body).toEqual(errorBody('CTA_ID_INVALID'));
    const plain = await admin.create();
    const res = await admin.insights.experiment(plain);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(
      errorBody(
        'INVALID_REQUEST',
        `CTA ${plain} has no experiment: set "experiment" (holdoutPercent, goal) on a draft CTA to compare it with a holdout`,
      ),
    );
    // A draft CTA's experiment reads with nothing counted and no start.
    const draft = await admin.create({ experiment: { holdoutPercent: 5, goal: GOAL } });
    expect((await admin.insights.experiment(draft)).body.data).toMatchObject({ startedAt: null, status: 'collecting', windowDays: 7 });
  });
});
