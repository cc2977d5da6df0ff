import { DataSource } from 'typeorm';
import { examples } from './fixtures';
import { listTag, tagSuite, updateBody } from './behaviour-tags';
import { eachDatabase, errorBody } from './harness';
import { untilAnotherTransactionWaits } from './lock-waits';

/** Behaviour tag creates and updates racing for the same CTA or name. */

eachDatabase('behaviour tags', (database) => {
  const { api, unique, admin, createCtas, listTags, tagNamed, createTag } = tagSuite(database);

  describe('concurrency', () => {
    it('of two tags claiming the same CTA exactly one wins; the other is told which tag has it', async () => {
      const tenant = unique('t');
      for (let round = 0; round < 5; round++) {
        const [contested, a, b] = await createCtas(tenant, 3);
        const names = [unique('left'), unique('right')];
        const results = await Promise.all([
          admin(tenant).tags.create(listTag(names[0], [a, contested])),
          admin(tenant).tags.create(listTag(names[1], [contested, b])),
        ]);
        const winners = results.filter((res) => res.status === 200);
        expect(winners).toHaveLength(1);
        const winner = names[results.indexOf(winners[0])];
        const loser = results.find((res) => res.status !== 200)!;
        expect(loser.status).toBe(400);
        expect(loser.body).toEqual(
          errorBody(
            'CAMPAIGN_INVALID',
            `linkedCtas: CTA ${contested} is already linked to behaviour tag '${winner}' (a CTA belongs to at most one behaviour tag)`,
          ),
        );
        const tags = await listTags(tenant);
        expect(tags.filter((tag) => tag.linkedCtas.includes(contested)).map((tag) => tag.name)).toEqual([winner]);
        expect(tags.map((tag) => tag.name)).not.toContain(names.find((name) => name !== winner));
      }
    });

    it('of an update and a create claiming the same CTA exactly one wins', async () => {
      const tenant = unique('t');
      for (let round = 0; round < 5; round++) {
        const [contested] = await createCtas(tenant, 1);
        const existing = unique('existing');
        await createTag(tenant, existing, []);
        const created = unique('created');
        const results = await Promise.all([
          admin(tenant).tags.update(existing, updateBody([contested])),
          admin(tenant).tags.create(listTag(created, [contested])),
        ]);
        expect(results.map((res) => res.status).sort()).toEqual([200, 400]);
        const owners = (await listTags(tenant)).filter((tag) => tag.linkedCtas.includes(contested));
        expect(owners).toHaveLength(1);
        expect(results.find((res) => res.status === 400)!.body.error.message).toContain(
          `CTA ${contested} is already linked to behaviour tag '${owners[0].name}'`,
        );
      }
    });

    // Deterministic on MySQL/MariaDB: another writer holds the CTA's row while the update waits, links the CTA
    // and commits; the update's earlier snapshot cannot see that link, so the (tenant, CTA) key refuses it.
    (database === 'mysql' ? it : it.skip)('lets the (tenant, CTA) key refuse a link that a check could not see', async () => {
      const tenant = unique('t');
      const [contested] = await createCtas(tenant, 1);
      await createTag(tenant, 'slow', []);
      const writer = api().service(DataSource).createQueryRunner();
      await writer.connect();
      try {
        await writer.startTransaction();
        await writer.query('SELECT id FROM ctas WHERE tenant_id = ? AND id = ? FOR UPDATE', [tenant, Number(contested)]);
        const update = admin(tenant).tags.update('slow', updateBody([contested]));
        // The update has read its snapshot and now waits for the CTA's row.
        await untilAnotherTransactionWaits(writer);
        await writer.query('INSERT INTO behaviour_tag_ctas (tenant_id, cta_id, tag_name) VALUES (?, ?, ?)', [
          tenant,
          Number(contested),
          'fast',
        ]);
        await writer.commitTransaction();
        const res = await update;
        expect(res.status).toBe(400);
        expect(res.body).toEqual(
          errorBody(
            'CAMPAIGN_INVALID',
            `linkedCtas: CTA ${contested} is already linked to behaviour tag 'fast' (a CTA belongs to at most one behaviour tag)`,
          ),
        );
        expect(await tagNamed(tenant, 'slow')).toMatchObject({ linkedCtas: [] });
      } finally {
        await writer.release();
      }
    });

    (database === 'mysql' ? it : it.skip)('lets the name key refuse a create whose check ran before the other commit', async () => {
      const tenant = unique('t');
      const writer = api().service(DataSource).createQueryRunner();
      await writer.connect();
      try {
        await writer.startTransaction();
        await writer.query(
          'INSERT INTO behaviour_tags (tenant_id, name, description, exposure_rule, cta_relation, created_at, created_by) VALUES (?, ?, NULL, ?, ?, 1, ?)',
          [tenant, 'contested', JSON.stringify(examples.tag.exposureRule), JSON.stringify(listTag('x', []).ctaRelation), 'other'],
        );
        const create = admin(tenant).tags.create(listTag('contested', []));
        // The create's name check found nothing; its insert now waits at the name key for our row.
        await untilAnotherTransactionWaits(writer);
        await writer.commitTransaction();
        const res = await create;
        expect(res.body).toEqual(
          errorBody('CAMPAIGN_DUPLICATE_NAME', "behaviourTagName: a behaviour tag named 'contested' already exists"),
        );
        expect((await listTags(tenant)).map((tag) => tag.createdBy)).toEqual(['other']);
      } finally {
        await writer.release();
      }
    });

    it('of two creates with one name exactly one wins; the other gets CAMPAIGN_DUPLICATE_NAME', async () => {
      const tenant = unique('t');
      for (let round = 0; round < 5; round++) {
        const [a, b] = await createCtas(tenant, 2);
        const name = unique('same');
        const results = await Promise.all([
          admin(tenant, 'first').tags.create(listTag(name, [a])),
          admin(tenant, 'second').tags.create(listTag(name, [b])),
          admin(tenant, 'third').tags.create(listTag(name, [])),
        ]);
        expect(results.map((res) => res.status).sort()).toEqual([200, 400, 400]);
        for (const loser of results.filter((res) => res.status === 400)) {
          expect(loser.body).toEqual(
            errorBody('CAMPAIGN_DUPLICATE_NAME', `behaviourTagName: a behaviour tag named '${name}' already exists`),
          );
        }
        const tag = await tagNamed(tenant, name);
        const winner = ['first', 'second', 'third'][results.findIndex((res) => res.status === 200)];
        expect(tag.createdBy).toBe(winner);
        // The losers' CTAs stayed free.
        const linked = (await listTags(tenant)).flatMap((each) => each.linkedCtas);
        expect(linked.filter((id) => id === a || id === b)).toEqual(tag.linkedCtas);
      }
    });
  });
});
