import { AdminClient } from './admin-client';
import { machine, runClockAfterExamples } from './fixtures';
import { eachDatabase, errorBody, TestApp } from './harness';
import { daysAgo, dayOf, insightsSuite, snapshot, TODAY } from './insights';
import { DAY } from './test-clock';

/** The two routes: ranges, refusals, the overview's order, tenant isolation (docs/decisions/0018-campaign-insights.md). */
eachDatabase('Campaign insights: the routes', (database) => {
  let api: TestApp;
  let tenantCount = 0;
  const { send, overviewOf } = insightsSuite(() => api);
  const tenant = () => new AdminClient(api, `insights-read-${++tenantCount}`);

  beforeAll(async () => {
    api = await TestApp.start(database);
    runClockAfterExamples(api);
  });
  afterAll(() => api.close());

  it('lists every day of the range, the last 30 days by default, to today unless `to` says otherwise', async () => {
    const admin = tenant();
    const id = await admin.cta();
    const days = async (query: { from?: string; to?: string }) => {
      const response = await admin.insights.ofCta(id, query);
      expect(response.status).toBe(200);
      return response.body.data.daily.map((day) => day.day);
    };
    const byDefault = await days({});
    expect(byDefault).toHaveLength(30);
    expect([byDefault[0], byDefault[29]]).toEqual([dayOf(daysAgo(29)), dayOf(TODAY)]);
    expect(await days({ to: dayOf(daysAgo(100)) })).toEqual(Array.from({ length: 30 }, (_, index) => dayOf(daysAgo(129 - index))));
    expect(await days({ from: dayOf(daysAgo(2)) })).toEqual([dayOf(daysAgo(2)), dayOf(daysAgo(1)), dayOf(TODAY)]);
    expect(await days({ from: '2026-02-28', to: '2026-03-01' })).toEqual(['2026-02-28', '2026-03-01']);
    expect(await days({ from: '2028-02-28', to: '2028-03-01' })).toEqual(['2028-02-28', '2028-02-29', '2028-03-01']);
    expect(await days({ from: '2027-01-01', to: '2027-12-31' })).toHaveLength(365);
    expect(await days({ from: '2028-01-01', to: '2028-12-31' })).toHaveLength(366);
    expect((await admin.insights.overview({ from: '2028-01-01', to: '2028-12-31' })).body.data).toMatchObject({
      from: '2028-01-01',
      to: '2028-12-31',
    });
  });

  it.each([
    ['?from=2026-3-1', 'from must be a UTC day as YYYY-MM-DD, e.g. 2026-03-01, got "2026-3-1"'],
    ['?to=yesterday', 'to must be a UTC day as YYYY-MM-DD, e.g. 2026-03-01, got "yesterday"'],
    ['?to=2026-02-30', 'to must be a UTC day as YYYY-MM-DD, e.g. 2026-03-01, got "2026-02-30"'],
    ['?from=2026-13-01&to=2026-12-01', 'from must be a UTC day as YYYY-MM-DD, e.g. 2026-03-01, got "2026-13-01"'],
    ['?from=2026-03-01&from=2026-03-02', 'from must be a UTC day as YYYY-MM-DD, e.g. 2026-03-01, got ["2026-03-01","2026-03-02"]'],
    ['?from=2026-03-02&to=2026-03-01', 'from (2026-03-02) must not be after to (2026-03-01)'],
    ['?from=2025-01-01&to=2026-03-01', 'from 2025-01-01 to 2026-03-01 spans 425 days; a range spans at most 366 days'],
    ['?from=2027-01-01&to=2028-01-02', 'from 2027-01-01 to 2028-01-02 spans 367 days; a range spans at most 366 days'],
    ['?from=1900-01-01', 'from 1900-01-01 to 2026-11-22 spans 46347 days; a range spans at most 366 days'],
  ])('refuses %s with 400 INVALID_REQUEST naming the field, on both routes', async (query, message) => {
    const admin = tenant();
    const id = await admin.cta();
    for (const response of [await admin.insights.ofCta(id, query), await admin.insights.overview(query)]) {
      expect({ status: response.status, body: response.body }).toEqual({ status: 400, body: errorBody('INVALID_REQUEST', message) });
    }
  });

  it("refuses another tenant's CTA, a test CTA, an unknown or malformed id with 400 CTA_ID_INVALID", async () => {
    const [owner, other] = [tenant(), tenant()];
    const id = await owner.cta();
    const testCta = await owner.testCta([42], 60);
    for (const [client, ctaId] of [
      [other, id],
      [owner, testCta],
      [owner, '987654321'],
      [owner, 'abc'],
      [owner, '0'],
    ] as const) {
      const response = await client.insights.ofCta(ctaId);
      expect({ status: response.status, body: response.body }).toEqual({
        status: 400,
        body: errorBody('CTA_ID_INVALID', `CTA ${ctaId} does not exist`),
      });
    }
    const badTenant = await owner.insights.overview({}, { 'x-tenant-id': 'not a tenant!' });
    expect(badTenant.status).toBe(400);
    expect(badTenant.body.error.code).toBe('INVALID_REQUEST');
  });

  it("keeps tenants apart: a delta naming another tenant's CTA counts nothing, each overview lists its own CTAs", async () => {
    const [a, b] = [tenant(), tenant()];
    const [idA, idB] = [await a.cta(), await b.cta()];
    await send(a.tenantId, 1, snapshot(idA, { actionDoneAt: [daysAgo(1)] }, { m: machine('1', TODAY) }));
    // Same user id in B, naming A's CTA: B's catalogue does not know it.
    await send(b.tenantId, 1, snapshot(idA, { actionDoneAt: [daysAgo(1), daysAgo(0)] }, { m: machine('1', TODAY) }));
    await send(b.tenantId, 1, snapshot(idB, { resetAt: [daysAgo(2)] }));
    const [overviewA, overviewB] = [await overviewOf(a), await overviewOf(b)];
    expect(overviewA.ctas).toEqual([expect.objectContaining({ ctaId: Number(idA), actions: 1, resets: 0, usersReached: 1 })]);
    expect(overviewB.ctas).toEqual([expect.objectContaining({ ctaId: Number(idB), actions: 0, resets: 1, usersReached: 0 })]);
    expect((await a.insights.ofCta(idA)).body.data.now).toEqual({ users: 1, machines: 1, byState: { '1': 1 } });
  });

  it('lists every CTA of the tenant by actions over the range, then id; users reached whatever the range', async () => {
    const admin = tenant();
    const ids = [await admin.cta(), await admin.cta(), await admin.cta(), await admin.cta({ actions: [] })];
    await admin.testCta([7], 60);
    await send(admin.tenantId, 1, snapshot(ids[1], { actionDoneAt: [daysAgo(1), daysAgo(2)], resetAt: [daysAgo(1)] }));
    await send(admin.tenantId, 2, snapshot(ids[2], { actionDoneAt: [daysAgo(3), daysAgo(40)] }));
    await send(admin.tenantId, 3, snapshot(ids[2], { actionDoneAt: [daysAgo(50)] }));
    const lastWeek = await overviewOf(admin, { from: dayOf(daysAgo(6)), to: dayOf(TODAY) });
    expect(lastWeek).toMatchObject({ from: dayOf(daysAgo(6)), to: dayOf(TODAY) });
    expect(
      lastWeek.ctas.map(({ ctaId, ctaStatus, actions, resets, usersReached }) => [ctaId, ctaStatus, actions, resets, usersReached]),
    ).toEqual([
      [Number(ids[1]), 'live', 2, 1, 1],
      [Number(ids[2]), 'live', 1, 0, 2],
      [Number(ids[0]), 'live', 0, 0, 0],
      [Number(ids[3]), 'draft', 0, 0, 0],
    ]);
    const record = await admin.get(ids[0]);
    expect(lastWeek.ctas[2].name).toBe(record.name);
    const longer = await overviewOf(admin, { from: dayOf(daysAgo(60)), to: dayOf(TODAY + DAY) });
    expect(longer.ctas.map(({ ctaId, actions }) => [ctaId, actions]).slice(0, 2)).toEqual([
      [Number(ids[2]), 3],
      [Number(ids[1]), 2],
    ]);
  });
});
