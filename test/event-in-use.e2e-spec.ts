import { AdminClient } from './admin-client';
import { examples } from './fixtures';
import { eachDatabase, errorBody, TestApp } from './harness';

const HOUR_MS = 60 * 60 * 1000;

/** The example rule reacting to `event` (and purchase_completed) instead of store_opened. */
function ruleReactingTo(event: string): Record<string, unknown> {
  const rule = examples.rule();
  const { store_opened: transitions, ...others } = rule.stateTransition;
  return { ...rule, stateTransition: { [event]: transitions, ...others } };
}

const inUse = (event: string, ids: string): ReturnType<typeof errorBody> =>
  errorBody(
    'EVENT_IN_USE',
    `event '${event}' is used by the rules of live, scheduled or paused CTAs ${ids}; conclude, terminate or edit them first`,
  );

eachDatabase('Deleting an event definition a running CTA uses', (database) => {
  let api: TestApp;
  let tenants = 0;

  beforeAll(async () => {
    api = await TestApp.start(database);
  });
  afterAll(() => api.close());

  /** A tenant of its own with `events` defined. */
  async function tenant(...events: string[]): Promise<AdminClient> {
    const admin = new AdminClient(api, `events-in-use-${++tenants}`);
    const body = { events: events.map((eventName) => ({ eventName, properties: [] })) };
    expect((await api.post('/engine/events', body, admin.headers())).status).toBe(200);
    return admin;
  }
  const remove = (admin: AdminClient, event: string) => api.delete(`/engine/events/${encodeURIComponent(event)}`, admin.headers());
  const names = async (admin: AdminClient): Promise<string[]> =>
    (await api.get('/engine/events/list/names', admin.headers())).body.data.eventNames;

  it('refuses while a live, scheduled or paused CTA reacts to it, naming the CTAs in order; deletes nothing', async () => {
    const admin = await tenant('store_opened', 'purchase_completed');
    const live = await admin.cta();
    const paused = await admin.cta({ actions: ['live', 'pause'] });
    const scheduled = await admin.cta({ startTime: api.clock.now() + HOUR_MS, actions: ['schedule'] });
    expect(await remove(admin, 'store_opened')).toMatchObject({
      status: 400,
      body: inUse('store_opened', `${live}, ${paused}, ${scheduled}`),
    });
    expect(await remove(admin, 'purchase_completed')).toMatchObject({
      status: 400,
      body: inUse('purchase_completed', `${live}, ${paused}, ${scheduled}`),
    });
    expect(await names(admin)).toEqual(['purchase_completed', 'store_opened']);

    // Concluded and terminated CTAs no longer hold it.
    await admin.move(live, 'conclude');
    await admin.move(paused, 'terminate');
    await admin.move(scheduled, 'terminate');
    expect(await remove(admin, 'store_opened')).toMatchObject({ status: 200, body: { success: true, data: null } });
    expect(await names(admin)).toEqual(['purchase_completed']);
  });

  it('lets a draft CTA, another tenant, or a rule that only mentions the name elsewhere keep nothing from deleting it', async () => {
    const admin = await tenant('store_opened', 'app_rated', 'store%opened');
    // A filter comparing a property with the text "app_rated" is no reaction to the event.
    const rule = examples.rule();
    rule.stateTransition.store_opened['0'][0].filters.filter[0].comparisonValue = 'app_rated';
    await admin.cta({ rule: { stateTransition: rule.stateTransition } });
    expect((await remove(admin, 'app_rated')).status).toBe(200);
    // A name with LIKE wildcards matches itself only.
    expect((await remove(admin, 'store%opened')).status).toBe(200);
    // Another tenant whose only CTA using it is a draft.
    const other = await tenant('store_opened');
    await other.cta({ actions: [] });
    expect((await remove(other, 'store_opened')).status).toBe(200);
    expect(await remove(admin, 'store_opened')).toMatchObject({ status: 400, body: { error: { code: 'EVENT_IN_USE' } } });
  });

  it('counts a test CTA until it expires', async () => {
    const admin = await tenant('level_up');
    const testCta = await admin.testCta([42], 60, { stateTransition: ruleReactingTo('level_up').stateTransition as never });
    expect(await remove(admin, 'level_up')).toMatchObject({ status: 400, body: inUse('level_up', testCta) });
    api.clock.advance(2 * HOUR_MS);
    expect((await remove(admin, 'level_up')).status).toBe(200);
  });

  it('records no audit entry for a refused delete', async () => {
    const admin = await tenant('store_opened');
    await admin.cta();
    const before = (await api.get('/engine/audit?entityType=event', admin.headers())).body.data.totalEntries;
    expect((await remove(admin, 'store_opened')).status).toBe(400);
    expect((await api.get('/engine/audit?entityType=event', admin.headers())).body.data.totalEntries).toBe(before);
  });
});
