import { ctaBody } from './fixtures';
import { eachDatabase, errorBody, TestApp } from './harness';
import { FIRST, grammarSuite, leaf, SEVERAL, SEVERAL_MESSAGE, withRule } from './rule-grammar';

/** `POST /engine/ctas/validate`: what create would refuse, and the warnings of a rule it accepts. */

const VALIDATE = '/engine/ctas/validate';

/** Event definitions matching the example rule (what an operator registers first). */
const EXAMPLE_EVENTS = [
  {
    eventName: 'store_opened',
    properties: [
      { propertyName: 'source', type: 'String', isMandatory: true },
      { propertyName: 'cartValue', type: 'Double', isMandatory: false },
      { propertyName: 'storeId', type: 'string', isMandatory: true },
    ],
  },
  { eventName: 'purchase_completed', properties: [{ propertyName: 'orderId', type: 'String', isMandatory: true }] },
];

eachDatabase('rule grammar (docs/decisions/0003-device-rule-grammar.md, docs/decisions/0004-behaviour-tags.md)', (database) => {
  let api: TestApp;
  const { tenant, ctaCount } = grammarSuite(() => api);

  beforeAll(async () => {
    api = await TestApp.start(database);
  });
  afterAll(() => api.close());

  describe('POST /engine/ctas/validate', () => {
    const validate = (tenantId: string, body: unknown) => api.post(VALIDATE, body, { 'x-tenant-id': tenantId });
    const defineEvents = async (tenantId: string, events: unknown[] = EXAMPLE_EVENTS) =>
      expect((await api.post('/engine/events', { events }, { 'x-tenant-id': tenantId })).status).toBe(200);

    it('answers the example valid with no warnings once its events are defined, and writes nothing', async () => {
      const ctas = tenant('validate-ok');
      await defineEvents(ctas.tenantId);
      const { name: _name, ...body } = ctaBody({ rule: withRule((r) => (r.cohortEligibility.excludes = [])) });
      const res = await validate(ctas.tenantId, body);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ data: { valid: true, errors: [], warnings: [] } });
      expect(await ctaCount(ctas.tenantId)).toBe(0);
    });

    it('answers the errors create would give: fields, every rule problem, times, a taken name', async () => {
      const ctas = tenant('validate-errors');
      await defineEvents(ctas.tenantId);
      const taken = ctaBody();
      await ctas.create({ name: taken.name });
      const res = await validate(ctas.tenantId, {
        ...ctaBody({ rule: SEVERAL }),
        name: taken.name,
        team: '',
        startTime: api.clock.now() - 3_600_000,
      });
      expect(res.status).toBe(200);
      expect(res.body.data.valid).toBe(false);
      expect(res.body.data.errors).toEqual([
        { path: 'team', message: expect.any(String) },
        ...SEVERAL_MESSAGE.split('; ').map((problem) => {
          const [path, message] = problem.split(/: (.*)/s);
          return { path, message };
        }),
        { path: 'startTime', message: expect.stringMatching(/^must lie between/) },
        { path: 'name', message: `a CTA named '${taken.name}' already exists` },
      ]);
      expect(await ctaCount(ctas.tenantId)).toBe(1);
    });

    it('warns about an event the tenant never defined', async () => {
      const ctas = tenant('validate-event');
      const rule = withRule((r) => (r.cohortEligibility.excludes = []));
      const res = await validate(ctas.tenantId, { ...ctaBody({ rule }), name: undefined });
      expect(res.body.data).toEqual({
        valid: true,
        errors: [],
        warnings: [
          { path: 'rule.stateTransition.store_opened', message: `event "store_opened" is not in the tenant's event definitions` },
          {
            path: 'rule.stateTransition.purchase_completed',
            message: `event "purchase_completed" is not in the tenant's event definitions`,
          },
          { path: 'rule.groupByConfig.groupByKeys[0]', message: '"storeId" is not a property of any event of rule.stateTransition' },
          { path: 'rule.contextParams[0]', message: '"storeId" is not a property of any event of rule.stateTransition' },
        ],
      });
    });

    it('warns about undefined properties and type mismatches; the device adds app_name, platform and app_version', async () => {
      const ctas = tenant('validate-props');
      await defineEvents(ctas.tenantId, [
        {
          eventName: 'store_opened',
          properties: [
            { propertyName: 'source', type: 'Integer', isMandatory: true },
            { propertyName: 'storeId', type: 'String', isMandatory: true },
          ],
        },
        EXAMPLE_EVENTS[1],
      ]);
      const rule = withRule((r) => {
        r.cohortEligibility.excludes = [];
        r.stateTransition.store_opened['0'][0].filters.filter.push(leaf({ propertyName: 'platform', comparisonValue: 'android' }));
        r.stateTransition.store_opened['1'][0].filters = {
          operator: 'OR',
          filter: [{ operator: 'AND', filter: [leaf({ propertyName: 'isMember', propertyType: 'boolean', comparisonValue: true })] }],
        };
      });
      const res = await validate(ctas.tenantId, { ...ctaBody({ rule }), name: undefined });
      expect(res.body.data).toEqual({
        valid: true,
        errors: [],
        warnings: [
          {
            path: `${FIRST}.filters.filter[0].propertyType`,
            message: '"string" does not match the type "Integer" of property "source" of event "store_opened" (use number)',
          },
          { path: `${FIRST}.filters.filter[1].propertyName`, message: '"cartValue" is not a property of event "store_opened"' },
          {
            path: 'rule.stateTransition.store_opened.1[0].filters.filter[0].filter[0].propertyName',
            message: '"isMember" is not a property of event "store_opened"',
          },
        ],
      });
    });

    it('warns about unreachable states, unknown cohorts, and groupByKeys/contextParams no event carries', async () => {
      const ctas = tenant('validate-rest');
      await defineEvents(ctas.tenantId);
      const rule = withRule((r) => {
        r.stateToAction['7'] = 'discount_popup';
        r.resetStates = ['3', '9'];
        r.cohortEligibility = { includes: ['all', 'premium'], excludes: ['churned'] };
        r.groupByConfig.groupByKeys = ['storeId', 'app_version', 'region'];
        r.contextParams = ['storeId', 'campaign'];
      });
      const res = await validate(ctas.tenantId, { ...ctaBody({ rule }), name: undefined });
      expect(res.body.data).toEqual({
        valid: true,
        errors: [],
        warnings: [
          { path: 'rule.stateToAction.7', message: 'state "7" is never reached: no transition leads to it from "0"' },
          { path: 'rule.resetStates[1]', message: 'state "9" is never reached: no transition leads to it from "0"' },
          { path: 'rule.groupByConfig.groupByKeys[2]', message: '"region" is not a property of any event of rule.stateTransition' },
          { path: 'rule.contextParams[1]', message: '"campaign" is not a property of any event of rule.stateTransition' },
          { path: 'rule.cohortEligibility.includes[1]', message: '"premium" is not a cohort of the tenant: no user is in it' },
          { path: 'rule.cohortEligibility.excludes[0]', message: '"churned" is not a cohort of the tenant: no user is in it' },
        ],
      });
    });

    it("checks the rule create would store: without keys named as Object.prototype's (constructor, toString, …)", async () => {
      const ctas = tenant('validate-prototype-names');
      await defineEvents(ctas.tenantId);
      const rule = withRule((r) => {
        r.cohortEligibility.excludes = [];
        r.stateTransition.store_opened['0'][0].filters.filter[0].constructor = 'x';
        Object.assign(r.stateTransition, { toString: { '0': 'not a list' } });
      });
      const { name: _name, ...body } = ctaBody({ rule });
      expect((await validate(ctas.tenantId, body)).body).toEqual({ data: { valid: true, errors: [], warnings: [] } });
      const stored = (await ctas.get(await ctas.create({ rule }))).rule as typeof rule;
      expect(Object.keys(stored.stateTransition)).toEqual(['store_opened', 'purchase_completed']);
      expect(Object.keys(stored.stateTransition.store_opened['0'][0].filters.filter[0])).not.toContain('constructor');
    });

    it("answers each example of the OpenAPI document as the document's answer examples say, on an empty tenant", async () => {
      const operation = (await api.get('/docs-json')).body.paths['/engine/ctas/validate'].post;
      const bodies = operation.requestBody.content['application/json'].examples;
      const answers = operation.responses['200'].content['application/json'].examples;
      expect(Object.keys(bodies).sort()).toEqual(Object.keys(answers).sort());
      for (const name of Object.keys(bodies)) {
        const res = await validate(`validate-docs-${name}`, bodies[name].value);
        expect({ name, body: res.body }).toEqual({ name, body: answers[name].value });
      }
    });

    it('refuses a body that is not an object, and is not taken for a CTA id', async () => {
      const res = await validate('validate-shape', [ctaBody()]);
      expect(res.body).toEqual(errorBody('INVALID_REQUEST', 'the body must be a JSON object: a CTA create body (name optional)'));
      expect((await validate('validate-shape', {})).body.data).toMatchObject({
        valid: false,
        errors: expect.arrayContaining([{ path: 'rule', message: 'must be an object' }]),
      });
      expect((await api.get(VALIDATE, { 'x-tenant-id': 'validate-shape' })).body).toEqual(errorBody('CTA_ID_INVALID'));
    });
  });
});
