import { setTimeout as sleep } from 'node:timers/promises';
import { AdminClient } from './admin-client';
import { examples, sdkHeaders } from './fixtures';
import { createDatabase, eachDatabase, errorBody, TEST_DATABASES, TestApp } from './harness';

/**
 * Live edits: a live or scheduled CTA takes an update (or a restore) that keeps its state graph —
 * the states and the groupBy keys every machine on devices and in the service depends on — and
 * times its status allows; anything else is refused, naming what differs and the way out.
 */

const LAUNCH = '/cta/active/state-machines/';
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
/** An update that leaves the times out (they keep their values), as a live edit usually is. */
const KEEP_TIMES = { startTime: undefined, endTime: undefined };

/** The example rule with `change` applied. */
const ruleWith = (change: (rule: Record<string, any>) => void): Record<string, any> => {
  const rule = examples.rule();
  change(rule);
  return rule;
};

/** Everything devices can absorb changed at once: texts, templates, filters, priority, frequency, cohorts. */
const absorbable = ruleWith((rule) => {
  rule.actions[0].props.title = 'Back again?';
  rule.actions[1].template = 'popup_discount_v3';
  rule.stateTransition.store_opened['0'][0].filters.filter[1].comparisonValue = 900;
  rule.stateTransition.store_opened['0'].push({ transitionTo: '1', filters: { operator: 'AND', filter: [] } });
  rule.priority = 1;
  rule.frequency.lifeSpan = { limit: 9 };
  rule.cohortEligibility.excludes = [];
});

/** A new state "4" reached from "3"'s neighbour: the graph changes. */
const withNewState = ruleWith((rule) => {
  rule.stateTransition.purchase_completed['2'].push({ transitionTo: '4' });
});

