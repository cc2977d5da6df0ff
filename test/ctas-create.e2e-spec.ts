import { AdminClient } from './admin-client';
import { DAY, MINUTE } from './test-clock';
import { ctaBody, examples, ruleAsRead } from './fixtures';
import { eachDatabase, errorBody, TestApp } from './harness';

/** `POST /engine/ctas/`: creating a CTA, and every way a create is refused. */

eachDatabase('CTAs', (database) => {
  let api: TestApp;
  beforeAll(async () => {
    api = await TestApp.start(database);
  });
  afterAll(() => api.close());

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
        experiment: null,
        capExempt: false,
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
        withRule((r) => (r.frequency.window.unit = 'fortnights')),
        'rule.frequency.window.unit: must be one of days, hours, minutes, seconds, or weeks (stored as days × 7)',
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
});
