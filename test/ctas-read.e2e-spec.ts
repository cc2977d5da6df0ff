import { AdminClient } from './admin-client';
import { BehaviourTagCtaEntity } from '../src/behaviour-tags/behaviour-tag-cta.entity';
import { TransactionRunner } from '../src/database/transaction-runner';
import { eachDatabase, errorBody, TestApp } from './harness';

/** `GET /engine/ctas/{id}`, `GET /engine/ctas/` (paging, filters, counts) and `GET /engine/filters/`. */

eachDatabase('CTAs', (database) => {
  let api: TestApp;
  beforeAll(async () => {
    api = await TestApp.start(database);
  });
  afterAll(() => api.close());

  /** Links CTAs to a behaviour tag the way the tag endpoints store it (the link table). */
  const linkToTag = (tenantId: string, tagName: string, ctaIds: number[]) =>
    api.service(TransactionRunner).run((manager) =>
      manager.insert(
        BehaviourTagCtaEntity,
        ctaIds.map((ctaId) => ({ tenantId, ctaId, tagName })),
      ),
    );

  describe('GET /engine/ctas/{id}', () => {
    it('answers the names of the linking behaviour tags', async () => {
      const ctas = new AdminClient(api, 'get-tags');
      const id = await ctas.create();
      await linkToTag('get-tags', 'store-nudges', [id]);
      expect((await ctas.get(id)).behaviourTags).toEqual(['store-nudges']);
    });

    it('answers CTA_ID_INVALID for unknown, malformed and other tenants’ ids', async () => {
      const owner = new AdminClient(api, 'get-owner');
      const id = await owner.create();
      for (const [path, tenant] of [
        [`${id}`, 'get-other'],
        ['99999999', 'get-owner'],
        ['abc', 'get-owner'],
        ['-1', 'get-owner'],
        ['1e3', 'get-owner'],
        ['0', 'get-owner'],
      ]) {
        const res = await api.get(`/engine/ctas/${path}`, { 'x-tenant-id': tenant });
        expect(res.status).toBe(400);
        expect(res.body).toEqual(errorBody('CTA_ID_INVALID'));
      }
    });
  });

  describe('GET /engine/ctas/', () => {
    it('pages newest first with totals, defaults and an empty page past the end', async () => {
      const ctas = new AdminClient(api, 'list-paging');
      const ids: number[] = [];
      for (let index = 0; index < 23; index++) {
        ids.push(await ctas.create({ name: `page-${index}` }));
      }
      const newestFirst = [...ids].reverse();
      const first = await ctas.list();
      expect(first.status).toBe(200);
      expect(first.body.data).toMatchObject({ totalEntries: 23, totalPages: 3, pageNumber: 0, pageSize: 10 });
      expect(first.body.data.ctas.map((cta: { id: number }) => cta.id)).toEqual(newestFirst.slice(0, 10));
      expect(first.body.data.ctas[0]).toEqual(await ctas.get(newestFirst[0]));
      const last = await ctas.list('?pageNumber=2&pageSize=10');
      expect(last.body.data.ctas.map((cta: { id: number }) => cta.id)).toEqual(newestFirst.slice(20));
      const past = await ctas.list('?pageNumber=7');
      expect(past.body.data).toMatchObject({ ctas: [], totalEntries: 23, totalPages: 3, pageNumber: 7 });
      const big = await ctas.list('?pageSize=100');
      expect(big.body.data).toMatchObject({ totalPages: 1, pageSize: 100 });
      expect(big.body.data.ctas).toHaveLength(23);
      const one = await ctas.list('?pageSize=1&pageNumber=22');
      expect(one.body.data.ctas.map((cta: { id: number }) => cta.id)).toEqual([ids[0]]);
    });

    it.each([
      'pageSize=0',
      'pageSize=101',
      'pageSize=abc',
      'pageSize=5.0',
      'pageSize=%2B5',
      'pageSize=-1',
      'pageSize=',
      'pageSize=5&pageSize=6',
      'pageNumber=-1',
      'pageNumber=x',
      'pageNumber=1e2',
      'pageNumber=1234567890123456',
      'teams=a&teams=b',
    ])('rejects %s with INVALID_REQUEST', async (query) => {
      const res = await api.get(`/engine/ctas/?${query}`);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(errorBody('INVALID_REQUEST'));
    });

    it('rejects an unknown status with CTA_STATUS_INVALID', async () => {
      for (const status of ['running', 'draft,live']) {
        const res = await api.get(`/engine/ctas/?status=${status}`);
        expect(res.status).toBe(400);
        expect(res.body).toEqual(errorBody('CTA_STATUS_INVALID'));
      }
    });

    describe('filters', () => {
      const tenant = 'list-filters';
      const ctas = () => new AdminClient(api, tenant);
      const by = (user: string) => new AdminClient(api, tenant, user);
      const idsOf = async (query: string): Promise<number[]> => {
        const res = await ctas().list(query);
        expect(res.status).toBe(200);
        return res.body.data.ctas.map((cta: { id: number }) => cta.id).sort((a: number, b: number) => a - b);
      };
      let ids: Record<string, number>;

      beforeAll(async () => {
        ids = {
          spring: await by('ana@example.com').create({ name: 'Spring_Sale 50%', team: 'growth', tags: ['seasonal', 'store'] }),
          springLive: await by('ana@example.com').create({ name: 'spring-sale-live', team: 'growth', tags: ['seasonal'] }),
          winter: await by('bo@example.com').create({ name: 'WinterSale', team: 'store', tags: ['store'] }),
          onboarding: await by('bo@example.com').create({ name: 'onboarding\\tips', team: 'onboarding', tags: [] }),
          retention: await by('cy@example.com').create({ name: 'springXsale', team: 'retention', tags: ['loyalty'] }),
        };
        await ctas().status(ids.springLive, 'live');
        await ctas().status(ids.winter, 'live');
        await ctas().status(ids.winter, 'pause');
        await ctas().status(ids.retention, 'terminate');
        await linkToTag(tenant, 'seasonal-nudges', [ids.spring, ids.springLive]);
        await new AdminClient(api, 'list-filters-other').create({ name: 'Spring_Sale 50%', team: 'growth', tags: ['seasonal'] });
      });

      it('name matches exactly', async () => {
        expect(await idsOf('?name=WinterSale')).toEqual([ids.winter]);
        expect(await idsOf('?name=wintersale')).toEqual([]);
        expect(await idsOf(`?name=${encodeURIComponent('Spring_Sale 50%')}`)).toEqual([ids.spring]);
      });

      it('searchName matches a case-insensitive literal substring', async () => {
        expect(await idsOf('?searchName=SPRING')).toEqual([ids.spring, ids.springLive, ids.retention]);
        expect(await idsOf('?searchName=g_s')).toEqual([ids.spring]);
        expect(await idsOf('?searchName=50%25')).toEqual([ids.spring]);
        expect(await idsOf('?searchName=%25')).toEqual([ids.spring]);
        expect(await idsOf('?searchName=_')).toEqual([ids.spring]);
        expect(await idsOf(`?searchName=${encodeURIComponent('g\\t')}`)).toEqual([ids.onboarding]);
        expect(await idsOf('?searchName=!')).toEqual([]);
      });

      it('teams and tags match any of their comma-separated values', async () => {
        expect(await idsOf('?teams=growth')).toEqual([ids.spring, ids.springLive]);
        expect(await idsOf('?teams=store,retention,nobody')).toEqual([ids.winter, ids.retention]);
        expect(await idsOf('?tags=store')).toEqual([ids.spring, ids.winter]);
        expect(await idsOf('?tags=loyalty,seasonal')).toEqual([ids.spring, ids.springLive, ids.retention]);
        expect(await idsOf('?tags=,')).toHaveLength(5);
        expect(await idsOf('?teams=store,%20retention%20')).toEqual([ids.winter, ids.retention]);
      });

      it('status, behaviourTag and createdBy filter exactly; unknown values give an empty list', async () => {
        expect(await idsOf('?status=live')).toEqual([ids.springLive]);
        expect(await idsOf('?status=paused')).toEqual([ids.winter]);
        expect(await idsOf('?status=scheduled')).toEqual([]);
        expect(await idsOf('?behaviourTag=seasonal-nudges')).toEqual([ids.spring, ids.springLive]);
        expect(await idsOf('?behaviourTag=nope')).toEqual([]);
        expect(await idsOf('?createdBy=bo@example.com')).toEqual([ids.winter, ids.onboarding]);
        expect(await idsOf('?createdBy=BO@example.com')).toEqual([]);
      });

      it('combines filters with AND and ignores empty values', async () => {
        expect(await idsOf('?teams=growth,store&tags=store&createdBy=ana@example.com')).toEqual([ids.spring]);
        expect(await idsOf('?searchName=sale&status=draft')).toEqual([ids.spring]);
        expect(await idsOf('?name=&searchName=&teams=&tags=&status=&behaviourTag=&createdBy=')).toHaveLength(5);
      });

      it('counts every status over every filter except status', async () => {
        const res = await ctas().list('?searchName=sale&status=live&pageSize=1');
        expect(res.body.data).toMatchObject({
          totalEntries: 1,
          totalPages: 1,
          statusWiseCount: { draft: 1, paused: 1, live: 1, scheduled: 0, concluded: 0, terminated: 1 },
        });
        const all = await ctas().list();
        expect(all.body.data.statusWiseCount).toEqual({ draft: 2, paused: 1, live: 1, scheduled: 0, concluded: 0, terminated: 1 });
        expect(all.body.data.totalEntries).toBe(5);
        const none = await ctas().list('?teams=nobody');
        expect(none.body.data).toEqual({
          ctas: [],
          totalEntries: 0,
          totalPages: 0,
          pageNumber: 0,
          pageSize: 10,
          statusWiseCount: { draft: 0, paused: 0, live: 0, scheduled: 0, concluded: 0, terminated: 0 },
        });
      });

      it('GET /engine/filters/ answers sorted unique values of the tenant only', async () => {
        const res = await api.get('/engine/filters/', { 'x-tenant-id': tenant });
        expect(res.status).toBe(200);
        expect(res.body).toEqual({
          data: {
            names: ['Spring_Sale 50%', 'WinterSale', 'onboarding\\tips', 'spring-sale-live', 'springXsale'],
            teams: ['growth', 'onboarding', 'retention', 'store'],
            tags: ['loyalty', 'seasonal', 'store'],
            createdBy: ['ana@example.com', 'bo@example.com', 'cy@example.com'],
          },
        });
        const empty = await api.get('/engine/filters', { 'x-tenant-id': 'filters-nobody' });
        expect(empty.body).toEqual({ data: { names: [], teams: [], tags: [], createdBy: [] } });
        expect((await api.get('/engine/filters/', { 'x-tenant-id': 'bad tenant!' })).body).toEqual(errorBody('INVALID_REQUEST'));
      });
    });
  });
});
