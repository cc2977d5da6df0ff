import { CREATE_EXAMPLE } from '../api-docs/flow-examples';
import type { ChangeOrigin } from '../audit/audit.types';
import { ErrorCode } from '../common/error-code';
import { CtasModule } from '../ctas/ctas.module';
import { CtasService } from '../ctas/ctas.service';
import type { CreateCtaDto } from '../ctas/dto/cta-body.dto';
import { TestCtasService } from '../ctas/test-ctas.service';
import { refusal, unitTestModule, type UnitTestModule } from '../../test/unit-test-module';
import { TAG_RULES_EXAMPLE } from './behaviour-tag-api-examples';
import { BehaviourTagsService } from './behaviour-tags.service';
import type { CreateBehaviourTagDto, UpdateBehaviourTagDto } from './dto/behaviour-tag-body.dto';

const origin: ChangeOrigin = { actor: 'ops-key', user: 'alice@example.com', requestId: null };
const rules = (linkedCtas: (string | number)[]): UpdateBehaviourTagDto =>
  ({ ...structuredClone(TAG_RULES_EXAMPLE), linkedCtas }) as UpdateBehaviourTagDto;
const tag = (name: string, linkedCtas: (string | number)[]): CreateBehaviourTagDto => ({ behaviourTagName: name, ...rules(linkedCtas) });

