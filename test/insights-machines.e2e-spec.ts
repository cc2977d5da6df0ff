import { AdminClient } from './admin-client';
import { machine, runClockAfterExamples } from './fixtures';
import { PeriodicJobsService } from '../src/scheduling/periodic-jobs.service';
import { createUserStateStore } from '../src/sdk/user-state.store';
import { dataSourceOf } from './database-contents';
import { eachDatabase, TestApp } from './harness';
import { daysAgo, dayOf, insightsSuite, snapshot, TODAY } from './insights';
import { MINUTE } from './test-clock';

/** Long enough that no timer fires during the suite: the fold is run by hand. */
const INTERVAL_MS = 3_600_000;

/** Where users' machines stand now, many users at once, and the fold (docs/decisions/0018-campaign-insights.md). */
eachDatabase('Campaign insights: machines now, concurrent merges, the fold', (database) => {
  let api: TestApp;
  let tenantCount = 0;
  const { device, send, insightsOf, overviewOf } = insightsSuite(() => api);
  const setUp = async (rule?: Record<string, unknown>) => {
    const admin = new AdminClient(api, `insights-now-${++tenantCount}`);
    return { admin, tenantId: admin.tenantId, id: await admin.cta({ rule }) };
  };
  const store = () => createUserStateStore(dataSourceOf(api));
  const pendingUsers = async (): Promise<number> => {
    const [{ users }] = await dataSourceOf(api).query('SELECT COUNT(*) AS users FROM sdk_user_states WHERE pending_since IS NOT NULL');
    return Number(users);
  };

  beforeAll(async () => {
    api = await TestApp.start(database, { SCHEDULER_INTERVAL_MS: String(INTERVAL_MS) });
    runClockAfterExamples(api);
  });
  afterAll(() => api.close());

  it('follows machines through their states: new ones, transitions, resets, older snapshots ignored', async () => {
    const { admin, tenantId, id } = await setUp();
    const now = async () => (await insightsOf(admin, id)).now;
    await send(tenantId, 1, snapshot(id, {}, { a: machine('0', TODAY), b: machine('0', TODAY) }));
    await send(tenantId, 2, snapshot(id, {}, { c: machine('1', TODAY) }));
    expect(await now()).toEqual({ users: 2, machines: 3, byState: { '0': 2, '1': 1 } });
    await send(
      tenantId,
      1,
      snapshot(id, {}, { a: machine('2', TODAY + 5, { createdAt: TODAY }), b: { ...machine('3', TODAY + 5), reset: true } }),
    );
    expect(await now()).toEqual({ users: 2, machines: 2, byState: { '1': 1, '2': 1 } });
    // An older snapshot of a machine is ignored; so is its state.
    await send(tenantId, 1, snapshot(id, {}, { a: machine('1', TODAY) }));
    await send(tenantId, 2, snapshot(id, {}, { c: { ...machine('3', TODAY + 9), reset: true } }));
    expect(await now()).toEqual({ users: 1, machines: 1, byState: { '2': 1 } });
  });

  it("takes machines out of now when a launch prunes them, and a concluded CTA's when launches drop its state", async () => {
    const ttl = 2 * MINUTE;
    const { admin, tenantId, id } = await setUp({ stateMachineTTL: ttl });
    const other = await admin.cta();
    const at = api.clock.now();
    await send(tenantId, 3, {
      ctas: [...snapshot(id, { actionDoneAt: [at] }, { m: machine('1', at) }).ctas, ...snapshot(other, {}, { n: machine('1', at) }).ctas],
    });
    expect((await insightsOf(admin, id)).now).toEqual({ users: 1, machines: 1, byState: { '1': 1 } });
    api.clock.advance(ttl);
    expect((await device(tenantId, 3).launch()).status).toBe(200);
    const pruned = await insightsOf(admin, id);
    expect(pruned.now).toEqual({ users: 0, machines: 0, byState: {} });
    expect(pruned.totals).toEqual({ actions: 1, resets: 0, usersReached: 1 });

    await admin.move(other, 'conclude');
    expect((await insightsOf(admin, other)).now.users).toBe(1);
    expect((await device(tenantId, 3).launch()).status).toBe(200);
    expect((await insightsOf(admin, other)).now).toEqual({ users: 0, machines: 0, byState: {} });
    const overview = await overviewOf(admin);
    expect(overview.ctas.map((cta) => [cta.ctaId, cta.ctaStatus, cta.actions])).toEqual([
      [Number(id), 'live', 1],
      [Number(other), 'concluded', 0],
    ]);
  });

  it('counts every entry once when many users merge at once, and deltas of one user race each other', async () => {
    const { admin, tenantId, id } = await setUp();
    const users = Array.from({ length: 40 }, (_, index) => 100 + index);
    // Each user's device sends three deltas at once, each list one entry longer, its machine one state further.
    const listOf = (user: number, length: number) => Array.from({ length }, (_, step) => daysAgo(3 - step, user));
    const deltas = users.flatMap((user) =>
      [1, 2, 3].map((length) =>
        send(
          tenantId,
          user,
          snapshot(
            id,
            { actionDoneAt: listOf(user, length), resetAt: [daysAgo(1, user)] },
            { m: machine(String(length), TODAY + length, { createdAt: TODAY }) },
          ),
        ),
      ),
    );
    await Promise.all(deltas);
    const insights = await insightsOf(admin, id);
    expect(insights.now).toEqual({ users: 40, machines: 40, byState: { '3': 40 } });
    expect(insights.totals).toEqual({ actions: 120, resets: 40, usersReached: 40 });
    expect(insights.daily.slice(-4).map(({ actions, resets, newUsers }) => [actions, resets, newUsers])).toEqual([
      [40, 0, 40],
      [40, 0, 0],
      [40, 40, 0],
      [0, 0, 0],
    ]);
  });

  it('folds every pending user in batches of 1,000 under its lease: counts the same before and after, nothing left pending', async () => {
    const { admin, tenantId, id } = await setUp();
    const users = Array.from({ length: 1050 }, (_, index) => 10_000 + index);
    for (let start = 0; start < users.length; start += 50) {
      await Promise.all(
        users
          .slice(start, start + 50)
          .map((user) => send(tenantId, user, snapshot(id, { actionDoneAt: [daysAgo(user % 3)] }, { m: machine('1', TODAY) }))),
      );
    }
    expect(await pendingUsers()).toBeGreaterThanOrEqual(1050);
    const before = (await admin.insights.ofCta(id, { from: dayOf(daysAgo(7)), to: dayOf(TODAY) })).body;
    api.clock.advance(INTERVAL_MS);
    await api.service(PeriodicJobsService).runLeased();
    expect(await pendingUsers()).toBe(0);
    const after = (await admin.insights.ofCta(id, { from: dayOf(daysAgo(7)), to: dayOf(TODAY) })).body;
    expect(after).toEqual(before);
    expect(after.data.totals).toEqual({ actions: 1050, resets: 0, usersReached: 1050 });
    expect(after.data.now).toEqual({ users: 1050, machines: 1050, byState: { '1': 1050 } });
    // The folded rows keep counting: a user's next write adds to them.
    await send(
      tenantId,
      users[0],
      snapshot(id, { actionDoneAt: [daysAgo(users[0] % 3), TODAY + 1] }, { m: machine('2', TODAY + 1, { createdAt: TODAY }) }),
    );
    expect((await insightsOf(admin, id)).now.byState).toEqual({ '1': 1049, '2': 1 });
  });

  it("keeps an erased user's counts, folded at once, and takes the user's machines out of now; the row keeps nothing of them", async () => {
    const { admin, tenantId, id } = await setUp();
    await send(
      tenantId,
      6,
      snapshot(id, { actionDoneAt: [daysAgo(2)], resetAt: [daysAgo(1)] }, { m: machine('1', TODAY), n: machine('2', TODAY) }),
    );
    await send(tenantId, 7, snapshot(id, { actionDoneAt: [daysAgo(1)] }, { m: machine('1', TODAY) }));
    const before = await insightsOf(admin, id);
    expect(before.now).toEqual({ users: 2, machines: 3, byState: { '1': 2, '2': 1 } });
    await send(tenantId, 6, snapshot(id, { actionDoneAt: [daysAgo(2), TODAY] }));
    expect((await admin.appUsers.erase('6')).body.data).toMatchObject({ state: true });
    expect(await store().read(tenantId, '6')).toMatchObject({ pendingInsights: null, pendingSince: null, insightMarks: null });
    const after = await insightsOf(admin, id);
    expect(after.now).toEqual({ users: 1, machines: 1, byState: { '1': 1 } });
    expect(after.totals).toEqual({ actions: 3, resets: 1, usersReached: 2 });
    // The device's next delta starts the user afresh.
    await send(tenantId, 6, snapshot(id, { actionDoneAt: [TODAY + 5] }, { m: machine('1', TODAY) }));
    expect((await insightsOf(admin, id)).now).toEqual({ users: 2, machines: 2, byState: { '1': 2 } });
  });

  it('stores counts only with the document: a write that loses its version check, or that the fold overtook, stores none', async () => {
    const { admin, tenantId, id } = await setUp();
    await send(tenantId, 5, snapshot(id, { actionDoneAt: [daysAgo(1)] }));
    const read = (await store().read(tenantId, '5'))!;
    expect(read.pendingInsights).not.toBeNull();
    // The fold takes the pending counts and bumps the version: a write that read before it loses.
    await api.service(PeriodicJobsService).runAll();
    expect(
      await store().write(tenantId, '5', read.json, read.version, api.clock.now(), {
        pending: read.pendingInsights,
        pendingSinceBefore: read.pendingSince,
        marks: read.insightMarks,
      }),
    ).toBe(false);
    expect(await store().read(tenantId, '5')).toMatchObject({ version: read.version + 1, pendingInsights: null, pendingSince: null });
    expect((await insightsOf(admin, id)).totals).toEqual({ actions: 1, resets: 0, usersReached: 1 });
  });
});
