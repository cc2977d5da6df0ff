import { AdminClient } from './admin-client';
import { ctaBody, examples, sdkHeaders, tagBody } from './fixtures';
import { eachDatabase, errorBody, TestApp } from './harness';

/**
 * Rule values as the real admin panel sends them, and what devices need of actions: filter values
 * as strings (numbers as numeric strings or "", booleans as "true"/"false"/"" — stored as the JSON
 * boolean meant, since devices read `Boolean("false")` as true), frequency windows in weeks (stored
 * as days) or months (refused), and the templates devices render or emit. Create, update, test create and validate agree on each.
 */

const LAUNCH = '/cta/active/state-machines/';
const FILTER = 'rule.stateTransition.store_opened.0[0].filters.filter[0]';

/** The example rule whose first condition compares `isMember`/`cartValue` (by `propertyType`) with `comparisonValue`. */
const filterRule = (propertyType: 'number' | 'boolean', comparisonValue: unknown): Record<string, any> => {
  const rule = examples.rule();
  rule.stateTransition.store_opened['0'][0].filters.filter = [
    { propertyName: propertyType === 'number' ? 'cartValue' : 'isMember', propertyType, comparisonType: '=', comparisonValue },
  ];
  return rule;
};

/** The example rule with its first action (a NUDGE_UI) changed. */
const actionRule = (action: Record<string, unknown>): Record<string, any> => {
  const rule = examples.rule();
  rule.actions[0] = { actionId: 'store_banner', ...action };
  return rule;
};

