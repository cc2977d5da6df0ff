import { AdminClient } from './admin-client';
import { ctaBody, examples, sdkHeaders } from './fixtures';
import { eachDatabase, errorBody, TestApp } from './harness';

/**
 * What the real admin panel sends and reads, rule by rule (the recorded requests themselves are
 * replayed by admin-panel.e2e-spec.ts): status tabs in upper case, the lifetime cap read as
 * `lifespan`, test journeys without cohorts or a lifetime cap, and no `user` header.
 */

const LAUNCH = '/cta/active/state-machines/';
const DEFAULT_USER = 'panel@example.com';
const MINUTE = 60_000;

eachDatabase('the real admin panel, rule by rule', (database) => {
  let api: TestApp;
  let tenants = 0;
  const admin = () => new AdminClient(api, `panel-compat-${++tenants}`);

  beforeAll(async () => {
    api = await TestApp.start(database, { ADMIN_DEFAULT_USER: DEFAULT_USER });
  });
  afterAll(() => api.close());

  describe('status tabs', () => {
    it('match status without regard to case; statusWiseCount keys stay lower case', async () => {
      const client = admin();
      const live = await client.cta();
      await client.create();
      for (const status of ['live', 'LIVE', 'Live']) {
        const page = (await client.list(`?status=${status}`)).body.data;
        expect({ status, ids: page.ctas.map((cta: any) => String(cta.id)), totalEntries: page.totalEntries }).toEqual({
          status,
          ids: [live],
          totalEntries: 1,
        });
        expect(page.statusWiseCount).toEqual({ draft: 1, paused: 0, live: 1, scheduled: 0, concluded: 0, terminated: 0 });
      }
      for (const status of ['running', 'LIVE,DRAFT', 'lïve']) {
        expect((await client.list(`?status=${encodeURIComponent(status)}`)).body).toEqual(
          errorBody('CTA_STATUS_INVALID', 'status must be one of draft, paused, live, scheduled, concluded, terminated'),
        );
      }
    });
  });

  describe('the lifetime cap', () => {
    it('is read as lifespan beside lifeSpan, equal, on GET, in the list and in the audit', async () => {
      const client = admin();
      const id = await client.create();
      const equalCaps = (rule: any) => [rule.frequency.lifeSpan, rule.frequency.lifespan];
      expect(equalCaps((await client.get(id)).rule)).toEqual([{ limit: 5 }, { limit: 5 }]);
      const listed = (await client.list()).body.data.ctas[0];
      expect(equalCaps(listed.rule)).toEqual([{ limit: 5 }, { limit: 5 }]);
      const rule = examples.rule();
      rule.frequency.lifeSpan = { limit: 7 };
      await client.edit(id, { rule });
      const [update] = (await api.get(`/engine/ctas/${id}/history`, client.headers())).body.data.entries;
      expect([equalCaps(update.before.rule), equalCaps(update.after.rule)]).toEqual([
        [{ limit: 5 }, { limit: 5 }],
        [{ limit: 7 }, { limit: 7 }],
      ]);
      expect(update.changes).toEqual(
        expect.arrayContaining([
          { op: 'replace', path: '/rule/frequency/lifeSpan/limit', value: 7 },
          { op: 'replace', path: '/rule/frequency/lifespan/limit', value: 7 },
        ]),
      );
    });

    it('survives the panel opening a journey for edit and saving it (the form reads and sends lifespan)', async () => {
      const client = admin();
      const id = await client.create();
      for (let save = 0; save < 2; save++) {
        const { rule } = await client.get(id);
        const { ctaValidTill: _derived, ...formRule } = rule;
        // The form holds lifespan (what it read) and sends it; it knows no lifeSpan.
        const { lifeSpan: _camelCase, ...formFrequency } = rule.frequency;
        await client.edit(id, { rule: { ...formRule, frequency: formFrequency } });
      }
      expect((await client.get(id)).rule.frequency).toEqual({ ...examples.rule().frequency, lifespan: { limit: 5 } });
    });
  });

  describe('test journeys as the panel builds them', () => {
    /** The panel's newest builder: no cohortEligibility, no lifetime cap; the legacy one adds groupBy and its own ctaValidTill. */
    const panelRule = (extra: Record<string, unknown> = {}): Record<string, any> => {
      const { cohortEligibility: _cohorts, ...rule } = examples.rule();
      const { lifeSpan: _cap, ...frequency } = rule.frequency;
      return { ...rule, frequency, ...extra };
    };
    const createTest = (client: AdminClient, rule: unknown, fields: Record<string, unknown> = {}) =>
      api.post('/engine/ctas/test/create', { userIds: [42], expiresInMinutes: 30, rule, ...fields }, client.headers());
    const testCreateEntry = async (client: AdminClient, id: number) =>
      (await api.get(`/engine/audit?entityType=testCta&entityId=${id}`, client.headers())).body.data.entries[0];

    it('store every user as the cohorts and a lifetime cap of 0, keep groupBy, and expire by expiresInMinutes', async () => {
      const client = admin();
      const created = await createTest(client, panelRule({ groupBy: [], ctaValidTill: api.clock.now() + 999 * MINUTE }));
      expect(created.status).toBe(200);
      const { after } = await testCreateEntry(client, created.body.data);
      expect(after.rule.cohortEligibility).toEqual({ includes: ['all'], excludes: [] });
      expect(after.rule.frequency).toMatchObject({ lifeSpan: { limit: 0 }, lifespan: { limit: 0 } });
      expect(after.rule.groupBy).toEqual([]);
      const served = (await api.post(LAUNCH, {}, sdkHeaders(client.tenantId, '42'))).body.data.ctas;
      expect(served.map((cta: any) => [cta.ctaId, cta.rule.ctaValidTill, cta.rule.groupBy])).toEqual([
        [String(created.body.data), after.createdAt + 30 * MINUTE, []],
      ]);
      expect((await api.post(LAUNCH, {}, sdkHeaders(client.tenantId, '7'))).body.data.ctas).toEqual([]);
      // A re-save replaces it.
      const resaved = await createTest(client, panelRule(), { previousCtaId: created.body.data });
      expect(resaved.status).toBe(200);
      const ids = (await api.post(LAUNCH, {}, sdkHeaders(client.tenantId, '42'))).body.data.ctas.map((cta: any) => cta.ctaId);
      expect(ids).toEqual([String(resaved.body.data)]);
    });

    it('keep a lifetime cap that is sent, in either spelling, and check a cohortEligibility that is sent', async () => {
      const client = admin();
      for (const spelling of ['lifespan', 'lifeSpan']) {
        const withCap = await createTest(client, panelRule({ frequency: { ...panelRule().frequency, [spelling]: { limit: 3 } } }));
        expect((await testCreateEntry(client, withCap.body.data)).after.rule.frequency.lifeSpan).toEqual({ limit: 3 });
      }
      for (const [cohortEligibility, problem] of [
        [{ includes: [], excludes: [] }, 'rule.cohortEligibility.includes: must be a non-empty array of strings'],
        ['all', 'rule.cohortEligibility: must be an object'],
      ]) {
        expect((await createTest(client, panelRule({ cohortEligibility }))).body).toEqual(errorBody('CTA_CREATION_ERROR', problem));
      }
      expect((await createTest(client, panelRule({ frequency: { session: { limit: 1 } } }))).body).toEqual(
        errorBody('CTA_CREATION_ERROR', 'rule.frequency.window: must be an object'),
      );
    });

    it('are test CTAs only: a normal CTA still needs its cohorts and its lifetime cap', async () => {
      const res = await api.post('/engine/ctas', ctaBody({ rule: panelRule() }), admin().headers());
      expect(res.body).toEqual(
        errorBody('INVALID_REQUEST', 'rule.cohortEligibility: must be an object; rule.frequency.lifeSpan: must be an object'),
      );
    });
  });

  describe('the user header', () => {
    it('defaults to ADMIN_DEFAULT_USER when absent, on create, update and test create', async () => {
      const client = admin();
      const tenant = { 'x-tenant-id': client.tenantId };
      const created = await api.post('/engine/ctas', ctaBody(), tenant);
      expect((await client.get(created.body.data)).createdBy).toBe(DEFAULT_USER);
      const { name: _name, ...update } = ctaBody();
      expect((await api.put(`/engine/ctas/${created.body.data}`, update, tenant)).status).toBe(200);
      expect((await client.get(created.body.data)).lastUpdatedBy).toBe(DEFAULT_USER);
      const test = await api.post('/engine/ctas/test/create', { userIds: [1], expiresInMinutes: 5, rule: examples.rule() }, tenant);
      const entries = (await api.get(`/engine/audit?entityType=testCta&entityId=${test.body.data}`, tenant)).body.data.entries;
      // The audit's `user` stays the header (none was sent); the record names the operator.
      expect(entries[0]).toMatchObject({ user: null, after: { createdBy: DEFAULT_USER } });
    });

    it('refuses a blank or overlong header even then', async () => {
      for (const [user, message] of [
        ['', "header 'user' must not be blank"],
        ['   ', "header 'user' must not be blank"],
        ['u'.repeat(256), "header 'user' must be at most 255 characters"],
      ]) {
        const res = await api.post('/engine/ctas', ctaBody(), { 'x-tenant-id': 'panel-blank-user', user });
        expect(res.body).toEqual(errorBody('INVALID_REQUEST', message));
      }
    });
  });
});

eachDatabase('the user header with admin keys and ADMIN_DEFAULT_USER', (database) => {
  let api: TestApp;
  beforeAll(async () => {
    api = await TestApp.start(database, { ADMIN_API_KEYS: 'alice:editor:alice-key,bare-key', ADMIN_DEFAULT_USER: DEFAULT_USER });
  });
  afterAll(() => api.close());

  it('defaults to the name of the key that authenticated the request, the header still winning', async () => {
    const creatorOf = async (headers: Record<string, string>): Promise<string> => {
      const created = await api.post('/engine/ctas', ctaBody(), { 'x-tenant-id': 'panel-keys', ...headers });
      expect(created.status).toBe(200);
      return (await api.get(`/engine/ctas/${created.body.data}`, { 'x-tenant-id': 'panel-keys', ...headers })).body.data.createdBy;
    };
    expect(await creatorOf({ 'x-api-key': 'alice-key' })).toBe('alice');
    expect(await creatorOf({ authorization: 'Bearer bare-key' })).toBe('key-1');
    expect(await creatorOf({ 'x-api-key': 'alice-key', user: 'ops@example.com' })).toBe('ops@example.com');
  });
});
