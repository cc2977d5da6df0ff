import { ctaBody, examples, ruleAsRead, sdkHeaders, tagBody } from './fixtures';
import type { DataSource } from 'typeorm';
import { BehaviourTagCtaEntity } from '../src/behaviour-tags/behaviour-tag-cta.entity';
import { BehaviourTagEntity } from '../src/behaviour-tags/behaviour-tag.entity';
import { CtaEntity } from '../src/ctas/cta.entity';
import { dataSourceOf } from './database-contents';
import { eachDatabase, errorBody, TestApp } from './harness';
import { FIRST, grammarSuite, leaf, type Rule, SEVERAL, SEVERAL_MESSAGE, withRule } from './rule-grammar';

const LAUNCH = '/cta/active/state-machines/';
const STATE_FORM = 'a state: a decimal integer string such as "0" or "1" (no sign, no leading zeros)';

/** The example's first condition filtered by `filters`. */
const filtered = (filters: unknown): Rule => withRule((rule) => (rule.stateTransition.store_opened['0'][0].filters = filters));

/** Filter groups nested `depth` deep, the condition's own filters counting as 1. */
/** The rule with one number filter that computes its value with `functions`. */
const withFunctions = (functions: unknown): Rule =>
  filtered({ operator: 'AND', filter: [leaf({ propertyType: 'number', comparisonType: '>', comparisonValue: 1, functions })] });
const nested = (depth: number): Record<string, unknown> =>
  depth === 1 ? { operator: 'AND', filter: [leaf()] } : { operator: 'AND', filter: [nested(depth - 1)] };

/** Every refusal of docs/decisions/0003-device-rule-grammar.md, each with the exact message create answers. */
const REFUSALS: [string, Rule, string][] = [
  [
    'a comparison the device does not know (EQUALS)',
    withRule((r) => (r.stateTransition.store_opened['0'][0].filters.filter[0].comparisonType = 'EQUALS')),
    `${FIRST}.filters.filter[0].comparisonType: "EQUALS" is not one of =, != for propertyType string`,
  ],
  [
    'a comparison without propertyType',
    withRule((r) => delete r.stateTransition.store_opened['0'][0].filters.filter[0].propertyType),
    `${FIRST}.filters.filter[0].propertyType: nothing is not one of string, number, boolean`,
  ],
  [
    '!= on a number',
    withRule((r) => (r.stateTransition.store_opened['0'][0].filters.filter[1].comparisonType = '!=')),
    `${FIRST}.filters.filter[1].comparisonType: "!=" is not one of =, >, <, >=, <= for propertyType number (the device always fails != on numbers)`,
  ],
  [
    '> on a boolean',
    filtered({ operator: 'AND', filter: [leaf({ propertyType: 'boolean', comparisonType: '>', comparisonValue: true })] }),
    `${FIRST}.filters.filter[0].comparisonType: ">" is not one of = for propertyType boolean`,
  ],
  [
    'a boolean compared with "0"',
    filtered({ operator: 'AND', filter: [leaf({ propertyType: 'boolean', comparisonValue: '0' })] }),
    `${FIRST}.filters.filter[0].comparisonValue: "0" would read as true on devices (Boolean("0")); send true or false for propertyType boolean`,
  ],
  [
    'a number compared with a word',
    withRule((r) => (r.stateTransition.store_opened['0'][0].filters.filter[1].comparisonValue = 'many')),
    `${FIRST}.filters.filter[1].comparisonValue: must be a number or a numeric string for propertyType number, not "many", which would read as NaN on devices (Number("many"))`,
  ],
  [
    'a string compared with a number',
    withRule((r) => (r.stateTransition.store_opened['0'][0].filters.filter[0].comparisonValue = 1)),
    `${FIRST}.filters.filter[0].comparisonValue: must be a string for propertyType string, not 1`,
  ],
  [
    'an empty propertyName',
    withRule((r) => (r.stateTransition.store_opened['0'][0].filters.filter[0].propertyName = '')),
    `${FIRST}.filters.filter[0].propertyName: must be a non-empty string`,
  ],
  [
    'the operator XOR',
    withRule((r) => (r.stateTransition.store_opened['0'][0].filters.operator = 'XOR')),
    `${FIRST}.filters.operator: "XOR" is not one of AND, OR (exact case)`,
  ],
  [
    'the operator in lower case',
    withRule((r) => (r.stateTransition.store_opened['0'][0].filters.operator = 'or')),
    `${FIRST}.filters.operator: "or" is not one of AND, OR (exact case)`,
  ],
  [
    'an OR over an empty list',
    filtered({ operator: 'OR', filter: [] }),
    `${FIRST}.filters.filter: an OR over an empty list never passes on the device; add a comparison or use AND`,
  ],
  ['filter groups 6 deep', filtered(nested(6)), `${FIRST}.filters${'.filter[0]'.repeat(5)}: filter groups nest deeper than 5 levels`],
  [
    '101 comparisons in one condition',
    filtered({ operator: 'AND', filter: Array.from({ length: 101 }, () => leaf()) }),
    `${FIRST}.filters: has 101 comparisons; at most 100 per condition`,
  ],
  [
    'a functions operator *',
    withFunctions({ operator: '*', operand1: '$.currentTime', operand2: 1 }),
    `${FIRST}.filters.filter[0].functions.operator: "*" is not one of +, -`,
  ],
  [
    'a functions operand naming a property without $.',
    withFunctions({ operator: '-', operand1: '$.currentTime', operand2: 'lastSeen' }),
    `${FIRST}.filters.filter[0].functions.operand2: "lastSeen" is not an operand: a number, a numeric string, "$.<property>", "$.currentTime" or a functions object`,
  ],
  [
    'a state key that is a name',
    withRule((r) => (r.stateTransition.store_opened.browsing = [])),
    `rule.stateTransition.store_opened.browsing: the key "browsing" is not ${STATE_FORM}`,
  ],
  [
    'a transitionTo that is a name',
    withRule((r) => (r.stateTransition.store_opened['0'][0].transitionTo = 'shown')),
    `${FIRST}.transitionTo: "shown" is not ${STATE_FORM} or a non-negative integer`,
  ],
  [
    'a stateToAction key that is a name',
    withRule((r) => (r.stateToAction = { shown: 'store_banner' })),
    `rule.stateToAction.shown: the key "shown" is not ${STATE_FORM}`,
  ],
  ['a resetStates entry with a leading zero', withRule((r) => (r.resetStates = ['03'])), `rule.resetStates[0]: "03" is not ${STATE_FORM}`],
  [
    'an action type BANNER',
    withRule((r) => (r.actions[0].type = 'BANNER')),
    'rule.actions[0].type: "BANNER" is not one of NUDGE_UI, POPUP, NUDGE_ACTION, TOOLTIP',
  ],
  [
    'a duplicate actionId',
    withRule((r) => ((r.actions[1].actionId = 'store_banner'), (r.stateToAction['2'] = 'store_banner'))),
    'rule.actions[1].actionId: "store_banner" is also the actionId of rule.actions[0]; actionIds must be unique',
  ],
  [
    'an action without an actionId',
    withRule((r) => ((r.actions[1].actionId = ''), (r.stateToAction['2'] = 'store_banner'))),
    'rule.actions[1].actionId: must be a non-empty string',
  ],
  [
    'a stateToAction naming no action',
    withRule((r) => (r.stateToAction['2'] = 'popup')),
    'rule.stateToAction.2: "popup" is not an actionId of rule.actions',
  ],
];

