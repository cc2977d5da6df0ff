import { expectDomainError } from '../../../test/expect-thrown';
import { tagBody } from '../../../test/fixtures';
import { ErrorCode } from '../../common/error-code';
import { validationPipe } from '../../common/validation';
import { CreateBehaviourTagDto, UpdateBehaviourTagDto } from './behaviour-tag-body.dto';

/** The shared example tag, with ids as strings and numbers (the DTO checks shapes, not the relation pair). */
const valid = () =>
  tagBody('store-nudges', ['12', 13], { shownCta: { rule: 'ANY', ctaList: [] }, hideCta: { rule: 'LIST', ctaList: ['12'] } });

const pipe = validationPipe(ErrorCode.CAMPAIGN_INVALID);
const validate = (value: unknown, metatype: new () => object = CreateBehaviourTagDto) => pipe.transform(value, { type: 'body', metatype });

/** Applies `change` to a valid body and returns the rejection message. */
async function rejection(change: (body: Record<string, any>) => void, metatype?: new () => object): Promise<string> {
  const body: Record<string, any> = valid();
  change(body);
  return (await expectDomainError(() => validate(body, metatype), ErrorCode.CAMPAIGN_INVALID)).message;
}

describe('behaviour tag bodies', () => {
  it('accept the shared example, ids as numbers or strings, and no description', async () => {
    await expect(validate(valid())).resolves.toBeInstanceOf(CreateBehaviourTagDto);
    const { behaviourTagName: _name, ...update } = valid();
    await expect(validate({ ...update, description: null }, UpdateBehaviourTagDto)).resolves.toBeInstanceOf(UpdateBehaviourTagDto);
    await expect(
      validate(
        {
          ...update,
          description: undefined,
          linkedCtas: [],
          ctaRelation: { shownCta: { rule: 'REST', ctaList: [] }, hideCta: { rule: 'ANY', ctaList: [] } },
        },
        UpdateBehaviourTagDto,
      ),
    ).resolves.toBeDefined();
  });

  it.each<[string, (body: Record<string, any>) => void, RegExp]>([
    ['no name', (b) => delete b.behaviourTagName, /^behaviourTagName /],
    ['an empty name', (b) => (b.behaviourTagName = ''), /^behaviourTagName must be longer than or equal to 1/],
    ['a 256-character name', (b) => (b.behaviourTagName = 'x'.repeat(256)), /^behaviourTagName must be shorter than or equal to 255/],
    ['a name ending in a space', (b) => (b.behaviourTagName = 'promo '), /^behaviourTagName must not start or end with whitespace$/],
    ['a name starting with a tab', (b) => (b.behaviourTagName = '\tpromo'), /^behaviourTagName must not start or end with whitespace$/],
    ['a blank name', (b) => (b.behaviourTagName = ' '), /^behaviourTagName must not start or end with whitespace$/],
    ['a numeric name', (b) => (b.behaviourTagName = 5), /^behaviourTagName must be a string/],
    ['a numeric description', (b) => (b.description = 5), /^description must be a string/],
    ['no exposureRule', (b) => delete b.exposureRule, /^exposureRule /],
    ['an array exposureRule', (b) => (b.exposureRule = []), /^exposureRule must be an object/],
    ['no session', (b) => delete b.exposureRule.session, /^exposureRule\.session /],
    ['a string limit', (b) => (b.exposureRule.session.limit = '1'), /^exposureRule\.session\.limit must be an integer/],
    ['a negative limit', (b) => (b.exposureRule.lifespan.limit = -1), /^exposureRule\.lifespan\.limit must not be less than 0/],
    ['a fractional limit', (b) => (b.exposureRule.window.limit = 1.5), /^exposureRule\.window\.limit must be an integer/],
    ['a huge window value', (b) => (b.exposureRule.window.value = 2 ** 31), /^exposureRule\.window\.value must not be greater than/],
    ['an unknown unit', (b) => (b.exposureRule.window.unit = 'fortnights'), /^exposureRule\.window\.unit must be one of/],
    [
      'a window in months',
      (b) => (b.exposureRule.window.unit = 'months'),
      /^exposureRule\.window\.unit "months" cannot be stored: a month has no fixed length/,
    ],
    [
      'lifeSpan instead of lifespan',
      (b) => {
        b.exposureRule.lifeSpan = b.exposureRule.lifespan;
        delete b.exposureRule.lifespan;
      },
      /^exposureRule\.lifespan /,
    ],
    ['no ctaRelation', (b) => delete b.ctaRelation, /^ctaRelation /],
    ['no hideCta', (b) => delete b.ctaRelation.hideCta, /^ctaRelation\.hideCta /],
    ['an unknown relation rule', (b) => (b.ctaRelation.shownCta.rule = 'SOME'), /^ctaRelation\.shownCta\.rule must be one of/],
    ['a lower-case relation rule', (b) => (b.ctaRelation.shownCta.rule = 'any'), /^ctaRelation\.shownCta\.rule must be one of/],
    ['no ctaList', (b) => delete b.ctaRelation.hideCta.ctaList, /^ctaRelation\.hideCta\.ctaList/],
    [
      'a bad ctaList id',
      (b) => (b.ctaRelation.hideCta.ctaList = ['x']),
      /^ctaRelation\.hideCta\.ctaList must hold only CTA ids \(positive integers, as JSON numbers or decimal strings\), not "x"$/,
    ],
    ['no linkedCtas', (b) => delete b.linkedCtas, /^linkedCtas is required$/],
    ['a string linkedCtas', (b) => (b.linkedCtas = '12'), /^linkedCtas must be an array/],
    ['a fractional linked id', (b) => (b.linkedCtas = [12, 1.5]), /^linkedCtas must hold only CTA ids .*, not 1\.5$/],
    ['a null linked id', (b) => (b.linkedCtas = [null]), /^linkedCtas must hold only CTA ids .*, not null$/],
    ['a zero linked id', (b) => (b.linkedCtas = ['0']), /^linkedCtas must hold only CTA ids .*, not "0"$/],
    [
      'too many linked ids',
      (b) => (b.linkedCtas = Array.from({ length: 1001 }, (_, i) => i + 1)),
      /^linkedCtas must contain no more than 1000/,
    ],
  ])('reject %s, naming the field', async (_case, change, message) => {
    expect(await rejection(change)).toMatch(message);
  });

  it('reject a body that is not an object', async () => {
    for (const body of [undefined, null, [], 'tag', 5]) {
      await expect(validate(body)).rejects.toMatchObject({ code: ErrorCode.CAMPAIGN_INVALID });
    }
  });

  it('accept names with inner spaces and any other characters', async () => {
    for (const name of ['a', 'store nudges', 'Été ✓ ニュース', 'a/b%c', 'x'.repeat(255)]) {
      await expect(validate({ ...valid(), behaviourTagName: name })).resolves.toBeDefined();
    }
  });

  it('on update the name is optional but must be a string when sent', async () => {
    expect(await rejection((b) => (b.behaviourTagName = 7), UpdateBehaviourTagDto)).toMatch(/^behaviourTagName must be a string/);
  });
});
