import { AdminClient } from './admin-client';
import { machine, runClockAfterExamples } from './fixtures';
import { eachDatabase, TestApp } from './harness';
import { dayCounts, daysAgo, dayOf, insightsSuite, snapshot, TODAY } from './insights';

/** Entries of the lists count once, on their UTC day, however devices send them (docs/decisions/0018-campaign-insights.md). */
eachDatabase('Campaign insights: counting actions, resets and new users', (database) => {
  let api: TestApp;
  let tenantCount = 0;
  const { device, send, fold, insightsOf, overviewOf } = insightsSuite(() => api);
  /** A fresh tenant with one live CTA. */
  const setUp = async () => {
    const admin = new AdminClient(api, `insights-count-${++tenantCount}`);
    return { admin, tenantId: admin.tenantId, id: await admin.cta() };
  };

  beforeAll(async () => {
    api = await TestApp.start(database);
    runClockAfterExamples(api);
  });
  afterAll(() => api.close());

  it('counts new actionDoneAt and resetAt entries on the UTC day of their timestamps, every day listed, zeros included', async () => {
    const { admin, tenantId, id } = await setUp();
    await send(tenantId, 1, snapshot(id, { actionDoneAt: [daysAgo(3), daysAgo(1), daysAgo(1, 1000)], resetAt: [daysAgo(1, 5)] }));
    await send(tenantId, 2, snapshot(id, { actionDoneAt: [daysAgo(1, 7)], resetAt: [TODAY] }));
    // The end of a UTC day and the start of the next.
    const midnight = Date.parse(`${dayOf(daysAgo(5))}T00:00:00Z`);
    await send(tenantId, 3, snapshot(id, { resetAt: [midnight - 1, midnight] }));

    const insights = await insightsOf(admin, id);
    expect(insights.daily).toEqual([
      dayCounts(daysAgo(7)),
      dayCounts(daysAgo(6), { resets: 1 }),
      dayCounts(daysAgo(5), { resets: 1 }),
      dayCounts(daysAgo(4)),
      dayCounts(daysAgo(3), { actions: 1, newUsers: 1 }),
      dayCounts(daysAgo(2)),
      dayCounts(daysAgo(1), { actions: 3, resets: 1, newUsers: 1 }),
      dayCounts(TODAY, { resets: 1 }),
    ]);
    expect(insights.totals).toEqual({ actions: 4, resets: 4, usersReached: 2 });
    expect(insights.ctaId).toBe(Number(id));
    const overview = await overviewOf(admin, { from: dayOf(daysAgo(7)), to: dayOf(TODAY) });
    expect(overview.ctas).toEqual([expect.objectContaining({ ctaId: Number(id), actions: 4, resets: 4, usersReached: 2 })]);
  });

  it('counts a re-sent list once: the same delta again, and the same lists in a launch', async () => {
    const { admin, tenantId, id } = await setUp();
    const body = snapshot(id, { actionDoneAt: [daysAgo(2), daysAgo(1)], resetAt: [daysAgo(1)] });
    for (let round = 0; round < 3; round++) {
      await send(tenantId, 7, body);
      expect((await device(tenantId, 7).launch(body)).status).toBe(200);
    }
    // Absent lists are unchanged, and count nothing either.
    await send(tenantId, 7, snapshot(id, {}, { m: machine('1', TODAY) }));
    expect((await insightsOf(admin, id)).totals).toEqual({ actions: 2, resets: 1, usersReached: 1 });
  });

  it('counts only the entries a growing list adds, up to the 1,000 newest a user keeps', async () => {
    const { admin, tenantId, id } = await setUp();
    const entries = Array.from({ length: 1000 }, (_, index) => daysAgo(1, index));
    await send(tenantId, 8, snapshot(id, { actionDoneAt: entries.slice(0, 10) }));
    await send(tenantId, 8, snapshot(id, { actionDoneAt: entries.slice(0, 25) }));
    await send(tenantId, 8, snapshot(id, { actionDoneAt: entries }));
    expect((await insightsOf(admin, id)).totals.actions).toBe(1000);
    // Past the cap the oldest fall out of the stored list; the device's list keeps growing.
    await send(tenantId, 8, snapshot(id, { actionDoneAt: [...entries, TODAY] }));
    await send(tenantId, 8, snapshot(id, { actionDoneAt: [...entries, TODAY, TODAY + 1] }));
    await send(tenantId, 8, snapshot(id, { actionDoneAt: [...entries, TODAY, TODAY + 1] }));
    const insights = await insightsOf(admin, id);
    expect(insights.totals).toEqual({ actions: 1002, resets: 0, usersReached: 1 });
    expect(insights.daily.at(-2)).toEqual(dayCounts(daysAgo(1), { actions: 1000, newUsers: 1 }));
    expect(insights.daily.at(-1)).toEqual(dayCounts(TODAY, { actions: 2 }));
  });

  it('counts entries of equal time as often as a list holds them', async () => {
    const { admin, tenantId, id } = await setUp();
    const at = daysAgo(1);
    await send(tenantId, 9, snapshot(id, { actionDoneAt: [at, at] }));
    await send(tenantId, 9, snapshot(id, { actionDoneAt: [at, at] }));
    await send(tenantId, 9, snapshot(id, { actionDoneAt: [at, at, at] }));
    expect((await insightsOf(admin, id)).totals.actions).toBe(3);
  });

  it('counts a user once, on the day of the first action, and users reached ever, whatever the range', async () => {
    const { admin, tenantId, id } = await setUp();
    await send(tenantId, 10, snapshot(id, { actionDoneAt: [daysAgo(20)] }));
    await send(tenantId, 10, snapshot(id, { actionDoneAt: [daysAgo(20), daysAgo(2)] }));
    // A reset is no action: user 11 is not reached.
    await send(tenantId, 11, snapshot(id, { resetAt: [daysAgo(2)] }));
    // User 12's first list holds two days: the earliest is the day of the first action.
    await send(tenantId, 12, snapshot(id, { actionDoneAt: [daysAgo(1), daysAgo(3)] }));
    const lastWeek = await insightsOf(admin, id);
    expect(lastWeek.daily.filter((day) => day.newUsers > 0)).toEqual([dayCounts(daysAgo(3), { actions: 1, newUsers: 1 })]);
    expect(lastWeek.totals).toEqual({ actions: 3, resets: 1, usersReached: 2 });
    const month = await insightsOf(admin, id, { from: dayOf(daysAgo(29)), to: dayOf(TODAY) });
    expect(month.daily.find((day) => day.day === dayOf(daysAgo(20)))).toEqual(dayCounts(daysAgo(20), { actions: 1, newUsers: 1 }));
    expect(month.totals).toEqual({ actions: 4, resets: 1, usersReached: 2 });
  });

  it("counts a device's entries once whatever order its deltas arrive in, even after an older list overwrote the stored one", async () => {
    const { admin, tenantId, id } = await setUp();
    const list = [daysAgo(3), daysAgo(2), daysAgo(1)];
    for (const length of [3, 1, 2, 3, 0, 3]) {
      await send(
        tenantId,
        12,
        snapshot(id, { actionDoneAt: list.slice(0, length), resetAt: list.slice(0, length) }, { m: machine('1', TODAY) }),
      );
    }
    expect((await insightsOf(admin, id)).totals).toEqual({ actions: 3, resets: 3, usersReached: 1 });
  });

  it("counts each entry once when two devices overwrite each other's lists, one arriving after a newer one too", async () => {
    const { admin, tenantId, id } = await setUp();
    const [t1, t2, t3, t4, t5] = [daysAgo(5), daysAgo(4), daysAgo(3), daysAgo(2), daysAgo(1)];
    await send(tenantId, 13, snapshot(id, { actionDoneAt: [t1, t3] }, { phone: machine('1', TODAY) })); // phone: 2
    await send(tenantId, 13, snapshot(id, { actionDoneAt: [t2] })); // tablet: t2, older than t3
    await send(tenantId, 13, snapshot(id, { actionDoneAt: [t1, t3, t4] })); // phone: t4
    expect((await insightsOf(admin, id)).totals.actions).toBe(4);
    await send(tenantId, 13, snapshot(id, { actionDoneAt: [t2, t5] })); // tablet: t5
    await send(tenantId, 13, snapshot(id, { actionDoneAt: [t1, t3, t4] })); // phone: nothing new
    expect((await insightsOf(admin, id)).totals).toEqual({ actions: 5, resets: 0, usersReached: 1 });
  });

  /** Issue 37: device 1 sends [a]; device 2, reinstalled, sends [] then [b]; device 1 sends [a] again. */
  const reinstall = (a: number, b: number) => [
    snapshot('', { actionDoneAt: [a], resetAt: [a] }),
    snapshot('', { actionDoneAt: [], resetAt: [] }),
    snapshot('', { actionDoneAt: [b], resetAt: [b] }),
    snapshot('', { actionDoneAt: [a], resetAt: [a] }),
  ];
  const orders = [
    [0, 1, 2, 3],
    [1, 2, 0, 3],
    [2, 3, 1, 0],
    [3, 1, 2, 0],
  ];
  it.each(orders)(
    'counts an entry once for the user after a reinstall emptied one device and the other re-sends its old list (order %i %i %i %i)',
    async (...order) => {
      const { admin, tenantId, id } = await setUp();
      const [a, b] = [daysAgo(3), daysAgo(1)];
      const bodies = reinstall(a, b).map((body) => ({ ctas: body.ctas.map((cta) => ({ ...cta, ctaId: id })) }));
      for (const user of [20, 21, 22]) {
        for (const index of order) {
          // Each body through the delta and again as a launch's body, as devices re-send.
          await send(tenantId, user, bodies[index]);
          expect((await device(tenantId, user).launch(bodies[index])).status).toBe(200);
        }
      }
      const insights = await insightsOf(admin, id);
      expect(insights.totals).toEqual({ actions: 6, resets: 6, usersReached: 3 });
      // Each user's first action, on its day, whichever arrived first.
      expect(insights.daily.filter((day) => day.actions > 0)).toEqual([
        dayCounts(a, { actions: 3, resets: 3, newUsers: 3 }),
        dayCounts(b, { actions: 3, resets: 3 }),
      ]);
      const overview = await overviewOf(admin, { from: dayOf(daysAgo(7)), to: dayOf(TODAY) });
      expect(overview.ctas).toEqual([expect.objectContaining({ ctaId: Number(id), actions: 6, resets: 6, usersReached: 3 })]);
    },
  );

  it('erases the entries counted with the user: entries sent again after an erase are new data', async () => {
    const { admin, tenantId, id } = await setUp();
    const a = daysAgo(2);
    await send(tenantId, 30, snapshot(id, { actionDoneAt: [a] }));
    // A reinstalled device empties the list: only the marks remember the entry, and the erase clears them too.
    await send(tenantId, 30, snapshot(id, { actionDoneAt: [] }));
    await send(tenantId, 30, snapshot(id, { actionDoneAt: [a] }));
    await send(tenantId, 30, snapshot(id, { actionDoneAt: [] }));
    expect((await insightsOf(admin, id)).totals).toEqual({ actions: 1, resets: 0, usersReached: 1 });
    const erased = await admin.appUsers.erase('30');
    expect({ status: erased.status, state: erased.body.data.state }).toEqual({ status: 200, state: true });
    expect((await admin.appUsers.erase('30')).body.data.state).toBe(false);
    await send(tenantId, 30, snapshot(id, { actionDoneAt: [a] }));
    expect((await insightsOf(admin, id)).totals).toEqual({ actions: 2, resets: 0, usersReached: 2 });
  });

  it('counts nothing for a refused delta, a snapshot of an unknown CTA, or a user without lists', async () => {
    const { admin, tenantId, id } = await setUp();
    const refused = await device(tenantId, 14).delta({
      ctas: [
        { ctaId: id, activeStateMachines: {}, actionDoneAt: [daysAgo(1)] },
        { ctaId: id, activeStateMachines: { bad: { currentState: 1 } } },
      ],
    } as never);
    expect(refused.status).toBe(400);
    await send(tenantId, 14, snapshot('987654321', { actionDoneAt: [daysAgo(1)] }));
    const insights = await insightsOf(admin, id);
    expect(insights.totals).toEqual({ actions: 0, resets: 0, usersReached: 0 });
    expect(insights.now).toEqual({ users: 0, machines: 0, byState: {} });
    expect(insights.daily).toHaveLength(8);
    await fold();
  });
});
