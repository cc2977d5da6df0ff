import type { CtaRule } from '../rule/rule.types';
import type { CatalogueCtaRow } from '../ctas/cta-catalogue.reader';
import { sdkRule, TenantCatalogue } from './sdk-catalogue';
import { emptyUserState, UserStateJson, userStateJson } from './user-state';

const NOW = 1_800_000_000_000;

const rule = (priority: number, cohortEligibility = { includes: ['all'], excludes: [] as string[] }): CtaRule => ({
  cohortEligibility,
  stateToAction: { '1': 'banner' },
  stateTransition: {},
  priority,
  stateMachineTTL: 1000,
  actions: [],
  frequency: { session: { limit: 1 }, window: { limit: 2, unit: 'days', value: 7 }, lifeSpan: { limit: 5 }, extra: true },
  newerSdkKey: 'kept',
});

const cta = (id: number, fields: Partial<CatalogueCtaRow> = {}): CatalogueCtaRow => ({
  id,
  status: 'live',
  startTime: null,
  endTime: null,
  rule: rule(1),
  isTest: false,
  expiresAt: null,
  experiment: null,
  capExempt: false,
  ...fields,
});

const idsOf = (json: Buffer): string[] => (JSON.parse(json.toString()).data.ctas as { ctaId: string }[]).map((entry) => entry.ctaId);

describe('sdkRule', () => {
  it('drops cohortEligibility, adds ctaValidTill after stateMachineTTL and lifespan beside lifeSpan, keeps unknown keys', () => {
    const result = sdkRule(rule(3), 123);
    expect(Object.keys(result)).toEqual([
      'stateToAction',
      'stateTransition',
      'priority',
      'stateMachineTTL',
      'ctaValidTill',
      'actions',
      'frequency',
      'newerSdkKey',
    ]);
    expect(result.ctaValidTill).toBe(123);
    expect(Object.keys(result.frequency as object)).toEqual(['session', 'window', 'lifeSpan', 'lifespan', 'extra']);
    expect((result.frequency as Record<string, unknown>).lifespan).toEqual({ limit: 5 });
  });
});

