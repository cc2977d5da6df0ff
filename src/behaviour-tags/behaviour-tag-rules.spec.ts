import { expectDomainError } from '../../test/expect-thrown';
import { DomainError } from '../common/domain-error';
import { ErrorCode } from '../common/error-code';
import {
  assertLinkable,
  assertLinkableOnCreate,
  assertNotLinkedElsewhere,
  assertUpdatable,
  LinkedCtaState,
  tagDefinition,
} from './behaviour-tag-rules';
import type { BehaviourTagRulesDto } from './dto/behaviour-tag-body.dto';

const body = (fields: Partial<BehaviourTagRulesDto> = {}): BehaviourTagRulesDto =>
  ({
    description: 'd',
    exposureRule: { session: { limit: 1 }, window: { limit: 2, unit: 'days', value: 1 }, lifespan: { limit: 20 } },
    ctaRelation: { shownCta: { rule: 'LIST', ctaList: [13] }, hideCta: { rule: 'LIST', ctaList: [12] } },
    linkedCtas: ['12', 13],
    ...fields,
  }) as BehaviourTagRulesDto;

const failure = (run: () => unknown): DomainError => expectDomainError(run, ErrorCode.CAMPAIGN_INVALID);

const cta = (id: string, status: LinkedCtaState['status'], isTest = false): LinkedCtaState => ({ id, status, isTest });

describe('tagDefinition', () => {
  it('stores CTA ids as canonical strings, linked ids once each, and only the known keys', () => {
    const extra = { session: { limit: 1, extra: true }, window: { limit: 2, unit: 'days', value: 1 }, lifespan: { limit: 20 }, other: 1 };
    const definition = tagDefinition(
      body({ linkedCtas: ['012', 12, 13, '13'], exposureRule: extra as unknown as BehaviourTagRulesDto['exposureRule'] }),
    );
    expect(definition).toEqual({
      description: 'd',
      exposureRule: { session: { limit: 1 }, window: { limit: 2, unit: 'days', value: 1 }, lifespan: { limit: 20 } },
      ctaRelation: { shownCta: { rule: 'LIST', ctaList: ['13'] }, hideCta: { rule: 'LIST', ctaList: ['12'] } },
      linkedCtas: ['12', '13'],
    });
  });

  it('stores a window in weeks as days × 7, and refuses one too long for devices', () => {
    const inWeeks = (value: number) =>
      body({ exposureRule: { session: { limit: 1 }, window: { limit: 2, unit: 'weeks', value }, lifespan: { limit: 20 } } });
    expect(tagDefinition(inWeeks(2)).exposureRule.window).toEqual({ limit: 2, unit: 'days', value: 14 });
    expect(failure(() => tagDefinition(inWeeks(2 ** 30))).message).toBe(
      `exposureRule.window.value: ${2 ** 30} weeks are ${7 * 2 ** 30} days, more than the 2147483647 devices can count`,
    );
  });

  it('reads an absent or null description as null', () => {
    expect(tagDefinition(body({ description: undefined })).description).toBeNull();
    expect(tagDefinition(body({ description: null })).description).toBeNull();
  });

  it('accepts an empty linked set with empty lists', () => {
    const empty = { shownCta: { rule: 'ANY' as const, ctaList: [] }, hideCta: { rule: 'REST' as const, ctaList: [] } };
    expect(tagDefinition(body({ linkedCtas: [], ctaRelation: empty })).linkedCtas).toEqual([]);
  });

  it('rejects a ctaList id that is not linked, naming the list and the id', () => {
    const relation = { shownCta: { rule: 'LIST' as const, ctaList: ['13', 14, '15'] }, hideCta: { rule: 'LIST' as const, ctaList: [] } };
    expect(failure(() => tagDefinition(body({ ctaRelation: relation }))).message).toBe(
      'ctaRelation.shownCta.ctaList: CTAs 14, 15 not in linkedCtas',
    );
    const hide = { shownCta: { rule: 'LIST' as const, ctaList: [] }, hideCta: { rule: 'LIST' as const, ctaList: ['9'] } };
    expect(failure(() => tagDefinition(body({ ctaRelation: hide }))).message).toBe('ctaRelation.hideCta.ctaList: CTA 9 not in linkedCtas');
  });
});

