import { ctaBody, examples } from './fixtures';
import { listTag, tagSuite, updateBody } from './behaviour-tags';
import { eachDatabase, errorBody } from './harness';

/** `POST /engine/behaviour-tags`: creating a tag, and every way a create is refused. */

eachDatabase('behaviour tags', (database) => {
  const { api, unique, admin, createCtas, listTags, tagNamed, createTag } = tagSuite(database);

  describe('POST /engine/behaviour-tags', () => {
    it('creates a tag from the shared example and lists it with every field, CTA ids as strings', async () => {
      const tenant = unique('t');
      const [first, second] = await createCtas(tenant, 2);
      const before = api().clock.now();
      const res = await admin(tenant, 'bob').tags.create(listTag('store-nudges', [Number(first), second]));
      const after = api().clock.now();
      expect(res.status).toBe(200);
      expect(res.body).toEqual({});

      const list = await admin(tenant).tags.list();
      expect(list.status).toBe(200);
      expect(list.body).toEqual({
        data: {
          behaviourTags: [
            {
              name: 'store-nudges',
              description: examples.tag.description,
              createdAt: expect.any(Number),
              createdBy: 'bob',
              lastUpdatedAt: expect.any(Number),
              lastUpdatedBy: 'bob',
              exposureRule: examples.tag.exposureRule,
              ctaRelation: { shownCta: { rule: 'LIST', ctaList: [] }, hideCta: { rule: 'LIST', ctaList: [first] } },
              linkedCtas: [first, second].sort((a, b) => Number(a) - Number(b)),
              tenantId: tenant,
            },
          ],
        },
      });
      const [tag] = list.body.data.behaviourTags;
      expect(tag.createdAt).toBeGreaterThanOrEqual(before);
      expect(tag.createdAt).toBeLessThanOrEqual(after);
      expect(tag.lastUpdatedAt).toBe(tag.createdAt);
    });

    it('accepts an empty linked set, no description, ids with leading zeros and repeated ids (a set)', async () => {
      const tenant = unique('t');
      const [id] = await createCtas(tenant, 1);
      await createTag(tenant, 'empty', []);
      const { description: _description, ...body } = listTag('zeros', [`00${id}`, Number(id), id], [`0${id}`]);
      expect((await admin(tenant).tags.create(body)).status).toBe(200);
      expect(await tagNamed(tenant, 'empty')).toMatchObject({ linkedCtas: [], description: examples.tag.description });
      expect(await tagNamed(tenant, 'zeros')).toMatchObject({
        description: null,
        linkedCtas: [id],
        ctaRelation: { hideCta: { rule: 'LIST', ctaList: [id] } },
      });
    });

    it('answers CAMPAIGN_DUPLICATE_NAME for a taken name; names compare exactly', async () => {
      const tenant = unique('t');
      await createTag(tenant, 'promo', []);
      const res = await admin(tenant).tags.create(listTag('promo', []));
      expect(res.status).toBe(400);
      expect(res.body).toEqual(errorBody('CAMPAIGN_DUPLICATE_NAME', "behaviourTagName: a behaviour tag named 'promo' already exists"));
      await createTag(tenant, 'Promo', []);
      expect((await listTags(tenant)).map((tag) => tag.name)).toEqual(['Promo', 'promo']);
      // MySQL/MariaDB would compare 'promo ' equal to 'promo': names never end (or start) with whitespace.
      const padded = await admin(tenant).tags.create(listTag('promo ', []));
      expect(padded.body).toEqual(errorBody('CAMPAIGN_INVALID', 'behaviourTagName must not start or end with whitespace'));
      const update = await admin(tenant).tags.update('promo ', updateBody([]));
      expect(update.body).toEqual(errorBody('CAMPAIGN_INVALID', "behaviour tag 'promo ' does not exist"));
    });

    it('lets two tenants use the same name and the same CTA numbers independently', async () => {
      const [a, b] = [unique('t'), unique('t')];
      const [idA] = await createCtas(a, 1);
      await createTag(a, 'shared', [idA]);
      // The other tenant cannot link tenant a's CTA: it does not exist there.
      const res = await admin(b).tags.create(listTag('shared', [idA]));
      expect(res.status).toBe(400);
      expect(res.body).toEqual(errorBody('CAMPAIGN_INVALID', `linkedCtas: CTA ${idA} does not exist`));
      await createTag(b, 'shared', []);
      expect((await listTags(a)).map((tag) => [tag.name, tag.tenantId, tag.linkedCtas])).toEqual([['shared', a, [idA]]]);
      expect((await listTags(b)).map((tag) => [tag.name, tag.tenantId, tag.linkedCtas])).toEqual([['shared', b, []]]);
    });

    it('requires the user header (INVALID_REQUEST) and writes nothing without it', async () => {
      const tenant = unique('t');
      for (const user of [undefined, '', '   ', 'u'.repeat(256)]) {
        const res = await admin(tenant).tags.create(listTag('no-user', []), { user });
        expect(res.status).toBe(400);
        expect(res.body).toEqual(errorBody('INVALID_REQUEST'));
      }
      expect(await listTags(tenant)).toEqual([]);
    });

    it('answers INVALID_REQUEST for a malformed tenant or malformed JSON', async () => {
      expect((await admin('bad tenant!').tags.create(listTag('x', []))).body).toEqual(errorBody('INVALID_REQUEST'));
      const res = await admin(unique('t')).raw('POST', '/behaviour-tags', { body: '{"behaviourTagName":' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(errorBody('INVALID_REQUEST'));
    });

    it.each<[string, (body: Record<string, any>) => unknown, string]>([
      ['no body fields', () => ({}), 'behaviourTagName'],
      ['an array body', () => [], 'the body must be a JSON object'],
      ['an empty name', (b) => ({ ...b, behaviourTagName: '' }), 'behaviourTagName must be longer than or equal to 1'],
      ['a long name', (b) => ({ ...b, behaviourTagName: 'n'.repeat(256) }), 'behaviourTagName must be shorter than or equal to 255'],
      ['no exposureRule', (b) => ({ ...b, exposureRule: undefined }), 'exposureRule'],
      [
        'a string limit',
        (b) => ({ ...b, exposureRule: { ...b.exposureRule, session: { limit: '1' } } }),
        'exposureRule.session.limit must be an integer number',
      ],
      [
        'a negative limit',
        (b) => ({ ...b, exposureRule: { ...b.exposureRule, lifespan: { limit: -1 } } }),
        'exposureRule.lifespan.limit must not be less than 0',
      ],
      [
        'an unknown unit',
        (b) => ({ ...b, exposureRule: { ...b.exposureRule, window: { limit: 1, unit: 'fortnights', value: 1 } } }),
        'exposureRule.window.unit must be one of',
      ],
      ['no ctaRelation.shownCta', (b) => ({ ...b, ctaRelation: { hideCta: b.ctaRelation.hideCta } }), 'ctaRelation.shownCta'],
      [
        'an unknown relation rule',
        (b) => ({ ...b, ctaRelation: { ...b.ctaRelation, shownCta: { rule: 'ALL', ctaList: [] } } }),
        'ctaRelation.shownCta.rule must be one of',
      ],
      ['no linkedCtas', (b) => ({ ...b, linkedCtas: undefined }), 'linkedCtas is required'],
      ['a non-id in linkedCtas', (b) => ({ ...b, linkedCtas: ['12a'] }), 'linkedCtas must hold only CTA ids'],
      [
        'a boolean in a ctaList',
        (b) => ({ ...b, ctaRelation: { ...b.ctaRelation, hideCta: { rule: 'LIST', ctaList: [true] } } }),
        'ctaRelation.hideCta.ctaList must hold only CTA ids',
      ],
    ])('rejects %s with CAMPAIGN_INVALID naming the field, writing nothing', async (_case, change, message) => {
      const tenant = unique('t');
      const res = await admin(tenant).raw('POST', '/behaviour-tags', { body: change(listTag('invalid', [])) });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('CAMPAIGN_INVALID');
      expect(res.body.error.message).toContain(message);
      expect(await listTags(tenant)).toEqual([]);
    });

    it('rejects linked ids that are not CTAs of the tenant, naming them', async () => {
      const tenant = unique('t');
      const [id] = await createCtas(tenant, 1);
      const res = await admin(tenant).tags.create(listTag('ghost', [id, '999999', 999998]));
      expect(res.status).toBe(400);
      expect(res.body).toEqual(errorBody('CAMPAIGN_INVALID', 'linkedCtas: CTAs 999999, 999998 do not exist'));
      expect(await listTags(tenant)).toEqual([]);
    });

    it('rejects a ctaList id that is not linked, naming the list and the id', async () => {
      const tenant = unique('t');
      const [linked, other] = await createCtas(tenant, 2);
      const res = await admin(tenant).tags.create(listTag('lists', [linked], [linked, other]));
      expect(res.status).toBe(400);
      expect(res.body).toEqual(errorBody('CAMPAIGN_INVALID', `ctaRelation.hideCta.ctaList: CTA ${other} not in linkedCtas`));
      const shown = listTag('lists', [linked]);
      shown.ctaRelation.shownCta = { rule: 'LIST', ctaList: [Number(other)] };
      expect((await admin(tenant).tags.create(shown)).body).toEqual(
        errorBody('CAMPAIGN_INVALID', `ctaRelation.shownCta.ctaList: CTA ${other} not in linkedCtas`),
      );
      expect(await listTags(tenant)).toEqual([]);
    });

    it('rejects a CTA that another tag links, naming the CTA and that tag, and writes nothing', async () => {
      const tenant = unique('t');
      const [taken, free] = await createCtas(tenant, 2);
      await createTag(tenant, 'first owner', [taken]);
      const res = await admin(tenant).tags.create(listTag('second', [free, taken], [free]));
      expect(res.status).toBe(400);
      expect(res.body).toEqual(
        errorBody(
          'CAMPAIGN_INVALID',
          `linkedCtas: CTA ${taken} is already linked to behaviour tag 'first owner' (a CTA belongs to at most one behaviour tag)`,
        ),
      );
      expect((await listTags(tenant)).map((tag) => [tag.name, tag.linkedCtas])).toEqual([['first owner', [taken]]]);
      // The free CTA was not linked by the rejected request.
      await createTag(tenant, 'third', [free]);
    });

    it('links only draft or paused CTAs, naming each other CTA and its status', async () => {
      const tenant = unique('t');
      const [draft, paused, live, concluded, terminated] = await createCtas(tenant, 5);
      await admin(tenant).move(paused, 'live', 'pause');
      await admin(tenant).move(live, 'live');
      await admin(tenant).move(concluded, 'live', 'conclude');
      await admin(tenant).move(terminated, 'terminate');
      const res = await admin(tenant).tags.create(listTag('running', [draft, paused, live, concluded, terminated]));
      expect(res.status).toBe(400);
      expect(res.body).toEqual(
        errorBody(
          'CAMPAIGN_INVALID',
          `linkedCtas: a new behaviour tag can link only draft or paused CTAs; CTA ${live} is live, CTA ${concluded} is concluded, CTA ${terminated} is terminated`,
        ),
      );
      expect(await listTags(tenant)).toEqual([]);
      await createTag(tenant, 'resting', [draft, paused]);
    });

    it('refuses a scheduled CTA', async () => {
      const tenant = unique('t');
      const res = await admin(tenant).ctas.create(ctaBody({ name: unique('scheduled'), startTime: api().clock.now() + 3_600_000 }));
      const id = String(res.body.data);
      await admin(tenant).move(id, 'schedule');
      const tag = await admin(tenant).tags.create(listTag('later', [id]));
      expect(tag.body).toEqual(
        errorBody('CAMPAIGN_INVALID', `linkedCtas: a new behaviour tag can link only draft or paused CTAs; CTA ${id} is scheduled`),
      );
    });
  });
});