describe('BehaviourTagsService', () => {
  let app: UnitTestModule;
  let tags: BehaviourTagsService;
  let ctaIds: number[];
  beforeEach(async () => {
    app = await unitTestModule([CtasModule]);
    tags = app.get(BehaviourTagsService);
    ctaIds = [];
    for (const name of ['a', 'b', 'c']) {
      ctaIds.push(
        await app
          .get(CtasService)
          .create('t1', 'alice', { ...structuredClone(CREATE_EXAMPLE), experiment: null, name } as CreateCtaDto, origin),
      );
    }
  });
  afterEach(() => app.close());

  it('creates a tag linking CTAs (ids canonical, ascending), shown on the CTAs, with a create entry and a catalogue bump', async () => {
    const [a, b] = ctaIds;
    const revision = await app.catalogueRevision('t1');
    await tags.create('t1', 'bob', tag('store', [String(b), `0${a}`]), origin);
    expect(await tags.list('t1')).toEqual([
      {
        name: 'store',
        description: TAG_RULES_EXAMPLE.description,
        createdAt: app.clock.at,
        createdBy: 'bob',
        lastUpdatedAt: app.clock.at,
        lastUpdatedBy: 'bob',
        exposureRule: TAG_RULES_EXAMPLE.exposureRule,
        ctaRelation: TAG_RULES_EXAMPLE.ctaRelation,
        linkedCtas: [String(a), String(b)],
        tenantId: 't1',
      },
    ]);
    expect((await app.get(CtasService).get('t1', String(a))).behaviourTags).toEqual(['store']);
    expect((await app.auditEntries()).filter((entry) => entry.entityType === 'behaviourTag').map((entry) => entry.action)).toEqual([
      'create',
    ]);
    expect(await app.catalogueRevision('t1')).toBe(revision + 1);
    expect(await tags.list('t2')).toEqual([]);
  });

  it('refuses a taken name (CAMPAIGN_DUPLICATE_NAME), and a CTA already linked to another tag, unknown or a test CTA (CAMPAIGN_INVALID)', async () => {
    const [a, b] = ctaIds;
    await tags.create('t1', 'bob', tag('store', [a]), origin);
    expect(await refusal(tags.create('t1', 'bob', tag('store', [b]), origin))).toEqual({
      code: ErrorCode.CAMPAIGN_DUPLICATE_NAME,
      message: "behaviourTagName: a behaviour tag named 'store' already exists",
    });
    expect(await refusal(tags.create('t1', 'bob', tag('other', [a, b]), origin))).toEqual({
      code: ErrorCode.CAMPAIGN_INVALID,
      message: `linkedCtas: CTA ${a} is already linked to behaviour tag 'store' (a CTA belongs to at most one behaviour tag)`,
    });
    expect(await refusal(tags.create('t2', 'bob', tag('other', [b]), origin))).toEqual({
      code: ErrorCode.CAMPAIGN_INVALID,
      message: `linkedCtas: CTA ${b} does not exist`,
    });
    const test = await app
      .get(TestCtasService)
      .create('t1', 'qa', { rule: structuredClone(CREATE_EXAMPLE.rule) as never, userIds: [1], expiresInMinutes: 5 }, origin);
    expect(await refusal(tags.create('t1', 'bob', tag('other', [test]), origin))).toEqual({
      code: ErrorCode.CAMPAIGN_INVALID,
      message: `linkedCtas: CTA ${test} is a test CTA; test CTAs cannot be linked to a behaviour tag`,
    });
    expect((await tags.list('t1')).map((found) => found.name)).toEqual(['store']);
  });

  it('links only draft or paused CTAs to a new tag', async () => {
    const [a] = ctaIds;
    await app.setCtaStatus(a, 'live');
    expect(await refusal(tags.create('t1', 'bob', tag('store', [a]), origin))).toEqual({
      code: ErrorCode.CAMPAIGN_INVALID,
      message: `linkedCtas: a new behaviour tag can link only draft or paused CTAs; CTA ${a} is live`,
    });
    await app.setCtaStatus(a, 'paused');
    await tags.create('t1', 'bob', tag('store', [a]), origin);
    expect((await tags.list('t1'))[0].linkedCtas).toEqual([String(a)]);
  });

  it('updates the links: drops those left out, adds the new ones, with an update entry naming both versions', async () => {
    const [a, b, c] = ctaIds;
    await tags.create('t1', 'bob', tag('store', [a, b]), origin);
    app.clock.at += 1000;
    await tags.update('t1', 'carol', 'store', rules([c, b]), origin);
    expect(await tags.list('t1')).toEqual([
      expect.objectContaining({
        linkedCtas: [String(b), String(c)],
        createdBy: 'bob',
        lastUpdatedBy: 'carol',
        lastUpdatedAt: app.clock.at,
      }),
    ]);
    expect((await app.get(CtasService).get('t1', String(a))).behaviourTags).toEqual([]);
    const update = (await app.auditEntries()).find((entry) => entry.action === 'update' && entry.entityType === 'behaviourTag');
    expect([(update?.before as { linkedCtas: string[] }).linkedCtas, (update?.after as { linkedCtas: string[] }).linkedCtas]).toEqual([
      [String(a), String(b)],
      [String(b), String(c)],
    ]);
  });

  it('refuses a rename, an unknown tag, and any change while one of its CTAs runs', async () => {
    const [a] = ctaIds;
    await tags.create('t1', 'bob', tag('store', [a]), origin);
    expect(
      await refusal(tags.update('t1', 'bob', 'store', { ...rules([a]), behaviourTagName: 'shop' } as UpdateBehaviourTagDto, origin)),
    ).toEqual({
      code: ErrorCode.CAMPAIGN_INVALID,
      message: "behaviourTagName: a behaviour tag cannot be renamed (the path names 'store', the body 'shop')",
    });
    expect(await refusal(tags.update('t2', 'bob', 'store', rules([]), origin))).toEqual({
      code: ErrorCode.CAMPAIGN_INVALID,
      message: "behaviour tag 'store' does not exist",
    });
    await app.setCtaStatus(a, 'live');
    expect(await refusal(tags.update('t1', 'bob', 'store', rules([]), origin))).toEqual({
      code: ErrorCode.CAMPAIGN_INVALID,
      message: `behaviour tag 'store' can change only while none of its CTAs is live or scheduled; CTA ${a} is live`,
    });
    expect((await tags.list('t1'))[0].linkedCtas).toEqual([String(a)]);
  });
});
