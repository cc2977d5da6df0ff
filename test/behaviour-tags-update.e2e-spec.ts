import type { UpdateBehaviourTagDto } from '../src/behaviour-tags/dto/behaviour-tag-body.dto';
import { type AsSent, examples } from './fixtures';
import { tagSuite, updateBody } from './behaviour-tags';
import { eachDatabase, errorBody } from './harness';

/** `PUT /engine/behaviour-tags/{behaviourTagName}`: replacing a tag, and every way an update is refused. */

eachDatabase('behaviour tags', (database) => {
  const { api, unique, admin, createCtas, listTags, tagNamed, createTag } = tagSuite(database);

  describe('PUT /engine/behaviour-tags/{behaviourTagName}', () => {
    it('replaces description, rules and the linked set at once; dropped CTAs are free again', async () => {
      const tenant = unique('t');
      const [kept, dropped, added] = await createCtas(tenant, 3);
      await createTag(tenant, 'store-nudges', [kept, dropped]);
      const { createdAt } = await tagNamed(tenant, 'store-nudges');
      api().clock.advance(60_000);
      const body = updateBody([kept, Number(added)], {
        description: 'changed',
        exposureRule: { session: { limit: 2 }, window: { limit: 5, unit: 'hours', value: 12 }, lifespan: { limit: 0 } },
        ctaRelation: { shownCta: { rule: 'LIST', ctaList: [added] }, hideCta: { rule: 'LIST', ctaList: [Number(kept)] } },
      });
      const res = await admin(tenant, 'carol').tags.update('store-nudges', body);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({});
      expect(await tagNamed(tenant, 'store-nudges')).toEqual({
        name: 'store-nudges',
        description: 'changed',
        createdAt,
        createdBy: 'alice@example.com',
        lastUpdatedAt: expect.any(Number),
        lastUpdatedBy: 'carol',
        exposureRule: { session: { limit: 2 }, window: { limit: 5, unit: 'hours', value: 12 }, lifespan: { limit: 0 } },
        ctaRelation: { shownCta: { rule: 'LIST', ctaList: [added] }, hideCta: { rule: 'LIST', ctaList: [kept] } },
        linkedCtas: [kept, added],
        tenantId: tenant,
      });
      expect((await tagNamed(tenant, 'store-nudges')).lastUpdatedAt).toBeGreaterThanOrEqual(createdAt + 60_000);
      await createTag(tenant, 'takes the dropped one', [dropped]);
    });

    it('clears the description when the body leaves it out, and can unlink everything', async () => {
      const tenant = unique('t');
      const [id] = await createCtas(tenant, 1);
      await createTag(tenant, 'clear', [id]);
      const { description: _description, ...body } = updateBody([]);
      expect((await admin(tenant).tags.update('clear', body)).status).toBe(200);
      expect(await tagNamed(tenant, 'clear')).toMatchObject({ description: null, linkedCtas: [] });
    });

    it('answers CAMPAIGN_INVALID for an unknown tag, also one of another tenant', async () => {
      const [tenant, other] = [unique('t'), unique('t')];
      await createTag(other, 'elsewhere', []);
      for (const name of ['nope', 'elsewhere']) {
        const res = await admin(tenant).tags.update(name, updateBody([]));
        expect(res.status).toBe(400);
        expect(res.body).toEqual(errorBody('CAMPAIGN_INVALID', `behaviour tag '${name}' does not exist`));
      }
      expect(await listTags(tenant)).toEqual([]);
    });

    it('URL-decodes the name in the path', async () => {
      const tenant = unique('t');
      for (const name of ['store nudges', 'Été ✓ ニュース', 'a+b%c?d#e', 'team/promo']) {
        await createTag(tenant, name, []);
        const res = await admin(tenant).tags.update(name, updateBody([], { description: `updated ${name}` }));
        expect(res.status).toBe(200);
        expect(await tagNamed(tenant, name)).toMatchObject({ description: `updated ${name}` });
      }
    });

    it('tolerates the same name in the body but refuses a rename', async () => {
      const tenant = unique('t');
      await createTag(tenant, 'fixed', []);
      expect((await admin(tenant).tags.update('fixed', updateBody([], { behaviourTagName: 'fixed' }))).status).toBe(200);
      const res = await admin(tenant).tags.update('fixed', updateBody([], { behaviourTagName: 'renamed', description: 'x' }));
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('CAMPAIGN_INVALID');
      expect(res.body.error.message).toMatch(/^behaviourTagName: a behaviour tag cannot be renamed/);
      expect((await listTags(tenant)).map((tag) => [tag.name, tag.description])).toEqual([['fixed', examples.tag.description]]);
    });

    it('validates the body like create (CAMPAIGN_INVALID naming the field) and requires the user header', async () => {
      const tenant = unique('t');
      await createTag(tenant, 'strict', []);
      const bad = await admin(tenant).tags.update('strict', updateBody([], { exposureRule: { session: { limit: 1 } } }));
      expect(bad.status).toBe(400);
      expect(bad.body.error.code).toBe('CAMPAIGN_INVALID');
      expect(bad.body.error.message).toMatch(/^exposureRule\.window/);
      const noUser = await admin(tenant).tags.update('strict', updateBody([]), { user: undefined });
      expect(noUser.body).toEqual(errorBody('INVALID_REQUEST', "header 'user' is required"));
      const tag = await tagNamed(tenant, 'strict');
      expect(tag).toMatchObject({ lastUpdatedBy: 'alice@example.com', exposureRule: examples.tag.exposureRule });
      expect(tag.lastUpdatedAt).toBe(tag.createdAt);
    });

    it('applies the link rules: existing CTAs, ctaList within linkedCtas, one tag per CTA', async () => {
      const tenant = unique('t');
      const [mine, theirs, free] = await createCtas(tenant, 3);
      await createTag(tenant, 'mine', [mine]);
      await createTag(tenant, 'theirs', [theirs]);
      const cases: [AsSent<UpdateBehaviourTagDto>, string][] = [
        [updateBody([mine, '424242']), 'linkedCtas: CTA 424242 does not exist'],
        [
          updateBody([mine], { ctaRelation: { shownCta: { rule: 'LIST', ctaList: [free] }, hideCta: { rule: 'LIST', ctaList: [] } } }),
          `ctaRelation.shownCta.ctaList: CTA ${free} not in linkedCtas`,
        ],
        [
          updateBody([free, theirs], { description: 'x' }),
          `linkedCtas: CTA ${theirs} is already linked to behaviour tag 'theirs' (a CTA belongs to at most one behaviour tag)`,
        ],
      ];
      for (const [body, message] of cases) {
        const res = await admin(tenant).tags.update('mine', body);
        expect(res.status).toBe(400);
        expect(res.body).toEqual(errorBody('CAMPAIGN_INVALID', message));
      }
      // Nothing of the rejected updates was written; re-sending its own set is fine.
      expect((await listTags(tenant)).map((tag) => [tag.name, tag.linkedCtas, tag.description])).toEqual([
        ['mine', [mine], examples.tag.description],
        ['theirs', [theirs], examples.tag.description],
      ]);
      expect((await admin(tenant).tags.update('mine', updateBody([mine, free]))).status).toBe(200);
    });

    it('changes a tag only while none of its CTAs, before or after, is live or scheduled', async () => {
      const tenant = unique('t');
      const [linked, concluded, terminated, live] = await createCtas(tenant, 4);
      await createTag(tenant, 'lifecycle', [linked, concluded, terminated]);
      await admin(tenant).move(concluded, 'live', 'conclude');
      await admin(tenant).move(terminated, 'terminate');
      // Concluded and terminated CTAs no longer run: the tag may change, and keep them.
      expect(
        (await admin(tenant).tags.update('lifecycle', updateBody([linked, concluded, terminated], { description: 'v2' }))).status,
      ).toBe(200);

      // A live CTA among those linked before blocks the update, even one the update would drop.
      await admin(tenant).move(linked, 'live');
      let res = await admin(tenant).tags.update('lifecycle', updateBody([concluded]));
      expect(res.status).toBe(400);
      expect(res.body).toEqual(
        errorBody(
          'CAMPAIGN_INVALID',
          `behaviour tag 'lifecycle' can change only while none of its CTAs is live or scheduled; CTA ${linked} is live`,
        ),
      );
      await admin(tenant).move(linked, 'pause');

      // A live CTA among those linked after, too.
      await admin(tenant).move(live, 'live');
      res = await admin(tenant).tags.update('lifecycle', updateBody([linked, live]));
      expect(res.body).toEqual(
        errorBody(
          'CAMPAIGN_INVALID',
          `behaviour tag 'lifecycle' can change only while none of its CTAs is live or scheduled; CTA ${live} is live`,
        ),
      );
      expect(await tagNamed(tenant, 'lifecycle')).toMatchObject({ description: 'v2', linkedCtas: [linked, concluded, terminated] });

      expect((await admin(tenant).tags.update('lifecycle', updateBody([linked]))).status).toBe(200);
      expect(await tagNamed(tenant, 'lifecycle')).toMatchObject({ linkedCtas: [linked] });
    });
  });
});