eachDatabase('rule grammar (docs/decisions/0003-device-rule-grammar.md, docs/decisions/0004-behaviour-tags.md)', (database) => {
  let api: TestApp;
  let dataSource: DataSource;
  /** Numbers the tags of the relation pair tests. */
  let sequence = 0;
  const { tenant, ctaCount } = grammarSuite(() => api);

  beforeAll(async () => {
    api = await TestApp.start(database);
    dataSource = dataSourceOf(api);
  });
  afterAll(() => api.close());

  describe('CTA create, update and test CTA create refuse what devices cannot run', () => {
    it.each(REFUSALS)('create refuses %s, naming the path', async (_case, rule, message) => {
      const ctas = tenant('refuse');
      const res = await api.post('/engine/ctas/', ctaBody({ rule }), ctas.headers());
      expect(res.status).toBe(400);
      expect(res.body).toEqual(errorBody('INVALID_REQUEST', message));
      expect(await ctaCount(ctas.tenantId)).toBe(0);
    });

    it('names every problem of a body with several, in one message', async () => {
      const ctas = tenant('several');
      const res = await api.post('/engine/ctas/', ctaBody({ rule: SEVERAL }), ctas.headers());
      expect(res.body).toEqual(errorBody('INVALID_REQUEST', SEVERAL_MESSAGE));
    });

    it('names the first 20 problems of more, and counts the rest', async () => {
      const ctas = tenant('many');
      const rule = withRule((r) => (r.actions = Array.from({ length: 23 }, (_, index) => ({ actionId: `a${index}`, type: 'BANNER' }))));
      rule.stateToAction = { '1': 'a0' };
      const res = await api.post('/engine/ctas/', ctaBody({ rule }), ctas.headers());
      const problems = res.body.error.message.split('; ');
      expect(problems).toHaveLength(21);
      expect(problems[0]).toBe('rule.actions[0].type: "BANNER" is not one of NUDGE_UI, POPUP, NUDGE_ACTION, TOOLTIP');
      expect(problems[19]).toMatch(/^rule\.actions\[19\]\.type: /);
      expect(problems[20]).toBe('and 3 more');
    });

    it('update refuses the same rule with INVALID_REQUEST and changes nothing', async () => {
      const ctas = tenant('update');
      const id = await ctas.create();
      const res = await ctas.update(id, { rule: SEVERAL, team: 'changed' });
      expect(res.body).toEqual(errorBody('INVALID_REQUEST', SEVERAL_MESSAGE));
      expect(await ctas.get(id)).toMatchObject({ team: 'growth', rule: { stateToAction: examples.rule().stateToAction } });
    });

    it('test CTA create refuses it with CTA_CREATION_ERROR', async () => {
      const ctas = tenant('test-cta');
      const res = await api.post('/engine/ctas/test/create', { userIds: [1], expiresInMinutes: 5, rule: SEVERAL }, ctas.headers());
      expect(res.body).toEqual(errorBody('CTA_CREATION_ERROR', SEVERAL_MESSAGE));
      expect(await ctaCount(ctas.tenantId)).toBe(0);
    });

    it('accepts absent, null and {} filters, and keeps unknown keys of comparisons', async () => {
      const ctas = tenant('always');
      const rule = examples.rule();
      delete rule.stateTransition.store_opened['1'][0].filters;
      rule.stateTransition.purchase_completed['1'][0].filters = null;
      rule.stateTransition.purchase_completed['2'][0].filters = {};
      rule.stateTransition.store_opened['0'][0].filters.filter[0].caseSensitive = false;
      const id = await ctas.create({ rule });
      expect((await ctas.get(id)).rule).toEqual(ruleAsRead(rule));
    });
  });

  it('stores a transitionTo sent as an integer as a string, in the admin read and the SDK launch', async () => {
    const ctas = tenant('transition-int');
    const rule = withRule((r) => {
      r.stateTransition.store_opened['0'][0].transitionTo = 1;
      r.stateTransition.purchase_completed['2'][0].transitionTo = 3;
    });
    const id = await ctas.create({ rule });
    const stored = (await ctas.get(id)).rule.stateTransition;
    expect(stored.store_opened['0'][0].transitionTo).toBe('1');
    expect(stored.purchase_completed['2'][0].transitionTo).toBe('3');
    expect((await ctas.status(id, 'live')).status).toBe(200);
    const launched = await api.post(LAUNCH, {}, sdkHeaders(ctas.tenantId, '42'));
    expect(launched.body.data.ctas[0].rule.stateTransition).toEqual(examples.rule().stateTransition);
  });

  describe('behaviour tag relation pairs (docs/decisions/0004-behaviour-tags.md)', () => {
    const relatedTag = (linkedCtas: number[], ctaRelation: unknown) => tagBody(`tag-${++sequence}`, linkedCtas, ctaRelation);
    const side = (rule: string, ctaList: unknown[] = []) => ({ rule, ctaList });

    it.each([
      ['ANY', 'LIST'],
      ['ANY', 'ANY'],
      ['LIST', 'REST'],
      ['REST', 'ANY'],
    ])('refuses shownCta %s with hideCta %s, naming the pair and the two that work', async (shown, hide) => {
      const ctas = tenant('pair');
      const id = await ctas.create();
      const res = await api.post(
        '/engine/behaviour-tags/',
        relatedTag([id], { shownCta: side(shown), hideCta: side(hide) }),
        ctas.headers(),
      );
      expect(res.body).toEqual(
        errorBody(
          'CAMPAIGN_INVALID',
          `ctaRelation: shownCta ${shown} with hideCta ${hide} makes devices block every CTA of the tag; ` +
            'use shownCta ANY with hideCta REST (both ctaLists empty) or shownCta LIST with hideCta LIST',
        ),
      );
    });

    it('refuses ANY/REST with a list, on create and on update', async () => {
      const ctas = tenant('pair-list');
      const id = await ctas.create();
      const message =
        'ctaRelation.shownCta.ctaList: must be empty with shownCta ANY and hideCta REST (devices ignore it); to name CTAs use shownCta LIST with hideCta LIST';
      const body = relatedTag([id], { shownCta: side('ANY', [id]), hideCta: side('REST') });
      expect((await api.post('/engine/behaviour-tags/', body, ctas.headers())).body).toEqual(errorBody('CAMPAIGN_INVALID', message));
      const created = relatedTag([id], { shownCta: side('ANY'), hideCta: side('REST') });
      expect((await api.post('/engine/behaviour-tags/', created, ctas.headers())).status).toBe(200);
      const { behaviourTagName, ...update }: Record<string, any> = { ...created, ctaRelation: body.ctaRelation };
      const res = await api.put(`/engine/behaviour-tags/${behaviourTagName}`, update, ctas.headers());
      expect(res.body).toEqual(errorBody('CAMPAIGN_INVALID', message));
    });

    it('accepts ANY/REST with empty lists and LIST/LIST with lists', async () => {
      const ctas = tenant('pair-ok');
      const [a, b] = [await ctas.create(), await ctas.create()];
      expect(
        (await api.post('/engine/behaviour-tags/', relatedTag([a], { shownCta: side('ANY'), hideCta: side('REST') }), ctas.headers()))
          .status,
      ).toBe(200);
      const list = relatedTag([b], { shownCta: side('LIST', [b]), hideCta: side('LIST', []) });
      expect((await api.post('/engine/behaviour-tags/', list, ctas.headers())).status).toBe(200);
    });
  });

  describe('CTAs stored before the grammar', () => {
    /** The old examples' rule: a comparison without propertyType, with EQUALS. */
    const legacyRule = (): Rule =>
      withRule(
        (r) =>
          (r.stateTransition.store_opened['0'][0].filters.filter = [
            { propertyName: 'source', comparisonType: 'EQUALS', comparisonValue: 'home' },
          ]),
      );

    it('still read, list, change status and launch, with their tag; an update must send a valid rule', async () => {
      const ctas = tenant('legacy');
      const now = api.clock.now();
      const { identifiers } = await dataSource.getRepository(CtaEntity).insert({
        tenantId: ctas.tenantId,
        name: 'stored-before',
        description: null,
        team: 'growth',
        status: 'draft',
        startTime: null,
        endTime: null,
        rule: legacyRule() as never,
        isTest: false,
        expiresAt: null,
        createdAt: now,
        createdBy: 'ops@example.com',
        lastUpdatedAt: null,
        lastUpdatedBy: null,
      });
      const id = Number(identifiers[0].id);
      // And a tag with a pair devices do not understand, as the old examples wrote it.
      const legacyRelation = { shownCta: { rule: 'ANY', ctaList: [] }, hideCta: { rule: 'LIST', ctaList: [String(id)] } };
      await dataSource.getRepository(BehaviourTagEntity).insert({
        tenantId: ctas.tenantId,
        name: 'old-tag',
        description: null,
        exposureRule: examples.tag.exposureRule as never,
        ctaRelation: legacyRelation as never,
        createdAt: now,
        createdBy: 'ops@example.com',
        lastUpdatedAt: null,
        lastUpdatedBy: null,
      });
      await dataSource.getRepository(BehaviourTagCtaEntity).insert({ tenantId: ctas.tenantId, ctaId: id, tagName: 'old-tag' });
      expect((await ctas.get(id)).rule).toEqual(ruleAsRead(legacyRule()));
      expect((await ctas.list()).body.data.ctas.map((cta: { id: number }) => cta.id)).toEqual([id]);
      expect((await ctas.status(id, 'live')).status).toBe(200);
      const launched = await api.post(LAUNCH, {}, sdkHeaders(ctas.tenantId, '7'));
      expect(launched.body.data.ctas.map((cta: { ctaId: string; rule: Rule }) => [cta.ctaId, cta.rule.stateTransition])).toEqual([
        [String(id), legacyRule().stateTransition],
      ]);
      expect(launched.body.data.behaviourTags).toEqual([
        {
          behaviourTagName: 'old-tag',
          exposureRule: { ...examples.tag.exposureRule, ctasResetAt: [] },
          ctaRelation: { ...legacyRelation, activeCtas: [] },
        },
      ]);
      expect((await ctas.status(id, 'pause')).status).toBe(200);
      const { behaviourTagName: _name, ...tagUpdate } = { ...examples.tag, linkedCtas: [id], ctaRelation: legacyRelation };
      expect((await api.put('/engine/behaviour-tags/old-tag', tagUpdate, ctas.headers())).body).toEqual(
        errorBody('CAMPAIGN_INVALID', expect.stringMatching(/^ctaRelation: shownCta ANY with hideCta LIST /)),
      );
      const refused = await ctas.update(id, { rule: legacyRule() });
      expect(refused.body).toEqual(
        errorBody('INVALID_REQUEST', `${FIRST}.filters.filter[0].propertyType: nothing is not one of string, number, boolean`),
      );
      expect((await ctas.update(id)).status).toBe(200);
      expect((await ctas.get(id)).rule).toEqual(ruleAsRead(examples.rule()));
    });
  });
});
