import { PeriodicJobsService } from '../src/scheduling/periodic-jobs.service';
import { AdminClient } from './admin-client';
import { auditSuite } from './audit';
import { DAY } from './test-clock';
import { eachDatabase, errorBody, TestApp } from './harness';

/** `GET /engine/audit` and `GET /engine/ctas/{id}/history`: paging, filters, refusals, tenants; and the retention purge. */

eachDatabase('audit history', (database) => {
  let api: TestApp;
  beforeAll(async () => {
    api = await TestApp.start(database);
  });
  afterAll(() => api.close());

  const { audit, history, entriesOf } = auditSuite(() => api);

  describe('reading the history', () => {
    const tenant = 'audit-paging';
    let id: number;
    let entries: any[];
    beforeAll(async () => {
      const admin = new AdminClient(api, tenant);
      id = await admin.create();
      for (const team of ['a', 'b', 'c', 'd']) {
        api.clock.advance(10);
        expect((await admin.update(id, { team }, { user: `${team}@example.com` })).status).toBe(200);
      }
      await admin.status(id, 'live');
      await admin.create();
      entries = await entriesOf(tenant);
    });

    it('pages newest first, with the CTA list paging', async () => {
      expect(entries.map((entry) => entry.action)).toEqual(['create', 'live', 'update', 'update', 'update', 'update', 'create']);
      expect(entries.map((entry) => entry.id)).toEqual([...entries.map((entry) => entry.id)].sort((a, b) => b - a));
      const res = await history(tenant, id, '?pageSize=2&pageNumber=1');
      expect(res.body).toEqual({ data: { entries: entries.slice(3, 5), totalEntries: 6, totalPages: 3, pageNumber: 1, pageSize: 2 } });
      expect((await history(tenant, id)).body.data).toMatchObject({
        entries: entries.slice(1),
        pageNumber: 0,
        pageSize: 10,
        totalPages: 1,
      });
      expect((await history(tenant, id, '?pageNumber=3&pageSize=2')).body.data).toEqual({
        entries: [],
        totalEntries: 6,
        totalPages: 3,
        pageNumber: 3,
        pageSize: 2,
      });
    });

    it('filters by entity, actor, user, action and time, combined', async () => {
      const ids = async (query: string) => (await entriesOf(tenant, query)).map((entry) => entry.id);
      expect(await ids(`&entityType=cta&entityId=${id}`)).toEqual(entries.slice(1).map((entry) => entry.id));
      expect(await ids('&user=b@example.com')).toEqual([entries[4].id]);
      expect(await ids('&action=update&user=c@example.com')).toEqual([entries[3].id]);
      expect(await ids('&action=live')).toEqual([entries[1].id]);
      expect(await ids(`&from=${entries[4].at}&to=${entries[2].at}`)).toEqual(entries.slice(2, 5).map((entry) => entry.id));
      expect(await ids('&actor=nobody')).toEqual([]);
    });

    it.each(['?entityId=999999', '?user=nobody', '?from=9999999999999', '?to=0'])('answers an empty page for %s', async (query) => {
      expect((await audit(tenant, query)).body).toEqual({
        data: { entries: [], totalEntries: 0, totalPages: 0, pageNumber: 0, pageSize: 10 },
      });
    });

    it.each([
      ['?pageSize=0', 'pageSize must be a decimal integer between 1 and 100'],
      ['?pageSize=101', 'pageSize must be a decimal integer between 1 and 100'],
      ['?pageNumber=-1', 'pageNumber must be a decimal integer ≥ 0'],
      ['?pageNumber=x', 'pageNumber must be a decimal integer ≥ 0'],
      ['?from=yesterday', 'from must be epoch milliseconds (a decimal integer ≥ 0)'],
      ['?to=1.5', 'to must be epoch milliseconds (a decimal integer ≥ 0)'],
      ['?entityType=campaign', 'entityType must be one of cta, testCta, behaviourTag, event, cohort, appUser, exposurePolicy'],
      [
        '?action=rename',
        'action must be one of create, update, delete, live, pause, schedule, conclude, terminate, restore, approve, members, erase',
      ],
    ])('refuses %s with INVALID_REQUEST', async (query, message) => {
      expect((await audit(tenant, query)).body).toEqual(errorBody('INVALID_REQUEST', message));
      expect((await history(tenant, id, query.startsWith('?page') ? query : '?pageSize=x')).body).toEqual(errorBody('INVALID_REQUEST'));
    });

    it('refuses a repeated filter, and a CTA history of a non-numeric id', async () => {
      expect((await audit(tenant, '?actor=a&actor=b')).body).toEqual(errorBody('INVALID_REQUEST'));
      expect((await history(tenant, 'abc')).body).toEqual(errorBody('CTA_ID_INVALID', 'CTA abc does not exist'));
    });

    it('shows nothing of one tenant to another', async () => {
      expect((await audit('audit-paging-other')).body.data.totalEntries).toBe(0);
      expect((await history('audit-paging-other', id)).body).toEqual(errorBody('CTA_ID_INVALID', `CTA ${id} does not exist`));
      expect((await entriesOf(tenant)).length).toBe(7);
    });
  });
});

eachDatabase('audit retention', (database) => {
  let api: TestApp;
  beforeAll(async () => {
    api = await TestApp.start(database, { AUDIT_RETENTION_DAYS: '30' });
  });
  afterAll(() => api.close());

  it('purges entries older than AUDIT_RETENTION_DAYS in the periodic job, and keeps the younger ones', async () => {
    const client = new AdminClient(api, 'audit-retention');
    const old = await client.create();
    api.clock.advance(20 * DAY);
    const young = await client.create();
    api.clock.advance(11 * DAY);
    await api.service(PeriodicJobsService).runAll();
    const { entries } = (await client.audit.search()).body.data;
    expect(entries.map((entry: any) => entry.entityId)).toEqual([String(young)]);
    expect((await client.get(old)).id).toBe(old);
  });
});