describe('relation pairs devices understand (docs/decisions/0004-behaviour-tags.md)', () => {
  const relation = (shown: string, hide: string, shownList: unknown[] = [], hideList: unknown[] = []) =>
    ({ shownCta: { rule: shown, ctaList: shownList }, hideCta: { rule: hide, ctaList: hideList } }) as BehaviourTagRulesDto['ctaRelation'];

  it('accepts ANY/REST with empty lists and LIST/LIST', () => {
    expect(tagDefinition(body({ ctaRelation: relation('ANY', 'REST') })).ctaRelation.shownCta.rule).toBe('ANY');
    expect(tagDefinition(body({ ctaRelation: relation('LIST', 'LIST', [12], [13]) })).ctaRelation.hideCta.ctaList).toEqual(['13']);
  });

  it.each(
    ['ANY', 'LIST', 'REST']
      .flatMap((shown) => ['ANY', 'LIST', 'REST'].map((hide) => [shown, hide]))
      .filter(([shown, hide]) => !(shown === 'ANY' && hide === 'REST') && !(shown === 'LIST' && hide === 'LIST')),
  )('refuses shownCta %s with hideCta %s, naming the two pairs that work', (shown, hide) => {
    expect(failure(() => tagDefinition(body({ ctaRelation: relation(shown, hide) }))).message).toBe(
      `ctaRelation: shownCta ${shown} with hideCta ${hide} makes devices block every CTA of the tag; ` +
        'use shownCta ANY with hideCta REST (both ctaLists empty) or shownCta LIST with hideCta LIST',
    );
  });

  it('refuses ANY/REST with a list, which devices ignore', () => {
    expect(failure(() => tagDefinition(body({ ctaRelation: relation('ANY', 'REST', [], [12]) }))).message).toBe(
      'ctaRelation.hideCta.ctaList: must be empty with shownCta ANY and hideCta REST (devices ignore it); to name CTAs use shownCta LIST with hideCta LIST',
    );
  });
});

describe('assertLinkable', () => {
  const found = new Map([
    ['1', cta('1', 'draft')],
    ['2', cta('2', 'live', true)],
  ]);

  it('passes existing normal CTAs', () => {
    expect(() => assertLinkable(['1'], found)).not.toThrow();
  });

  it('names the missing ids first, then test CTAs', () => {
    expect(failure(() => assertLinkable(['1', '2', '7'], found)).message).toBe('linkedCtas: CTA 7 does not exist');
    expect(failure(() => assertLinkable(['7', '8'], found)).message).toBe('linkedCtas: CTAs 7, 8 do not exist');
    expect(failure(() => assertLinkable(['1', '2'], found)).message).toMatch(/^linkedCtas: CTA 2 is a test CTA/);
  });
});

describe('assertNotLinkedElsewhere', () => {
  it('names each CTA and the tag linking it', () => {
    expect(() => assertNotLinkedElsewhere(['1'], new Map())).not.toThrow();
    expect(
      failure(() =>
        assertNotLinkedElsewhere(
          ['1', '2', '3'],
          new Map([
            ['2', 'a'],
            ['3', 'b c'],
          ]),
        ),
      ).message,
    ).toBe(
      "linkedCtas: CTA 2 is already linked to behaviour tag 'a'; CTA 3 is already linked to behaviour tag 'b c' (a CTA belongs to at most one behaviour tag)",
    );
  });
});

describe('status rules', () => {
  const all = ['draft', 'paused', 'live', 'scheduled', 'concluded', 'terminated'] as const;

  it('on create allows only draft and paused CTAs', () => {
    const allowed = all.filter((status) => {
      try {
        assertLinkableOnCreate([cta('1', status)]);
        return true;
      } catch {
        return false;
      }
    });
    expect(allowed).toEqual(['draft', 'paused']);
    expect(failure(() => assertLinkableOnCreate([cta('5', 'concluded'), cta('3', 'live'), cta('4', 'draft')])).message).toBe(
      'linkedCtas: a new behaviour tag can link only draft or paused CTAs; CTA 3 is live, CTA 5 is concluded',
    );
  });

  it('on update forbids live and scheduled CTAs', () => {
    const allowed = all.filter((status) => {
      try {
        assertUpdatable('t', [cta('1', status)]);
        return true;
      } catch {
        return false;
      }
    });
    expect(allowed).toEqual(['draft', 'paused', 'concluded', 'terminated']);
    expect(failure(() => assertUpdatable('promo', [cta('10', 'scheduled'), cta('9', 'live')])).message).toBe(
      "behaviour tag 'promo' can change only while none of its CTAs is live or scheduled; CTA 9 is live, CTA 10 is scheduled",
    );
  });
});