eachDatabase('rule values as the real admin panel sends them', (database) => {
  let api: TestApp;
  let tenants = 0;
  const admin = () => new AdminClient(api, `panel-values-${++tenants}`);

  beforeAll(async () => {
    api = await TestApp.start(database);
  });
  afterAll(() => api.close());

  /** What each write answers for a rule: create, update of a draft, test create and validate. */
  const everyWrite = async (client: AdminClient, rule: unknown) => {
    const draft = await client.create();
    const { name: _name, ...update } = ctaBody({ rule });
    return {
      create: (await api.post('/engine/ctas', ctaBody({ rule }), client.headers())).body,
      update: (await api.put(`/engine/ctas/${draft}`, update, client.headers())).body,
      testCreate: (await api.post('/engine/ctas/test/create', { userIds: [42], expiresInMinutes: 5, rule }, client.headers())).body,
      validate: (await api.post('/engine/ctas/validate', ctaBody({ rule }), client.headers())).body.data,
    };
  };

  /** Every write refusing the rule with the same message (validate listing it as the one error). */
  const refusedEverywhere = (path: string, message: string) => ({
    create: errorBody('INVALID_REQUEST', `${path}: ${message}`),
    update: errorBody('INVALID_REQUEST', `${path}: ${message}`),
    testCreate: errorBody('CTA_CREATION_ERROR', `${path}: ${message}`),
    validate: expect.objectContaining({ valid: false, errors: [{ path, message }] }),
  });

  describe('filter values', () => {
    it.each<[string, unknown]>([
      ['a JSON number', 500],
      ['a numeric string', '500'],
      ['"" (a saved 0, reopened)', ''],
    ])('a number compared with %s is stored as sent', async (_case, value) => {
      const client = admin();
      const id = await client.create({ rule: filterRule('number', value) });
      expect((await client.get(id)).rule.stateTransition.store_opened['0'][0].filters?.filter[0].comparisonValue).toBe(value);
      const validation = (await api.post('/engine/ctas/validate', ctaBody({ rule: filterRule('number', value) }), client.headers())).body
        .data;
      expect(validation.valid).toBe(true);
      expect(validation.warnings.filter((warning: any) => warning.path.startsWith(FILTER))).toEqual([]);
    });

    it.each<[unknown, boolean]>([
      [true, true],
      [false, false],
      ['true', true],
      ['TRUE', true],
      ['false', false],
      ['False', false],
      ['', false],
    ])('a boolean compared with %p is stored and served as %p, on create, update and test create', async (value, meant) => {
      const client = admin();
      const rule = filterRule('boolean', value);
      const valueOf = (stored: any) => stored.stateTransition.store_opened['0'][0].filters.filter[0].comparisonValue;
      const id = await client.create({ rule });
      expect(valueOf((await client.get(id)).rule)).toBe(meant);
      await client.edit(id, { rule });
      expect(valueOf((await client.get(id)).rule)).toBe(meant);
      await client.move(id, 'live');
      const testId = await client.testCta([42], 5, rule);
      const served = (await api.post(LAUNCH, {}, sdkHeaders(client.tenantId, '42'))).body.data.ctas;
      expect(served.map((cta: any) => [cta.ctaId, valueOf(cta.rule)]).sort()).toEqual(
        [String(id), testId].sort().map((ctaId) => [ctaId, meant]),
      );
    });

    it('validate warns when it will store a boolean otherwise than sent', async () => {
      const client = admin();
      const warningsFor = async (value: unknown) =>
        (
          await api.post('/engine/ctas/validate', ctaBody({ rule: filterRule('boolean', value) }), client.headers())
        ).body.data.warnings.filter((warning: any) => warning.path.startsWith(FILTER));
      expect(await warningsFor('false')).toEqual([
        {
          path: `${FILTER}.comparisonValue`,
          message: '"false" is stored as the JSON boolean false; kept as a string it would read as true on devices (Boolean("false"))',
        },
      ]);
      expect(await warningsFor('')).toEqual([{ path: `${FILTER}.comparisonValue`, message: '"" is stored as the JSON boolean false' }]);
      expect(await warningsFor('TRUE')).toEqual([
        { path: `${FILTER}.comparisonValue`, message: '"TRUE" is stored as the JSON boolean true' },
      ]);
      expect(await warningsFor(true)).toEqual([]);
    });

    it.each<[string, 'number' | 'boolean', unknown, string]>([
      [
        '"0" for a boolean',
        'boolean',
        '0',
        '"0" would read as true on devices (Boolean("0")); send true or false for propertyType boolean',
      ],
      [
        '"yes" for a boolean',
        'boolean',
        'yes',
        '"yes" would read as true on devices (Boolean("yes")); send true or false for propertyType boolean',
      ],
      ['1 for a boolean', 'boolean', 1, '1 would read as true on devices (Boolean(1)); send true or false for propertyType boolean'],
      [
        'null for a boolean',
        'boolean',
        null,
        'null would read as false on devices (Boolean(null)); send true or false for propertyType boolean',
      ],
      [
        'a word for a number',
        'number',
        'lots',
        'must be a number or a numeric string for propertyType number, not "lots", which would read as NaN on devices (Number("lots"))',
      ],
      [
        'a boolean for a number',
        'number',
        true,
        'must be a number or a numeric string for propertyType number, not true, which would read as 1 on devices (Number(true))',
      ],
    ])('refuses %s everywhere, saying what devices would read', async (_case, type, value, message) => {
      const client = admin();
      expect(await everyWrite(client, filterRule(type, value))).toEqual(refusedEverywhere(`${FILTER}.comparisonValue`, message));
    });
  });

  describe('frequency windows as the panel offers them', () => {
    const windowRule = (unit: string, value: number): Record<string, any> => {
      const rule = examples.rule();
      rule.frequency.window = { limit: 3, unit, value };
      return rule;
    };

    it('weeks are stored and served as days × 7 on create, update and test create; validate warns', async () => {
      const client = admin();
      const days = { limit: 3, unit: 'days', value: 14 };
      const id = await client.create({ rule: windowRule('weeks', 2) });
      expect((await client.get(id)).rule.frequency.window).toEqual(days);
      await client.edit(id, { rule: windowRule('weeks', 2) });
      expect((await client.get(id)).rule.frequency.window).toEqual(days);
      await client.move(id, 'live');
      const testId = await client.testCta([42], 5, windowRule('weeks', 2));
      const served = (await api.post(LAUNCH, {}, sdkHeaders(client.tenantId, '42'))).body.data.ctas;
      expect(served.map((cta: any) => [cta.ctaId, cta.rule.frequency.window]).sort()).toEqual(
        [String(id), testId].sort().map((ctaId) => [ctaId, days]),
      );
      const validation = (await api.post('/engine/ctas/validate', ctaBody({ rule: windowRule('weeks', 2) }), client.headers())).body.data;
      expect(validation).toMatchObject({ valid: true, errors: [] });
      expect(validation.warnings.filter((warning: any) => warning.path === 'rule.frequency.window')).toEqual([
        { path: 'rule.frequency.window', message: '2 weeks are stored as 14 days (devices count in seconds, minutes, hours or days)' },
      ]);
    });

    it('months are refused everywhere, naming the field and saying why', async () => {
      expect(await everyWrite(admin(), windowRule('months', 1))).toEqual(
        refusedEverywhere(
          'rule.frequency.window.unit',
          '"months" cannot be stored: a month has no fixed length (28 to 31 days), so devices cannot count one; use days (e.g. 30)',
        ),
      );
    });

    it("a behaviour tag's exposure window takes weeks as days × 7 and refuses months", async () => {
      const client = admin();
      const inUnit = (unit: string) => {
        const body = tagBody('weekly');
        body.exposureRule.window = { limit: 1, unit: unit as 'days', value: 3 };
        return body;
      };
      expect((await client.tags.create(inUnit('weeks'))).status).toBe(200);
      const [tag] = (await client.tags.list()).body.data.behaviourTags;
      expect(tag.exposureRule.window).toEqual({ limit: 1, unit: 'days', value: 21 });
      const { behaviourTagName: _name, ...update } = inUnit('months');
      expect((await client.tags.update('weekly', update)).body).toEqual(
        errorBody(
          'CAMPAIGN_INVALID',
          'exposureRule.window.unit "months" cannot be stored: a month has no fixed length (28 to 31 days), so devices cannot count one; use days (e.g. 30)',
        ),
      );
    });
  });

  describe('action templates', () => {
    it.each<[string, Record<string, unknown>, string, string]>([
      [
        'a NUDGE_UI without a template',
        { type: 'NUDGE_UI' },
        'rule.actions[0].template',
        'is required for type NUDGE_UI: without a template the device shows nothing',
      ],
      [
        'a POPUP with a null template',
        { type: 'POPUP', template: null },
        'rule.actions[0].template',
        'is required for type POPUP: without a template the device shows nothing',
      ],
      [
        'a TOOLTIP without a template',
        { type: 'TOOLTIP' },
        'rule.actions[0].template',
        'is required for type TOOLTIP: without a template the device shows nothing',
      ],
      [
        'a NUDGE_ACTION without a template',
        { type: 'NUDGE_ACTION' },
        'rule.actions[0].template',
        'must be an object with an eventName for type NUDGE_ACTION, not nothing: without it the device throws and never sends the transition',
      ],
      [
        'a NUDGE_ACTION with a string template',
        { type: 'NUDGE_ACTION', template: 'purchase_nudge' },
        'rule.actions[0].template',
        'must be an object with an eventName for type NUDGE_ACTION, not "purchase_nudge": without it the device throws and never sends the transition',
      ],
      [
        'a NUDGE_ACTION with template {}',
        { type: 'NUDGE_ACTION', template: {} },
        'rule.actions[0].template.eventName',
        'must be a non-empty string for type NUDGE_ACTION, not nothing: it is the app event the device emits',
      ],
      [
        'a NUDGE_ACTION with an empty eventName',
        { type: 'NUDGE_ACTION', template: { eventName: '' } },
        'rule.actions[0].template.eventName',
        'must be a non-empty string for type NUDGE_ACTION, not "": it is the app event the device emits',
      ],
    ])('refuses %s everywhere, naming the path', async (_case, action, path, message) => {
      expect(await everyWrite(admin(), actionRule(action))).toEqual(refusedEverywhere(path, message));
    });

    it.each<[string, Record<string, unknown>]>([
      ['a NUDGE_ACTION with an eventName', { type: 'NUDGE_ACTION', template: { eventName: 'cart_nudge', delayMs: 5 } }],
      ['a TOOLTIP with a template', { type: 'TOOLTIP', template: { anchor: 'cart-button' } }],
      ['a NUDGE_UI with an empty template (present, not null)', { type: 'NUDGE_UI', template: '' }],
    ])('accepts %s as sent', async (_case, action) => {
      const client = admin();
      const id = await client.create({ rule: actionRule(action) });
      expect((await client.get(id)).rule.actions[0]).toEqual({ actionId: 'store_banner', ...action });
    });

    it('names every action problem of one rule at once', async () => {
      const rule = examples.rule();
      rule.actions = [
        { actionId: 'store_banner', type: 'NUDGE_UI' },
        { actionId: 'discount_popup', type: 'NUDGE_ACTION', template: {} },
      ];
      const res = await api.post('/engine/ctas', ctaBody({ rule }), admin().headers());
      expect(res.body).toEqual(
        errorBody(
          'INVALID_REQUEST',
          'rule.actions[0].template: is required for type NUDGE_UI: without a template the device shows nothing; ' +
            'rule.actions[1].template.eventName: must be a non-empty string for type NUDGE_ACTION, not nothing: it is the app event the device emits',
        ),
      );
    });
  });
});