describe('TenantCatalogue.render', () => {
  it('orders by priority descending then id ascending, numerically', () => {
    const catalogue = new TenantCatalogue(
      [cta(10, { rule: rule(1) }), cta(9, { rule: rule(1) }), cta(100, { rule: rule(7) }), cta(2, { rule: rule(-1) })],
      [],
      [],
      [],
    );
    expect(idsOf(catalogue.render('1', ['all'], userStateJson(emptyUserState()), NOW))).toEqual(['100', '9', '10', '2']);
  });

  it('checks the time window against the given time: start of scheduled CTAs, end of every CTA', () => {
    const catalogue = new TenantCatalogue(
      [
        cta(1, { endTime: NOW + 1 }),
        cta(2, { endTime: NOW }),
        cta(3, { status: 'scheduled', startTime: NOW }),
        cta(4, { status: 'scheduled', startTime: NOW + 1 }),
        cta(5, { status: 'paused' }),
      ],
      [],
      [],
      [],
    );
    expect(idsOf(catalogue.render('1', ['all'], userStateJson(emptyUserState()), NOW))).toEqual(['1', '3']);
    expect(idsOf(catalogue.render('1', ['all'], userStateJson(emptyUserState()), NOW + 1))).toEqual(['3', '4']);
  });

  it('evaluates cohorts, and serves test CTAs only to their users until expiry, regardless of cohorts', () => {
    const catalogue = new TenantCatalogue(
      [
        cta(1, { rule: rule(1, { includes: ['beta'], excludes: [] }) }),
        cta(2, { rule: rule(1, { includes: ['all'], excludes: ['payers'] }) }),
        cta(3, { isTest: true, expiresAt: NOW + 10, rule: rule(1, { includes: ['nobody'], excludes: [] }) }),
      ],
      [
        { userId: '7', ctaId: 3 },
        { userId: '8', ctaId: 1 },
      ],
      [],
      [],
    );
    expect(idsOf(catalogue.render('7', ['all'], userStateJson(emptyUserState()), NOW))).toEqual(['2', '3']);
    expect(idsOf(catalogue.render('8', ['all', 'payers'], userStateJson(emptyUserState()), NOW))).toEqual([]);
    expect(idsOf(catalogue.render('8', ['beta'], userStateJson(emptyUserState()), NOW))).toEqual(['1']);
    expect(idsOf(catalogue.render('7', ['all'], userStateJson(emptyUserState()), NOW + 10))).toEqual(['2']);
    expect(catalogue.stateTtlOf('3', NOW)).toBe(1000);
    expect(catalogue.stateTtlOf('3', NOW + 10)).toBeUndefined();
  });

  it('answers [] for both lists when nothing is eligible, and tags only when they link an eligible CTA', () => {
    const tag = (name: string) => ({
      name,
      exposureRule: { session: { limit: 1 }, window: { limit: 2, unit: 'days' as const, value: 1 }, lifespan: { limit: 3 } },
      ctaRelation: { shownCta: { rule: 'ANY' as const, ctaList: [] }, hideCta: { rule: 'LIST' as const, ctaList: ['1'] } },
    });
    const catalogue = new TenantCatalogue(
      [cta(1), cta(2, { status: 'paused' })],
      [],
      [
        { ctaId: 1, tagName: 'b-tag' },
        { ctaId: 2, tagName: 'a-tag' },
      ],
      [tag('b-tag'), tag('a-tag')],
    );
    expect(catalogue.render('1', ['none'], userStateJson(emptyUserState()), NOW).toString()).toBe(
      '{"data":{"ctas":[],"behaviourTags":[]}}',
    );
    const body = JSON.parse(catalogue.render('1', ['all'], userStateJson(emptyUserState()), NOW).toString()).data;
    expect(body.ctas[0].behaviourTagName).toBe('b-tag');
    expect(body.behaviourTags).toEqual([
      {
        behaviourTagName: 'b-tag',
        exposureRule: { ...tag('b-tag').exposureRule, ctasResetAt: [] },
        ctaRelation: { ...tag('b-tag').ctaRelation, activeCtas: [] },
      },
    ]);
    expect(catalogue.hasTag('a-tag')).toBe(true);
    expect(catalogue.stateTtlOf('2', NOW)).toBe(1000);
  });

  describe('with user state, holdouts and CTAs not served', () => {
    const tag = (name: string) => ({
      name,
      exposureRule: { session: { limit: 1 }, window: { limit: 2, unit: 'days' as const, value: 1 }, lifespan: { limit: 3 } },
      ctaRelation: { shownCta: { rule: 'ANY' as const, ctaList: [] }, hideCta: { rule: 'ANY' as const, ctaList: [] } },
    });
    const experiment = { holdoutPercent: 50, goal: { state: '1' }, windowDays: 7, holdoutEvent: 'cta_holdout' };
    const catalogue = new TenantCatalogue(
      [
        cta(1, { rule: rule(9, { includes: ['beta'], excludes: [] }) }),
        cta(2, { rule: rule(8) }),
        cta(3, {
          rule: { ...rule(7), actions: [{ actionId: 'banner', type: 'NUDGE_ACTION', template: { eventName: 'show' } }] },
          experiment,
        }),
        cta(4, { rule: rule(6) }),
        cta(5, { rule: rule(5) }),
      ],
      [],
      [
        { ctaId: 2, tagName: 'b-tag' },
        { ctaId: 4, tagName: 'a-tag' },
        { ctaId: 5, tagName: 'c-tag' },
      ],
      [tag('c-tag'), tag('b-tag'), tag('a-tag')],
    );
    const stateOf = (ctas: Record<string, string>, tags: Record<string, { ctasResetAt: string; activeCtas: string }>): UserStateJson => ({
      cta: (ctaId) => ctas[ctaId],
      tag: (name) => tags[name],
    });
    const machines = (key: string) => `{"${key}":{"currentState":"1","lastTransitionAt":5,"createdAt":4}},"resetAt":[3],"actionDoneAt":[]`;
    const state = stateOf(
      { '2': machines('a'), '3': machines('c'), '4': machines('b') },
      { 'a-tag': { ctasResetAt: '[{"ctaId":"4","resetAt":2}]', activeCtas: '["4"]' } },
    );
    const armOf = (userId: string) =>
      catalogue.armOf(
        catalogue.heldCtas().find((held) => held.id === 3)!,
        userId,
      );
    const treatmentUser = ['1', '2', '3', '4', '5', '6'].find((userId) => armOf(userId) === 'treatment')!;
    const holdoutUser = ['1', '2', '3', '4', '5', '6'].find((userId) => armOf(userId) === 'holdout')!;

    it("puts the user's state in its CTAs' and tags' entries, whichever CTA is served first", () => {
      for (const [cohorts, ids] of [
        [
          ['all', 'beta'],
          ['1', '2', '3', '4', '5'],
        ],
        [['all'], ['2', '3', '4', '5']],
      ] as const) {
        const body = JSON.parse(catalogue.render(treatmentUser, cohorts, state, NOW).toString()).data;
        expect(body.ctas.map((entry: { ctaId: string }) => entry.ctaId)).toEqual(ids);
        const byId = new Map(body.ctas.map((entry: { ctaId: string }) => [entry.ctaId, entry]));
        expect(byId.get('2')).toMatchObject({ activeStateMachines: { a: { currentState: '1' } }, resetAt: [3], behaviourTagName: 'b-tag' });
        expect(byId.get('4')).toMatchObject({ activeStateMachines: { b: { createdAt: 4 } }, resetAt: [3], behaviourTagName: 'a-tag' });
        expect(byId.get('5')).toMatchObject({ activeStateMachines: {}, resetAt: [], actionDoneAt: [] });
        expect(body.behaviourTags.map((entry: { behaviourTagName: string }) => entry.behaviourTagName)).toEqual([
          'a-tag',
          'b-tag',
          'c-tag',
        ]);
        expect(body.behaviourTags[0].exposureRule.ctasResetAt).toEqual([{ ctaId: '4', resetAt: 2 }]);
        expect(body.behaviourTags[0].ctaRelation.activeCtas).toEqual(['4']);
        expect(body.behaviourTags[1].ctaRelation.activeCtas).toEqual([]);
      }
    });

    it("serves a holdout user the holdout variant among the others' entries", () => {
      const answer = (userId: string) => JSON.parse(catalogue.render(userId, ['all'], state, NOW).toString()).data.ctas;
      const third = (userId: string) => answer(userId).find((entry: { ctaId: string }) => entry.ctaId === '3');
      expect(answer(holdoutUser).map((entry: { ctaId: string }) => entry.ctaId)).toEqual(['2', '3', '4', '5']);
      expect(third(holdoutUser).rule).not.toEqual(third(treatmentUser).rule);
      expect(third(holdoutUser)).toMatchObject({ activeStateMachines: { c: { createdAt: 4 } }, resetAt: [3] });
      expect(third(treatmentUser)).toMatchObject({ activeStateMachines: { c: { createdAt: 4 } }, resetAt: [3] });
      expect(answer(holdoutUser).filter((entry: { ctaId: string }) => entry.ctaId !== '3')).toEqual(
        answer(treatmentUser).filter((entry: { ctaId: string }) => entry.ctaId !== '3'),
      );
    });

    it('answers a user served everything without state with the one answer built for the catalogue, not a copy', () => {
      const none = userStateJson(emptyUserState());
      const everything = catalogue.render(treatmentUser, ['all', 'beta'], none, NOW);
      expect(catalogue.render(treatmentUser, ['all', 'beta'], none, NOW)).toBe(everything);
      expect(JSON.parse(everything.toString()).data.ctas).toHaveLength(5);
      expect(catalogue.render(treatmentUser, ['all'], none, NOW)).not.toBe(everything);
    });
  });
});