eachDatabase('live edits', (database) => {
  let api: TestApp;
  let tenants = 0;
  const admin = () => new AdminClient(api, `live-edits-${++tenants}`);
  const history = async (client: AdminClient, id: string | number): Promise<any[]> =>
    (await api.get(`/engine/ctas/${id}/history`, client.headers())).body.data.entries;

  beforeAll(async () => {
    api = await TestApp.start(database);
  });
  afterAll(() => api.close());

  it('a live CTA takes an edit that keeps its state graph: recorded in the audit, served at the next launch', async () => {
    const client = admin();
    const id = await client.cta();
    const live = await client.get(id);
    const res = await client.update(id, { ...KEEP_TIMES, rule: absorbable, description: 'edited while live', tags: ['spring'] });
    expect(res).toMatchObject({ status: 200, body: {} });
    const edited = await client.get(id);
    expect(edited).toMatchObject({ ctaStatus: 'live', startTime: live.startTime, description: 'edited while live', tags: ['spring'] });
    expect(edited.rule).toMatchObject({ priority: 1, frequency: { lifeSpan: { limit: 9 }, lifespan: { limit: 9 } } });
    const [entry] = await history(client, id);
    expect(entry).toMatchObject({ action: 'update', before: { ctaStatus: 'live', rule: { priority: 5 } }, after: edited });
    const launched = await api.post(LAUNCH, {}, sdkHeaders(client.tenantId, '42'));
    expect(launched.body.data.ctas.map((cta: any) => [cta.ctaId, cta.rule.priority, cta.rule.actions[1].template])).toEqual([
      [id, 1, 'popup_discount_v3'],
    ]);
  });

  it('a scheduled CTA takes one too, and may move its start, not into the past', async () => {
    const client = admin();
    const start = api.clock.now() + 2 * HOUR;
    const id = await client.cta({ startTime: start, actions: ['schedule'] });
    expect((await client.update(id, { rule: absorbable, startTime: start + HOUR, endTime: undefined })).status).toBe(200);
    expect(await client.get(id)).toMatchObject({ ctaStatus: 'scheduled', startTime: start + HOUR, rule: { priority: 1 } });
    const past = api.clock.now() - MINUTE;
    expect((await client.update(id, { ...KEEP_TIMES, startTime: past })).body).toEqual(
      errorBody(
        'CTA_STATUS_UPDATE_INVALID',
        expect.stringMatching(
          new RegExp(`^startTime: \\S+ \\(${past}\\) is in the past \\(now .*\\): CTA ${id} is scheduled, so its start may move`),
        ),
      ),
    );
    // The newest panel builds send null when the operator did not touch the schedule: the start stays.
    expect((await client.update(id, { ...KEEP_TIMES, startTime: null, description: 'saved untouched' })).status).toBe(200);
    expect(await client.get(id)).toMatchObject({ ctaStatus: 'scheduled', startTime: start + HOUR, description: 'saved untouched' });
  });

  it("a live CTA's startTime may be omitted, kept, sent as null (kept) or set to a time not in the future; its endTime not into the past", async () => {
    const client = admin();
    const id = await client.cta();
    const { startTime } = await client.get(id);
    expect((await client.update(id, { ...KEEP_TIMES })).status).toBe(200);
    expect((await client.update(id, { ...KEEP_TIMES, startTime })).status).toBe(200);
    // The real panel sends "now" with every save; any past time will do, however far back.
    const dayAgo = api.clock.now() - 24 * HOUR;
    expect((await client.update(id, { ...KEEP_TIMES, startTime: dayAgo })).status).toBe(200);
    expect((await client.get(id)).startTime).toBe(dayAgo);
    const later = api.clock.now() + HOUR;
    expect((await client.update(id, { ...KEEP_TIMES, startTime: later })).body).toEqual(
      errorBody(
        'CTA_STATUS_UPDATE_INVALID',
        expect.stringMatching(
          new RegExp(
            `^startTime: \\S+ \\(${later}\\) is in the future \\(now .*\\): to start CTA ${id} later, pause it, then schedule it$`,
          ),
        ),
      ),
    );
    expect((await client.update(id, { ...KEEP_TIMES, startTime: null })).status).toBe(200);
    expect((await client.get(id)).startTime).toBe(dayAgo);
    const ended = api.clock.now() - MINUTE;
    expect((await client.update(id, { ...KEEP_TIMES, endTime: ended })).body).toEqual(
      errorBody(
        'CTA_STATUS_UPDATE_INVALID',
        expect.stringMatching(new RegExp(`^endTime: \\S+ \\(${ended}\\) is in the past \\(now .*\\): to end CTA ${id} now, conclude it$`)),
      ),
    );
    expect((await client.update(id, { ...KEEP_TIMES, endTime: api.clock.now() + HOUR })).status).toBe(200);
    expect((await client.update(id, { ...KEEP_TIMES, startTime: api.clock.now() + 8 * 365 * 24 * HOUR })).body).toEqual(
      errorBody('INVALID_REQUEST', expect.stringMatching(/^startTime must lie between .* too far ahead$/)),
    );
    expect((await client.get(id)).startTime).toBe(dayAgo);
  });

  it('a null startTime keeps the start of a paused CTA, which can then be scheduled again; only a draft start is cleared', async () => {
    const client = admin();
    const start = api.clock.now() + 2 * HOUR;
    const id = await client.cta({ startTime: start, actions: ['schedule', 'pause'] });
    expect((await client.update(id, { ...KEEP_TIMES, startTime: null, description: 'paused, saved' })).status).toBe(200);
    expect(await client.get(id)).toMatchObject({ ctaStatus: 'paused', startTime: start, description: 'paused, saved' });
    expect((await client.status(id, 'schedule')).status).toBe(200);
    expect(await client.get(id)).toMatchObject({ ctaStatus: 'scheduled', startTime: start });
    const draft = await client.cta({ startTime: start, actions: [] });
    expect((await client.update(draft, { ...KEEP_TIMES, startTime: null })).status).toBe(200);
    expect((await client.get(draft)).startTime).toBeNull();
  });

  it.each<[string, Record<string, any>, string]>([
    ['a new state in stateTransition', withNewState, 'rule.stateTransition: state "4" is new; pause CTA {id} to change its states'],
    [
      'a state gone from stateToAction and the transitions',
      ruleWith((rule) => {
        delete rule.stateToAction['2'];
        rule.stateTransition.store_opened['1'] = [];
        delete rule.stateTransition.purchase_completed['2'];
      }),
      'rule.stateTransition: state "2" would be gone; pause CTA {id} to change its states',
    ],
    [
      'a new reset state',
      ruleWith((rule) => rule.resetStates.push('7')),
      'rule.resetStates: state "7" is new; pause CTA {id} to change its states',
    ],
    [
      'other groupBy keys',
      ruleWith((rule) => (rule.groupByConfig.groupByKeys = ['cityId'])),
      'rule.groupByConfig.groupByKeys: ["storeId"] would become ["cityId"], which re-keys every machine; pause CTA {id} to change its groupByKeys',
    ],
  ])('refuses %s on a live or scheduled CTA, naming it and the way out, and writes nothing', async (_case, rule, message) => {
    const client = admin();
    const live = await client.cta();
    const scheduled = await client.cta({ startTime: api.clock.now() + HOUR, actions: ['schedule'] });
    for (const id of [live, scheduled]) {
      const before = await client.get(id);
      const entries = await history(client, id);
      expect((await client.update(id, { ...KEEP_TIMES, rule })).body).toEqual(
        errorBody('CTA_STATUS_UPDATE_INVALID', message.replace('{id}', id)),
      );
      expect(await client.get(id)).toEqual(before);
      expect(await history(client, id)).toEqual(entries);
    }
    // The way out: pause, edit, go live again.
    await client.move(live, 'pause');
    expect((await client.update(live, { ...KEEP_TIMES, rule })).status).toBe(200);
    await client.move(live, 'live');
  });

  it('names every difference at once, with the time problems', async () => {
    const client = admin();
    const id = await client.cta();
    const rule = ruleWith((r) => {
      r.stateTransition.purchase_completed['1'][0].transitionTo = '5';
      r.stateTransition.purchase_completed['2'][0].transitionTo = '5';
      r.resetStates = ['5'];
      r.groupByConfig.groupByKeys = [];
    });
    const later = api.clock.now() + HOUR;
    const { message } = (await client.update(id, { rule, startTime: later })).body.error;
    expect(message.split('; ').map((part: string) => part.replace(/ .*/, ''))).toEqual([
      'rule.stateTransition:',
      'rule.stateTransition:',
      'rule.groupByConfig.groupByKeys:',
      'pause',
      'startTime:',
    ]);
    expect(message).toContain(`state "3" would be gone; rule.stateTransition: state "5" is new`);
  });

  it('refuses any edit of a concluded or terminated CTA, and /live on a live one says it is already live', async () => {
    const client = admin();
    const concluded = await client.cta({ actions: ['live', 'conclude'] });
    const terminated = await client.cta({ actions: ['terminate'] });
    for (const [id, status] of [
      [concluded, 'concluded'],
      [terminated, 'terminated'],
    ]) {
      expect((await client.update(id, KEEP_TIMES)).body).toEqual(
        errorBody('CTA_STATUS_UPDATE_INVALID', `CTA ${id} is ${status}; concluded and terminated CTAs cannot be edited`),
      );
    }
    const live = await client.cta();
    expect((await client.update(live, KEEP_TIMES)).status).toBe(200);
    expect((await client.status(live, 'live')).body).toEqual(
      errorBody('CTA_STATUS_UPDATE_INVALID', `CTA ${live} is already live; nothing to change`),
    );
  });

  it('restores a live CTA to a version with the same state graph, and refuses one with another', async () => {
    const client = admin();
    const id = await client.cta({ actions: ['live', 'pause'] });
    await client.edit(id, { ...KEEP_TIMES, rule: withNewState, description: 'four states' });
    await client.edit(id, { ...KEEP_TIMES, description: 'three states' });
    await client.move(id, 'live');
    await client.edit(id, { ...KEEP_TIMES, description: 'edited while live' });
    const [, , threeStates, fourStates] = await history(client, id);
    expect([threeStates.after.description, fourStates.after.description]).toEqual(['three states', 'four states']);
    const restore = (entry: any) => api.post(`/engine/ctas/${id}/restore/${entry.id}`, undefined, client.headers());
    expect((await restore(fourStates)).body).toEqual(
      errorBody('CTA_STATUS_UPDATE_INVALID', `rule.stateTransition: state "4" is new; pause CTA ${id} to change its states`),
    );
    expect((await client.get(id)).description).toBe('edited while live');
    expect((await restore(threeStates)).status).toBe(200);
    expect(await client.get(id)).toMatchObject({ ctaStatus: 'live', description: 'three states' });
    expect((await history(client, id))[0]).toMatchObject({ action: 'restore', before: { ctaStatus: 'live' } });
  });

  it('restores a live CTA to a version from its draft days without a start: the start it has is kept', async () => {
    const client = admin();
    const id = await client.cta({ actions: [] });
    const [created] = await history(client, id);
    expect(created.after.startTime).toBeNull();
    await client.move(id, 'live');
    await client.edit(id, { ...KEEP_TIMES, description: 'edited while live' });
    const { startTime } = await client.get(id);
    expect(startTime).not.toBeNull();
    expect((await api.post(`/engine/ctas/${id}/restore/${created.id}`, undefined, client.headers())).status).toBe(200);
    expect(await client.get(id)).toMatchObject({ ctaStatus: 'live', startTime, description: created.after.description });
  });

  it('lets no state graph change slip onto a CTA that goes live at the same moment', async () => {
    const client = admin();
    for (let round = 0; round < 8; round++) {
      const id = await client.cta({ actions: ['live', 'pause'] });
      const [update, live] = await Promise.all([client.update(id, { ...KEEP_TIMES, rule: withNewState }), client.status(id, 'live')]);
      expect(live.status).toBe(200);
      const actions = (await history(client, id)).map((entry) => [entry.action, entry.before?.ctaStatus ?? null]);
      if (update.status === 200) {
        // The edit went first, while the CTA was paused; going live came after it.
        expect(actions).toEqual([
          ['live', 'paused'],
          ['update', 'paused'],
          ['pause', 'live'],
          ['live', 'draft'],
          ['create', null],
        ]);
        expect((await client.get(id)).rule.stateTransition.purchase_completed['2']).toHaveLength(2);
      } else {
        expect(update.body).toEqual(errorBody('CTA_STATUS_UPDATE_INVALID', expect.stringContaining('state "4" is new')));
        expect(actions.map(([action]) => action)).toEqual(['live', 'pause', 'live', 'create']);
        expect((await client.get(id)).rule.stateTransition.purchase_completed['2']).toHaveLength(1);
      }
    }
  });
});

