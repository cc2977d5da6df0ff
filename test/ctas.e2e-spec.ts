import { AdminClient } from './admin-client';
import { ctaBody, examples, ruleAsRead } from './fixtures';
import { BehaviourTagCtaEntity } from '../src/behaviour-tags/behaviour-tag-cta.entity';
import { TransactionRunner } from '../src/database/transaction-runner';
import { eachDatabase, errorBody, TestApp } from './harness';

const MINUTE = 60 * 1000;
const DAY = 24 * 60 * MINUTE;

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

  const totalOf = async (ctas: AdminClient): Promise<number> => (await ctas.list()).body.data.totalEntries;

  describe('POST /engine/ctas/', () => {
    it('creates a draft CTA and GET answers the full record', async () => {
      const ctas = new AdminClient(api, 'create-happy');
      const before = api.clock.now();
      const body = ctaBody({ name: 'first-purchase-reminder', tags: ['store', 'onboarding', 'store'] });
      const res = await api.post('/engine/ctas/', body, ctas.headers());
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ data: expect.any(Number) });
      const record = await ctas.get(res.body.data);
      expect(record).toEqual({
        id: res.body.data,
        name: 'first-purchase-reminder',
        description: 'e2e',
        tags: ['onboarding', 'store'],
        team: 'growth',
        behaviourTags: [],
        startTime: null,
        endTime: null,
        ctaStatus: 'draft',
        rule: ruleAsRead(examples.rule()),
        createdAt: expect.any(Number),
        createdBy: 'ops@example.com',
        lastUpdatedAt: null,
        lastUpdatedBy: null,
        tenantId: 'create-happy',
      });
      expect(record.createdAt).toBeGreaterThanOrEqual(before);
    });

    it('keeps tags that differ only in case or trailing spaces apart', async () => {
      const ctas = new AdminClient(api, 'create-exact-tags');
      const id = await ctas.create({ tags: ['store', 'store ', 'Store'] });
      expect((await ctas.get(id)).tags.sort()).toEqual(['Store', 'store', 'store ']);
      expect((await ctas.list('?tags=store')).body.data.totalEntries).toBe(1);
    });

    it('answers on the path without the trailing slash and under the default tenant', async () => {
      const res = await api.post('/engine/ctas', ctaBody(), { user: 'ops@example.com' });
      expect(res.status).toBe(200);
      expect((await api.get(`/engine/ctas/${res.body.data}`)).body.data.tenantId).toBe('default');
    });

    it('keeps unknown keys at every level of the rule, accepts lifespan for lifeSpan and ignores a sent ctaValidTill', async () => {
      const ctas = new AdminClient(api, 'create-open-rule');
      const rule = examples.rule();
      rule.newTopLevel = { nested: [1, 'two'] };
      rule.cohortEligibility.source = 'crm';
      rule.stateTransition.store_opened['0'][0].delayMs = 500;
      rule.stateTransition.store_opened['0'][0].filters.caseSensitive = true;
      rule.stateTransition.store_opened['0'][0].filters.filter[0].extra = { x: 1 };
      rule.actions[0].analytics = { channel: 'push' };
      rule.frequency.cooldown = { value: 3 };
      rule.frequency.lifespan = rule.frequency.lifeSpan;
      delete rule.frequency.lifeSpan;
      rule.groupByConfig.strategy = 'latest';
      rule.ctaValidTill = 123;
      const id = await ctas.create({ rule, endTime: api.clock.now() + DAY });
      const stored = (await ctas.get(id)).rule;
      const expected = JSON.parse(JSON.stringify(rule));
      expected.frequency.lifeSpan = { limit: 5 };
      delete expected.frequency.lifespan;
      expect(stored).toEqual(ruleAsRead(expected, (await ctas.get(id)).endTime));
    });

    it('drops optional rule fields sent as null', async () => {
      const ctas = new AdminClient(api, 'create-null-optionals');
      const rule = { ...examples.rule(), resetStates: null, contextParams: null, groupByConfig: null, resetCTAonFirstLaunch: null };
      const stored = (await ctas.get(await ctas.create({ rule }))).rule;
      for (const key of ['resetStates', 'contextParams', 'groupByConfig', 'resetCTAonFirstLaunch']) {
        expect(stored).not.toHaveProperty(key);
      }
    });

    it('accepts start and end times inside [now - 2 min, now + 5 years]', async () => {
      const ctas = new AdminClient(api, 'create-times');
      const now = api.clock.now();
      const id = await ctas.create({ startTime: now - MINUTE, endTime: now + 5 * 365 * DAY - MINUTE });
      const record = await ctas.get(id);
      expect(record.startTime).toBe(now - MINUTE);
      expect(record.rule.ctaValidTill).toBe(now + 5 * 365 * DAY - MINUTE);
    });

    it('rejects a taken name with CTA_DUPLICATE_NAME, comparing names exactly', async () => {
      const ctas = new AdminClient(api, 'create-duplicate');
      await ctas.create({ name: 'Promo' });
      const res = await api.post('/engine/ctas/', ctaBody({ name: 'Promo' }), ctas.headers());
      expect(res.status).toBe(400);
      expect(res.body).toEqual(errorBody('CTA_DUPLICATE_NAME', "a CTA named 'Promo' already exists"));
      await ctas.create({ name: 'promo' });
      await ctas.create({ name: 'PROMO' });
      await ctas.create({ name: 'Promo ' });
      await new AdminClient(api, 'create-duplicate-other').create({ name: 'Promo' });
      expect(await totalOf(ctas)).toBe(4);
    });

    it('lets exactly one of 12 concurrent creates of the same name win', async () => {
      const ctas = new AdminClient(api, 'create-race');
      const results = await Promise.all(
        Array.from({ length: 12 }, () => api.post('/engine/ctas/', ctaBody({ name: 'same' }), ctas.headers())),
      );
      expect(results.filter((res) => res.status === 200)).toHaveLength(1);
      expect(results.filter((res) => res.status === 400 && res.body.error.code === 'CTA_DUPLICATE_NAME')).toHaveLength(11);
      expect(await totalOf(ctas)).toBe(1);
    });

    it('creates 40 differently named CTAs of one tenant at once, every one answered 200', async () => {
      // Concurrent writes of a tenant all bump its catalogue revision row: they must queue, not deadlock.
      const ctas = new AdminClient(api, 'create-burst');
      const results = await Promise.all(
        Array.from({ length: 40 }, (_, index) => api.post('/engine/ctas/', ctaBody({ name: `burst-${index}` }), ctas.headers())),
      );
      expect(results.map((res) => res.status)).toEqual(Array(40).fill(200));
      expect(await totalOf(ctas)).toBe(40);
    });

    it('requires the user header', async () => {
      const tenant = { 'x-tenant-id': 'create-no-user' };
      for (const headers of [tenant, { ...tenant, user: '   ' }, { ...tenant, user: 'x'.repeat(256) }]) {
        const res = await api.post('/engine/ctas/', ctaBody(), headers);
        expect(res.status).toBe(400);
        expect(res.body).toEqual(errorBody('INVALID_REQUEST'));
      }
      expect(await totalOf(new AdminClient(api, 'create-no-user'))).toBe(0);
    });

    const rule = examples.rule;
    const withRule = (change: (r: Record<string, any>) => void) => {
      const r = rule();
      change(r);
      return { rule: r };
    };
    const invalidBodies: [string, Record<string, unknown>, string][] = [
      ['name missing', { name: undefined }, 'name'],
      ['name empty', { name: '' }, 'name'],
      ['name too long', { name: 'n'.repeat(256) }, 'name'],
      ['name a number', { name: 5 }, 'name'],
      ['team missing', { team: undefined }, 'team'],
      ['team empty', { team: '' }, 'team'],
      ['tags missing', { tags: undefined }, 'tags'],
      ['tags not an array', { tags: 'store' }, 'tags'],
      ['a tag empty', { tags: ['ok', ''] }, 'tags'],
      ['a tag not a string', { tags: [1] }, 'tags'],
      ['description a number', { description: 5 }, 'description'],
      ['startTime a string', { startTime: String(Date.now()) }, 'startTime'],
      ['startTime fractional', { startTime: Date.now() + 0.5 }, 'startTime'],
      ['startTime too far back', { startTime: Date.now() - 3 * MINUTE }, 'startTime must lie between'],
      ['endTime past the horizon', { endTime: Date.now() + 5 * 365 * DAY + DAY }, 'endTime must lie between'],
      ['endTime before startTime', { startTime: Date.now() + DAY, endTime: Date.now() + MINUTE }, 'endTime'],
      ['endTime equal to startTime', { startTime: Date.now() + DAY, endTime: Date.now() + DAY }, 'endTime'],
      ['rule missing', { rule: undefined }, 'rule'],
      ['rule an array', { rule: [] }, 'rule'],
      [
        'includes empty',
        withRule((r) => (r.cohortEligibility.includes = [])),
        'rule.cohortEligibility.includes: must be a non-empty array of strings',
      ],
      [
        'excludes missing',
        withRule((r) => delete r.cohortEligibility.excludes),
        'rule.cohortEligibility.excludes: must be an array of strings',
      ],
      ['cohortEligibility missing', withRule((r) => delete r.cohortEligibility), 'rule.cohortEligibility: must be an object'],
      ['stateToAction empty', withRule((r) => (r.stateToAction = {})), 'rule.stateToAction: must be a non-empty map'],
      ['stateToAction value a number', withRule((r) => (r.stateToAction['1'] = 3)), 'rule.stateToAction.1: must be an actionId (a string)'],
      ['stateTransition missing', withRule((r) => delete r.stateTransition), 'rule.stateTransition: must be an object'],
      [
        'stateTransition level 2 not a map',
        withRule((r) => (r.stateTransition.store_opened = [])),
        'rule.stateTransition.store_opened: must be an object',
      ],
      [
        'conditions not an array',
        withRule((r) => (r.stateTransition.store_opened['0'] = {})),
        'rule.stateTransition.store_opened.0: must be an array',
      ],
      [
        'transitionTo missing',
        withRule((r) => delete r.stateTransition.store_opened['0'][0].transitionTo),
        'rule.stateTransition.store_opened.0[0].transitionTo: nothing is not a state',
      ],
      [
        'filters.operator missing',
        withRule((r) => delete r.stateTransition.purchase_completed['2'][0].filters.operator),
        'rule.stateTransition.purchase_completed.2[0].filters.operator: nothing is not one of AND, OR (exact case)',
      ],
      [
        'filters.filter not an array',
        withRule((r) => (r.stateTransition.store_opened['1'][0].filters.filter = {})),
        'rule.stateTransition.store_opened.1[0].filters.filter: must be an array of filter groups and comparisons',
      ],
      ['priority a string', withRule((r) => (r.priority = '5')), 'rule.priority: must be an integer'],
      ['priority fractional', withRule((r) => (r.priority = 1.5)), 'rule.priority: must be an integer'],
      ['stateMachineTTL zero', withRule((r) => (r.stateMachineTTL = 0)), 'rule.stateMachineTTL: must be a positive integer'],
      ['actions not an array', withRule((r) => (r.actions = {})), 'rule.actions: must be an array of actions'],
      ['an action not an object', withRule((r) => r.actions.push('x')), 'rule.actions[2]: must be an object'],
      ['frequency missing', withRule((r) => delete r.frequency), 'rule.frequency: must be an object'],
      [
        'session.limit negative',
        withRule((r) => (r.frequency.session.limit = -1)),
        'rule.frequency.session.limit: must be a non-negative integer',
      ],
      [
        'window.unit unknown',
        withRule((r) => (r.frequency.window.unit = 'weeks')),
        'rule.frequency.window.unit: must be one of days, hours, minutes, seconds',
      ],
      [
        'window.value a string',
        withRule((r) => (r.frequency.window.value = '7')),
        'rule.frequency.window.value: must be a non-negative integer',
      ],
      ['lifeSpan missing', withRule((r) => delete r.frequency.lifeSpan), 'rule.frequency.lifeSpan: must be an object'],
      ['resetStates not strings', withRule((r) => (r.resetStates = [3])), 'rule.resetStates[0]: 3 is not a state'],
      [
        'resetCTAonFirstLaunch a string',
        withRule((r) => (r.resetCTAonFirstLaunch = 'true')),
        'rule.resetCTAonFirstLaunch: must be a boolean',
      ],
      ['contextParams a string', withRule((r) => (r.contextParams = 'storeId')), 'rule.contextParams: must be an array of strings'],
      [
        'maxActiveStateMachineCount zero',
        withRule((r) => (r.groupByConfig.maxActiveStateMachineCount = 0)),
        'rule.groupByConfig.maxActiveStateMachineCount: must be a positive integer',
      ],
      [
        'groupByKeys not strings',
        withRule((r) => (r.groupByConfig.groupByKeys = [{}])),
        'rule.groupByConfig.groupByKeys: must be an array of strings',
      ],
    ];
    it.each(invalidBodies)('rejects %s with INVALID_REQUEST naming the field, writing nothing', async (_case, fields, message) => {
      const ctas = new AdminClient(api, 'create-invalid');
      const res = await api.post('/engine/ctas/', ctaBody(fields), ctas.headers());
      expect(res.status).toBe(400);
      expect(res.body).toEqual(errorBody('INVALID_REQUEST', expect.stringContaining(message)));
      expect(await totalOf(ctas)).toBe(0);
    });

    it('rejects malformed JSON and a missing body with INVALID_REQUEST', async () => {
      const headers = { 'x-tenant-id': 'create-malformed', user: 'ops@example.com' };
      const malformed = await api.request('POST', '/engine/ctas/', { body: '{"name": ', headers });
      expect(malformed.status).toBe(400);
      expect(malformed.body).toEqual(errorBody('INVALID_REQUEST'));
      const empty = await api.post('/engine/ctas/', undefined, headers);
      expect(empty.status).toBe(400);
      expect(empty.body).toEqual(errorBody('INVALID_REQUEST'));
      const array = await api.post('/engine/ctas/', [ctaBody()], headers);
      expect(array.status).toBe(400);
      expect(array.body).toEqual(errorBody('INVALID_REQUEST'));
    });
  });

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

  describe('PUT /engine/ctas/{id}', () => {
    it('replaces tags, team and rule; omitted description and times keep their value, null clears them', async () => {
      const ctas = new AdminClient(api, 'update-happy');
      const now = api.clock.now();
      const id = await ctas.create({ description: 'first', startTime: now + DAY, endTime: now + 2 * DAY });
      const rule = { ...examples.rule(), priority: 9 };
      const res = await api.put(
        `/engine/ctas/${id}`,
        { tags: ['new'], team: 'retention', rule },
        { 'x-tenant-id': 'update-happy', user: 'editor@example.com' },
      );
      expect(res.status).toBe(200);
      expect(res.body).toEqual({});
      const updated = await ctas.get(id);
      expect(updated).toMatchObject({
        name: expect.stringMatching(/^cta-/),
        description: 'first',
        tags: ['new'],
        team: 'retention',
        startTime: now + DAY,
        endTime: now + 2 * DAY,
        rule: { ...rule, ctaValidTill: now + 2 * DAY },
        createdBy: 'ops@example.com',
        lastUpdatedBy: 'editor@example.com',
      });
      expect(updated.lastUpdatedAt).toBeGreaterThanOrEqual(now);
      expect(
        (
          await api.put(
            `/engine/ctas/${id}`,
            { tags: [], team: 't', rule, description: null, startTime: null, endTime: null },
            ctas.headers(),
          )
        ).status,
      ).toBe(200);
      expect(await ctas.get(id)).toMatchObject({
        description: null,
        startTime: null,
        endTime: null,
        tags: [],
        rule: { ctaValidTill: null },
      });
    });

    it('checks endTime against the kept startTime', async () => {
      const ctas = new AdminClient(api, 'update-times');
      const now = api.clock.now();
      const id = await ctas.create({ startTime: now + DAY });
      const { name: _name, startTime: _start, ...body } = ctaBody({ endTime: now + MINUTE });
      const res = await api.put(`/engine/ctas/${id}`, body, ctas.headers());
      expect(res.status).toBe(400);
      expect(res.body).toEqual(errorBody('INVALID_REQUEST', expect.stringContaining('endTime')));
      expect((await ctas.get(id)).endTime).toBeNull();
    });

    it('rejects a name in the body with INVALID_REQUEST', async () => {
      const ctas = new AdminClient(api, 'update-name');
      const id = await ctas.create({ name: 'fixed' });
      for (const name of ['renamed', null, 'fixed']) {
        const res = await api.put(`/engine/ctas/${id}`, { ...ctaBody(), name }, ctas.headers());
        expect(res.status).toBe(400);
        expect(res.body).toEqual(errorBody('INVALID_REQUEST', 'name cannot be changed on update'));
      }
      expect((await ctas.get(id)).name).toBe('fixed');
    });

    it('is allowed in draft and paused; live and scheduled CTAs refuse a cleared startTime (test/live-edits), final ones any edit', async () => {
      const ctas = new AdminClient(api, 'update-status');
      const paused = await ctas.create();
      await ctas.status(paused, 'live');
      await ctas.status(paused, 'pause');
      expect((await ctas.update(paused, { team: 'edited' })).status).toBe(200);
      expect((await ctas.get(paused)).team).toBe('edited');
      const scheduled = await ctas.create({ startTime: api.clock.now() + DAY });
      await ctas.status(scheduled, 'schedule');
      const live = await ctas.create();
      await ctas.status(live, 'live');
      const concluded = await ctas.create();
      await ctas.status(concluded, 'live');
      await ctas.status(concluded, 'conclude');
      const terminated = await ctas.create();
      await ctas.status(terminated, 'terminate');
      for (const [id, status] of [
        [scheduled, 'scheduled'],
        [live, 'live'],
        [concluded, 'concluded'],
        [terminated, 'terminated'],
      ] as const) {
        const res = await ctas.update(id, { team: 'edited' });
        expect(res.status).toBe(400);
        expect(res.body).toEqual(errorBody('CTA_STATUS_UPDATE_INVALID', expect.stringContaining(`CTA ${id} is ${status}`)));
        expect((await ctas.get(id)).team).toBe('growth');
      }
    });

    it('answers CTA_ID_INVALID for unknown, malformed and other tenants’ ids', async () => {
      const owner = new AdminClient(api, 'update-owner');
      const id = await owner.create();
      const intruder = new AdminClient(api, 'update-intruder');
      expect((await intruder.update(id, { team: 'stolen' })).body).toEqual(errorBody('CTA_ID_INVALID'));
      expect((await owner.update(99999999)).body).toEqual(errorBody('CTA_ID_INVALID'));
      const { name: _name, ...body } = ctaBody();
      expect((await api.put('/engine/ctas/abc', body, owner.headers())).body).toEqual(errorBody('CTA_ID_INVALID'));
      expect((await owner.get(id)).team).toBe('growth');
    });

    it('validates the whole body first and writes nothing on a 400', async () => {
      const ctas = new AdminClient(api, 'update-invalid');
      const id = await ctas.create();
      const bad = await ctas.update(id, { team: 'changed', rule: { ...examples.rule(), priority: 'high' } });
      expect(bad.body).toEqual(errorBody('INVALID_REQUEST', 'rule.priority: must be an integer'));
      const noUser = await api.put(
        `/engine/ctas/${id}`,
        { tags: [], team: 'changed', rule: examples.rule() },
        { 'x-tenant-id': 'update-invalid' },
      );
      expect(noUser.body).toEqual(errorBody('INVALID_REQUEST', "header 'user' is required"));
      const pastStart = await ctas.update(id, { team: 'changed', startTime: api.clock.now() - 10 * MINUTE });
      expect(pastStart.body).toEqual(errorBody('INVALID_REQUEST', expect.stringContaining('startTime')));
      expect(await ctas.get(id)).toMatchObject({ team: 'growth', lastUpdatedAt: null });
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
