import { AdminClient } from './admin-client';
import { ctaBody, examples, sdkHeaders } from './fixtures';
import type { DataSource } from 'typeorm';
import { PeriodicJobsService } from '../src/scheduling/periodic-jobs.service';
import { CtaTestUserEntity } from '../src/ctas/cta-test-user.entity';
import { CtaEntity } from '../src/ctas/cta.entity';
import { dataSourceOf } from './database-contents';
import { eachDatabase, errorBody, TestApp } from './harness';

const MINUTE = 60 * 1000;

eachDatabase('Test CTAs', (database) => {
  let api: TestApp;
  let dataSource: DataSource;
  beforeAll(async () => {
    api = await TestApp.start(database);
    dataSource = dataSourceOf(api);
  });
  afterAll(() => api.close());

  const headers = (tenantId: string) => ({ 'x-tenant-id': tenantId, user: 'qa@example.com' });
  const testBody = (fields: Record<string, unknown> = {}) => ({
    userIds: [101, 102],
    expiresInMinutes: 60,
    rule: examples.rule(),
    ...fields,
  });
  const createTest = (tenantId: string, fields: Record<string, unknown> = {}) =>
    api.post('/engine/ctas/test/create', testBody(fields), headers(tenantId));
  const createdTest = async (tenantId: string, fields: Record<string, unknown> = {}): Promise<number> => {
    const res = await createTest(tenantId, fields);
    expect(res.status).toBe(200);
    return res.body.data;
  };
  const row = (tenantId: string, id: number) => dataSource.getRepository(CtaEntity).findOneBy({ tenantId, id });
  const targetedUsers = async (tenantId: string, ctaId: number): Promise<string[]> =>
    (await dataSource.getRepository(CtaTestUserEntity).findBy({ tenantId, ctaId })).map((user) => user.userId).sort();
  const launchCtaIds = async (tenantId: string, userId: string): Promise<string[]> => {
    const res = await api.post('/cta/active/state-machines/', {}, sdkHeaders(tenantId, userId));
    expect(res.status).toBe(200);
    return res.body.data.ctas.map((cta: { ctaId: string }) => cta.ctaId);
  };

  describe('POST /engine/ctas/test/create', () => {
    it('creates a live test CTA named test-<id>, team test, expiring after expiresInMinutes', async () => {
      const now = api.clock.now();
      const res = await createTest('test-happy', { expiresInMinutes: 90 });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ data: expect.any(Number) });
      const id = res.body.data;
      const stored = await row('test-happy', id);
      expect(stored).toMatchObject({
        name: `test-${id}`,
        team: 'test',
        status: 'live',
        isTest: true,
        createdBy: 'qa@example.com',
        endTime: null,
      });
      expect(stored!.expiresAt).toBeGreaterThanOrEqual(now + 90 * MINUTE);
      expect(stored!.expiresAt).toBeLessThan(now + 91 * MINUTE);
      expect(await targetedUsers('test-happy', id)).toEqual(['101', '102']);
    });

    it('is served by the launch to its users only, with its expiry as ctaValidTill', async () => {
      const id = await createdTest('test-served', { userIds: ['101'] });
      expect(await launchCtaIds('test-served', '101')).toEqual([String(id)]);
      expect(await launchCtaIds('test-served', '102')).toEqual([]);
      const res = await api.post('/cta/active/state-machines/', {}, sdkHeaders('test-served', '101'));
      expect(res.body.data.ctas[0].rule.ctaValidTill).toBe((await row('test-served', id))!.expiresAt);
    });

    it('never shows in the admin list, counts, filter values or GET', async () => {
      const tenant = 'test-hidden';
      const normal = await new AdminClient(api, tenant).create({ name: 'visible', team: 'growth', tags: ['store'] });
      const id = await createdTest(tenant);
      const list = await api.get('/engine/ctas/?pageSize=100', { 'x-tenant-id': tenant });
      expect(list.body.data.ctas.map((cta: { id: number }) => cta.id)).toEqual([normal]);
      expect(list.body.data.totalEntries).toBe(1);
      expect(list.body.data.statusWiseCount.live).toBe(0);
      expect((await api.get('/engine/ctas/?name=test-' + id, { 'x-tenant-id': tenant })).body.data.ctas).toEqual([]);
      expect((await api.get('/engine/filters/', { 'x-tenant-id': tenant })).body.data).toEqual({
        names: ['visible'],
        teams: ['growth'],
        tags: ['store'],
        createdBy: ['ops@example.com'],
      });
      const get = await api.get(`/engine/ctas/${id}`, { 'x-tenant-id': tenant });
      expect(get.body).toEqual(errorBody('CTA_ID_INVALID'));
    });

    it('cannot be edited or moved through the normal CTA endpoints', async () => {
      const id = await createdTest('test-readonly');
      const ctas = new AdminClient(api, 'test-readonly');
      expect((await ctas.update(id)).body).toEqual(errorBody('CTA_ID_INVALID'));
      for (const action of ['pause', 'conclude', 'terminate']) {
        expect((await ctas.status(id, action)).body).toEqual(errorBody('CTA_ID_INVALID'));
      }
      expect((await row('test-readonly', id))!.status).toBe('live');
    });

    it('accepts user ids as JSON integers or 64-bit decimal strings, stored canonically and once', async () => {
      const id = await createdTest('test-user-ids', { userIds: ['9223372036854775807', '-9223372036854775808', 7, '007', 7, '-5'] });
      expect(await targetedUsers('test-user-ids', id)).toEqual(['-5', '-9223372036854775808', '7', '9223372036854775807'].sort());
      expect(await launchCtaIds('test-user-ids', '9223372036854775807')).toEqual([String(id)]);
    });

    it('takes up to 1000 users and up to 43200 minutes', async () => {
      const userIds = Array.from({ length: 1000 }, (_, index) => index + 1);
      const id = await createdTest('test-limits', { userIds, expiresInMinutes: 43200 });
      expect(await targetedUsers('test-limits', id)).toHaveLength(1000);
    });

    const invalid: [string, Record<string, unknown>, string][] = [
      ['userIds missing', { userIds: undefined }, 'userIds'],
      ['userIds empty', { userIds: [] }, 'userIds'],
      ['userIds not an array', { userIds: 101 }, 'userIds'],
      ['over 1000 userIds', { userIds: Array.from({ length: 1001 }, (_, index) => index) }, 'userIds'],
      ['a fractional user id', { userIds: [1.5] }, 'userIds[0]'],
      ['a non-numeric user id', { userIds: [1, 'abc'] }, 'userIds[1]'],
      ['a user id beyond 64 bits', { userIds: ['9223372036854775808'] }, 'userIds[0]'],
      ['an unsafe JSON integer', { userIds: [2 ** 53 + 2] }, 'userIds[0]'],
      ['a boolean user id', { userIds: [true] }, 'userIds[0]'],
      ['expiresInMinutes missing', { expiresInMinutes: undefined }, 'expiresInMinutes'],
      ['expiresInMinutes zero', { expiresInMinutes: 0 }, 'expiresInMinutes'],
      ['expiresInMinutes over 30 days', { expiresInMinutes: 43201 }, 'expiresInMinutes'],
      ['expiresInMinutes a string', { expiresInMinutes: '60' }, 'expiresInMinutes'],
      ['previousCtaId malformed', { previousCtaId: 'abc' }, 'previousCtaId'],
      ['previousCtaId negative', { previousCtaId: -3 }, 'previousCtaId'],
      ['rule missing', { rule: undefined }, 'rule'],
      [
        'rule invalid',
        { rule: { ...examples.rule(), frequency: { ...examples.rule().frequency, window: { limit: 1, unit: 'fortnights', value: 1 } } } },
        'rule.frequency.window.unit: must be one of days, hours, minutes, seconds, or weeks (stored as days × 7)',
      ],
    ];
    it.each(invalid)('rejects %s with CTA_CREATION_ERROR, writing nothing', async (_case, fields, message) => {
      const res = await createTest('test-invalid', fields);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(errorBody('CTA_CREATION_ERROR', expect.stringContaining(message)));
      expect(await dataSource.getRepository(CtaEntity).countBy({ tenantId: 'test-invalid' })).toBe(0);
    });

    it('requires the user header', async () => {
      const res = await api.post('/engine/ctas/test/create', testBody(), { 'x-tenant-id': 'test-no-user' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(errorBody('INVALID_REQUEST', "header 'user' is required"));
    });

    it('replaces the previous test CTA named by previousCtaId in the same write', async () => {
      const tenant = 'test-previous';
      const first = await createdTest(tenant);
      const second = await createdTest(tenant, { previousCtaId: first, userIds: [201] });
      expect(await row(tenant, first)).toBeNull();
      expect(await targetedUsers(tenant, first)).toEqual([]);
      const third = await createdTest(tenant, { previousCtaId: String(second) });
      expect(await row(tenant, second)).toBeNull();
      expect(await row(tenant, third)).not.toBeNull();
      // A retry naming an already deleted (or never existing) CTA goes on.
      const fourth = await createdTest(tenant, { previousCtaId: second });
      expect(await row(tenant, third)).not.toBeNull();
      expect(await createdTest(tenant, { previousCtaId: 99999999 })).toBeGreaterThan(fourth);
    });

    it('ignores a previousCtaId naming a normal CTA or another tenant’s test CTA', async () => {
      const normal = await new AdminClient(api, 'test-previous-normal').create();
      await createdTest('test-previous-normal', { previousCtaId: normal });
      expect(await row('test-previous-normal', normal)).not.toBeNull();
      const foreign = await createdTest('test-previous-foreign-a');
      await createdTest('test-previous-foreign-b', { previousCtaId: foreign });
      expect(await row('test-previous-foreign-a', foreign)).not.toBeNull();
    });

    it('has names that never collide with normal CTA names', async () => {
      const tenant = 'test-names';
      const ctas = new AdminClient(api, tenant);
      const testId = await createdTest(tenant);
      // A normal CTA may take a test CTA's name…
      const normal = await ctas.create({ name: `test-${testId}` });
      // …and a normal CTA holding the next id's name does not block the next test CTA.
      await ctas.create({ name: `test-${normal + 1}` });
      const next = await createdTest(tenant);
      expect((await row(tenant, next))!.name).toBe(`test-${next}`);
      expect((await ctas.list(`?name=test-${testId}`)).body.data.ctas.map((cta: { id: number }) => cta.id)).toEqual([normal]);
    });
  });

  describe('DELETE /engine/ctas/test/{id}', () => {
    it('deletes a test CTA with its targeting and answers data null', async () => {
      const id = await createdTest('delete-happy');
      const res = await api.delete(`/engine/ctas/test/${id}`, { 'x-tenant-id': 'delete-happy' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ data: null });
      expect(await row('delete-happy', id)).toBeNull();
      expect(await targetedUsers('delete-happy', id)).toEqual([]);
      expect(await launchCtaIds('delete-happy', '101')).toEqual([]);
      const again = await api.delete(`/engine/ctas/test/${id}`, { 'x-tenant-id': 'delete-happy' });
      expect(again.body).toEqual(errorBody('CTA_ID_INVALID'));
      // Ids are never reused, so state devices kept for the deleted CTA cannot attach to a new one.
      expect(await createdTest('delete-happy')).toBeGreaterThan(id);
    });

    it('answers CTA_ID_INVALID for normal CTAs, unknown, malformed and other tenants’ ids', async () => {
      const normal = await new AdminClient(api, 'delete-errors').create();
      const foreign = await createdTest('delete-errors-other');
      for (const [id, tenant] of [
        [String(normal), 'delete-errors'],
        [String(foreign), 'delete-errors'],
        ['99999999', 'delete-errors'],
        ['abc', 'delete-errors'],
      ]) {
        const res = await api.delete(`/engine/ctas/test/${id}`, { 'x-tenant-id': tenant });
        expect(res.status).toBe(400);
        expect(res.body).toEqual(errorBody('CTA_ID_INVALID'));
      }
      expect(await row('delete-errors', normal)).not.toBeNull();
      expect(await row('delete-errors-other', foreign)).not.toBeNull();
    });
  });

  it('purges expired test CTAs in the periodic job, idempotently', async () => {
    const tenant = 'test-purge';
    const short = await createdTest(tenant, { expiresInMinutes: 1 });
    const long = await createdTest(tenant, { expiresInMinutes: 10 });
    const normal = await new AdminClient(api, tenant).create(ctaBody({ name: 'stays' }));
    api.clock.advance(MINUTE + 1);
    expect(await launchCtaIds(tenant, '101')).toEqual([String(long)]);
    await api.service(PeriodicJobsService).runAll();
    await api.service(PeriodicJobsService).runAll();
    expect(await row(tenant, short)).toBeNull();
    expect(await targetedUsers(tenant, short)).toEqual([]);
    expect(await row(tenant, long)).not.toBeNull();
    expect(await row(tenant, normal)).not.toBeNull();
  });
});
