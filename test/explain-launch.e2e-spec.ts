import { AdminClient } from './admin-client';
import { databaseContents } from './database-contents';
import { EXAMPLE_TIME, examples, machine, runClockAfterExamples, sdkHeaders } from './fixtures';
import { eachDatabase, errorBody, TestApp } from './harness';

type Json = Record<string, any>;

const TENANT = 'explain';
/** The launch headers of `sdkHeaders`, as the explain query carries them. */
const CLIENT = '?appVersion=5.2.0&packageName=com.example.app&hotpatchVersion=v7';
const DAY = 24 * 60 * 60 * 1000;
/**
 * Users 101 and 102 are in the static cohort `beta` (101 also in `vip` and `newsletter`); 103 is in none. No CTA names
 * `newsletter` or the rule cohort `modern`: explain lists them all the same.
 */
const [BETA, ALSO_BETA, OTHER] = ['101', '102', '103'];

eachDatabase('launch explanation', (database) => {
  let api: TestApp;
  let admin: AdminClient;
  /** CTAs by role: the tag's two, and one per kind of targeting. */
  const id: Record<string, string> = {};

  const explain = (userId: string, query = CLIENT, tenant = TENANT) =>
    api.get(`/engine/app-users/${encodeURIComponent(userId)}/launch${query}`, { 'x-tenant-id': tenant });
  const launch = (userId: string, tenant = TENANT) => api.post('/cta/active/state-machines', undefined, sdkHeaders(tenant, userId));
  const explained = async (userId: string, query?: string): Promise<Json> => {
    const res = await explain(userId, query);
    expect(res.status).toBe(200);
    return res.body.data;
  };
  const ctaOf = (explanation: Json, ctaId: string): Json => explanation.ctas.find((cta: Json) => cta.ctaId === ctaId);
  const codes = (explanation: Json, ctaId: string): string[] => ctaOf(explanation, ctaId)?.reasons.map((reason: Json) => reason.code);

  beforeAll(async () => {
    api = await TestApp.start(database);
    admin = new AdminClient(api, TENANT);
    runClockAfterExamples(api);
    const now = api.clock.now();
    const cohort = async (body: Json, members?: string[]) => {
      expect((await api.post('/engine/cohorts', body, admin.headers())).status).toBe(200);
      if (members) expect((await api.post(`/engine/cohorts/${body.name}/members`, { userIds: members }, admin.headers())).status).toBe(200);
    };
    await cohort({ name: 'beta', kind: 'static' }, [BETA, ALSO_BETA]);
    await cohort({ name: 'new-app', kind: 'rule', rule: { all: [{ attribute: 'appVersion', op: 'semverGte', value: '5.2' }] } });
    await cohort({ name: 'vip', kind: 'static' }, [BETA]);
    await cohort({ name: 'newsletter', kind: 'static' }, [BETA]);
    await cohort({ name: 'modern', kind: 'rule', rule: { all: [{ attribute: 'appVersion', op: 'semverGte', value: '5.0' }] } });
    const only = (includes: string[], excludes: string[] = []) => ({ cohortEligibility: { includes, excludes } });

    // The example tag (any one shows, the rest hide) links the example CTA and one capped at a single reset.
    id.tagged = await admin.cta({ actions: [] });
    id.capped = await admin.cta({
      actions: [],
      rule: { priority: 7, frequency: { ...examples.rule().frequency, lifeSpan: { limit: 1 } } },
    });
    await admin.tag(examples.tag.behaviourTagName, [id.tagged, id.capped]);
    await admin.move(id.tagged, 'live');
    await admin.move(id.capped, 'live');
    id.beta = await admin.cta({ rule: only(['beta']) });
    id.newApp = await admin.cta({ rule: { ...only(['new-app']), priority: 9 } });
    id.notBeta = await admin.cta({ rule: only(['all'], ['beta']) });
    // Only a paused CTA names the cohort vip: the launch does not look it up, explain does.
    id.paused = await admin.cta({ rule: only(['vip']), actions: ['live', 'pause'] });
    id.scheduled = await admin.cta({ startTime: now + DAY, actions: ['schedule'] });
    id.ending = await admin.cta({ endTime: now + 60_000 });
    id.draft = await admin.cta({ actions: [] });
    id.test = await admin.testCta([Number(BETA)], 60);
    // The lowest priority number, so the device tries it first, but on an event no other CTA has.
    id.appOpen = await admin.cta({
      rule: {
        priority: 1,
        stateTransition: { app_open: { '0': [{ transitionTo: '1' }], '1': [{ transitionTo: '2' }], '2': [{ transitionTo: '3' }] } },
      },
    });

    // User 101's state: the example delta (a machine, a reset, the tag's active CTA), one reset of the capped CTA, and a machine 6 days old.
    const delta = examples.delta(id.tagged);
    delta.ctas[0].activeStateMachines['store-5'] = machine('1', EXAMPLE_TIME - 6 * DAY);
    delta.ctas.push({ ctaId: id.capped, activeStateMachines: {}, resetAt: [EXAMPLE_TIME - 1000] });
    const stored = await api.post('/cta/state-machines/snapshot/delta', delta, sdkHeaders(TENANT, BETA));
    expect(stored.body).toEqual({ data: true });
  });
  afterAll(() => api.close());

  it('answers exactly what a launch made at the same moment answers, for users with state, cohorts, tags and test CTAs', async () => {
    for (const userId of [BETA, ALSO_BETA, OTHER, '-9223372036854775808']) {
      const explanation = await explained(userId);
      const answer = (await launch(userId)).body;
      expect(explanation.launch).toEqual(answer.data);
      const served = explanation.ctas.filter((cta: Json) => cta.served).map((cta: Json) => cta.ctaId);
      expect(served).toEqual(answer.data.ctas.map((cta: Json) => cta.ctaId));
    }
    // Without the launch headers, the rule cohort does not hold, as for a launch without them.
    const bare = await explained(OTHER, '');
    const bareHeaders = { 'x-tenant-id': TENANT, 'auth-userid': OTHER, api_version: '1' };
    expect(bare.launch).toEqual((await api.post('/cta/active/state-machines', undefined, bareHeaders)).body.data);
    expect(codes(bare, id.newApp)).toEqual(['NOT_INCLUDED']);
  });

  it("names the user's cohorts and, for user 101, every CTA in launch order with why it is served or not", async () => {
    const explanation = await explained(BETA);
    expect(explanation.userId).toBe(BETA);
    expect(explanation.cohorts).toEqual(['all', 'beta', 'modern', 'new-app', 'newsletter', 'vip']);
    // Live, scheduled and paused CTAs, and the test CTA listing the user; no draft. Priority descending, then id.
    expect(explanation.ctas.map((cta: Json) => cta.ctaId)).toEqual([
      id.newApp,
      id.capped,
      id.tagged,
      id.beta,
      id.notBeta,
      id.paused,
      id.scheduled,
      id.ending,
      id.test,
      id.appOpen,
    ]);
    expect(ctaOf(explanation, id.tagged)).toMatchObject({
      name: expect.stringMatching(/^cta-/),
      ctaStatus: 'live',
      served: true,
      reasons: [{ code: 'SERVED', message: 'served: live, and the user is in "all" of includes' }],
      behaviourTagName: 'store-nudges',
    });
    expect(ctaOf(explanation, id.test)).toMatchObject({
      name: `test-${id.test}`,
      served: true,
      reasons: [{ code: 'SERVED' }, { code: 'SHADOWED' }],
    });
    expect(ctaOf(explanation, id.notBeta)).toMatchObject({
      served: false,
      device: null,
      reasons: [{ code: 'EXCLUDED', message: 'the user is in the excluded cohort "beta"' }],
    });
    expect(ctaOf(explanation, id.paused).reasons).toEqual([
      { code: 'NOT_LIVE', message: `CTA ${id.paused} is paused: devices get only live CTAs (and scheduled ones once started)` },
    ]);
    expect(ctaOf(explanation, id.scheduled).reasons).toEqual([
      {
        code: 'NOT_STARTED',
        message: expect.stringMatching(new RegExp(`^CTA ${id.scheduled} is scheduled to start at \\d{4}-\\d\\d-\\d\\dT`)),
      },
    ]);
  });

  it('names the cohorts a user lacks, and test CTAs of other users only with all=true', async () => {
    const explanation = await explained(OTHER);
    expect(ctaOf(explanation, id.beta).reasons).toEqual([
      { code: 'NOT_INCLUDED', message: `the user's cohorts ["all", "modern", "new-app"] include none of includes ["beta"]` },
    ]);
    // A user in beta, not in vip: the message names every cohort they are in.
    expect(ctaOf(await explained(ALSO_BETA), id.paused).reasons[1]).toEqual({
      code: 'NOT_INCLUDED',
      message: `the user's cohorts ["all", "beta", "modern", "new-app"] include none of includes ["vip"]`,
    });
    expect(codes(explanation, id.paused)).toEqual(['NOT_LIVE', 'NOT_INCLUDED']);
    expect(ctaOf(explanation, id.test)).toBeUndefined();
    expect(ctaOf(explanation, id.draft)).toBeUndefined();
    const everything = await explained(OTHER, `${CLIENT}&all=true`);
    expect(everything.launch).toEqual(explanation.launch);
    expect(ctaOf(everything, id.test)).toMatchObject({ served: false, reasons: [{ code: 'TEST_CTA_NOT_LISTED' }] });
    expect(ctaOf(everything, id.test).reasons[0].message).toBe(`test CTA ${id.test} does not list user ${OTHER}`);
    expect(ctaOf(everything, id.draft)).toMatchObject({ ctaStatus: 'draft', reasons: [{ code: 'NOT_LIVE' }] });
  });

  it("shows what the device will make of a served CTA: machines, caps counted in resets, the tag's block", async () => {
    const explanation = await explained(BETA);
    expect(ctaOf(explanation, id.tagged).device).toEqual({
      machines: { 'store-77': '2', 'store-5': '1' },
      lifespan: { count: 1, limit: 5, reached: false },
      window: { count: 1, limit: 2, reached: false },
      tag: { blocked: false, by: [], relation: 'ANY/REST' },
      expiredMachines: 0,
    });
    // Served, but the device will not act on it: its one reset reached the lifetime cap, and the tag's active CTA hides it.
    const capped = ctaOf(explanation, id.capped);
    expect(capped).toMatchObject({ served: true, reasons: [{ code: 'SERVED' }, { code: 'SHADOWED' }] });
    expect(capped.device).toEqual({
      machines: {},
      lifespan: { count: 1, limit: 1, reached: true },
      window: { count: 1, limit: 2, reached: false },
      tag: { blocked: true, by: [id.tagged], relation: 'ANY/REST' },
      expiredMachines: 0,
    });
    expect(capped.reasons[0].message).toBe(
      'served (live, and the user is in "all" of includes), but the device will not act on it: its lifeSpan cap is reached ' +
        `(resets: 1, limit 1); its behaviour tag blocks it (ANY/REST; CTAs "${id.tagged}")`,
    );
    expect(ctaOf(explanation, id.beta).device).toMatchObject({ machines: {}, lifespan: { count: 0 }, tag: null });
  });

  it('says SHADOWED beside SERVED when a served CTA the device tries first shares a trigger event, naming it and the events', async () => {
    const explanation = await explained(BETA);
    const shadowed = (ctaId: string): Json[] => ctaOf(explanation, ctaId).reasons.filter((reason: Json) => reason.code === 'SHADOWED');
    const tagged = `CTA ${id.tagged} "${ctaOf(explanation, id.tagged).name}"`;
    const gate = 'once it performs an action for one of those events, this CTA passes over conditions leading to a state with an action';
    // Priority 5 goes before 7 and 9 on the device, whatever order the launch answers in.
    expect(shadowed(id.capped)).toEqual([
      {
        code: 'SHADOWED',
        message: `the device tries ${tagged} first on "store_opened", "purchase_completed" (priority 5, before this one's 7): ${gate}`,
      },
    ]);
    expect(ctaOf(explanation, id.newApp).reasons.map((reason: Json) => reason.code)).toEqual(['SERVED', 'SHADOWED']);
    expect(shadowed(id.newApp)[0].message).toContain(`(priority 5, before this one's 9)`);
    // Of one priority, the device keeps the launch's order: the lower id first.
    expect(shadowed(id.beta)).toEqual([
      {
        code: 'SHADOWED',
        message:
          `the device tries ${tagged} first on "store_opened", "purchase_completed" ` +
          `(priority 5 as this one, and before it in the launch answer): ${gate}`,
      },
    ]);
    // The first tried on its events, and a CTA tried before every other on an event none shares: served, nothing more.
    expect(ctaOf(explanation, id.tagged).reasons.map((reason: Json) => reason.code)).toEqual(['SERVED']);
    expect(ctaOf(explanation, id.appOpen).reasons.map((reason: Json) => reason.code)).toEqual(['SERVED']);
    // Only served CTAs shadow and are shadowed.
    expect(ctaOf(explanation, id.notBeta).reasons.map((reason: Json) => reason.code)).toEqual(['EXCLUDED']);
    expect(ctaOf(await explained(OTHER), id.beta).reasons.map((reason: Json) => reason.code)).toEqual(['NOT_INCLUDED']);
  });

  it('answers the reasons before the payload: userId, cohorts, ctas, launch', async () => {
    const res = await explain(BETA);
    // JSON.parse keeps the order of the keys in the text.
    expect(Object.keys(res.body.data)).toEqual(['userId', 'cohorts', 'ctas', 'launch']);
  });

  it('writes nothing, where a launch would prune and store, and answers a user without state normally', async () => {
    api.clock.advance(2 * DAY);
    const before = await databaseContents(api);
    const explanation = await explained(BETA, `${CLIENT}&all=true`);
    expect(await databaseContents(api)).toEqual(before);
    // Two days on, the machine created 6 days before the examples is past its 7-day TTL: dropped at this launch.
    expect(ctaOf(explanation, id.tagged).device).toMatchObject({ machines: { 'store-77': '2' }, expiredMachines: 1 });
    expect(explanation.launch).toEqual((await launch(BETA)).body.data);
    expect(await databaseContents(api)).not.toEqual(before);

    expect(ctaOf(explanation, id.ending).reasons).toEqual([
      { code: 'ENDED', message: expect.stringMatching(`^CTA ${id.ending} ended at `) },
    ]);
    expect(ctaOf(explanation, id.scheduled)).toMatchObject({ served: true, ctaStatus: 'scheduled' });
    expect(ctaOf(explanation, id.test).reasons).toEqual([
      { code: 'TEST_CTA_EXPIRED', message: expect.stringMatching(`^test CTA ${id.test} expired at `) },
    ]);
    expect(ctaOf(await explained(BETA), id.test)).toBeUndefined();
    const stranger = await explained('987654321');
    expect(stranger.launch).toEqual((await launch('987654321')).body.data);
    expect(stranger.launch.ctas.map((cta: Json) => cta.activeStateMachines)).toEqual(stranger.launch.ctas.map(() => ({})));
  });

  it("keeps tenants apart: another tenant's explanation of the same user sees none of this one's CTAs or state", async () => {
    const res = await explain(BETA, CLIENT, 'explain-other');
    expect(res.body).toEqual({ data: { userId: BETA, cohorts: ['all'], ctas: [], launch: { ctas: [], behaviourTags: [] } } });
  });

  it('lists the cohorts of a user whose tenant has cohorts but no CTA yet', async () => {
    const tenant = 'explain-cohorts-only';
    const headers = { ...admin.headers(), 'x-tenant-id': tenant };
    expect((await api.post('/engine/cohorts', { name: 'early', kind: 'static' }, headers)).status).toBe(200);
    expect((await api.post('/engine/cohorts/early/members', { userIds: [BETA] }, headers)).status).toBe(200);
    const res = await explain(BETA, CLIENT, tenant);
    expect(res.body).toEqual({ data: { userId: BETA, cohorts: ['all', 'early'], ctas: [], launch: { ctas: [], behaviourTags: [] } } });
    expect((await launch(BETA, tenant)).body).toEqual({ data: res.body.data.launch });
  });

  it.each<[string, string, string]>([
    [
      'a user id that is not a number',
      '/engine/app-users/user-123/launch',
      'userId must be a signed 64-bit decimal integer, not "user-123"',
    ],
    ['a user id beyond 64 bits', '/engine/app-users/9223372036854775808/launch', 'userId must be a signed 64-bit decimal integer'],
    ['all other than true or false', `/engine/app-users/${BETA}/launch?all=yes`, 'all must be true or false'],
    ['a repeated parameter', `/engine/app-users/${BETA}/launch?appVersion=1&appVersion=2`, 'appVersion must be a string'],
  ])('answers 400 INVALID_REQUEST for %s', async (_case, path, message) => {
    const res = await api.get(path, { 'x-tenant-id': TENANT });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(errorBody('INVALID_REQUEST', expect.stringContaining(message)));
  });
});

eachDatabase('support tools and operator roles', (database) => {
  it('lets a viewer key explain and simulate', async () => {
    const api = await TestApp.start(database, { ADMIN_API_KEYS: 'vic:viewer:viewer-key' });
    try {
      const headers = { 'x-api-key': 'viewer-key' };
      expect((await api.get('/engine/app-users/42/launch', headers)).status).toBe(200);
      const cta = { name: 'x', team: 'growth', tags: [], rule: examples.rule() };
      expect((await api.post('/engine/ctas/simulate', { cta, events: [{ eventName: 'store_opened' }] }, headers)).status).toBe(200);
      expect((await api.post('/engine/ctas/validate', cta, headers)).status).toBe(403);
    } finally {
      await api.close();
    }
  });
});