/** Another instance sees a live edit within its revalidation period, like any other write (MariaDB only: one SQLite file, one process). */
(TEST_DATABASES.includes('mysql') ? describe : describe.skip)('a live edit on several instances [mysql]', () => {
  const REVALIDATE_MS = 1000;
  let a: TestApp;
  let b: TestApp;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    const database = await createDatabase('mysql');
    drop = database.drop;
    a = await TestApp.join('mysql', database.url, { CACHE_REVALIDATE_MS: String(REVALIDATE_MS) });
    b = await TestApp.join('mysql', database.url, { CACHE_REVALIDATE_MS: String(REVALIDATE_MS) });
  });
  afterAll(async () => {
    await Promise.all([a.close(), b.close()]);
    await drop();
  });

  it(`reaches the other instance within CACHE_REVALIDATE_MS + 200 ms`, async () => {
    const client = new AdminClient(b, 'live-edit-instances');
    const id = await client.cta();
    const priorityOnA = async (): Promise<number> =>
      (await a.post(LAUNCH, {}, sdkHeaders(client.tenantId, '42'))).body.data.ctas.find((cta: any) => cta.ctaId === id).rule.priority;
    expect(await priorityOnA()).toBe(5);
    const changedAt = Date.now();
    await client.edit(id, { ...KEEP_TIMES, rule: absorbable });
    while ((await priorityOnA()) !== 1 && Date.now() - changedAt < REVALIDATE_MS + 2000) {
      await sleep(20);
    }
    expect(Date.now() - changedAt).toBeLessThanOrEqual(REVALIDATE_MS + 200);
  });
});
