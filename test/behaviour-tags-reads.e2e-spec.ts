import { CatalogueRevisionService } from '../src/catalogue/catalogue-revision.service';
import { examples } from './fixtures';
import { listTag, tagSuite, updateBody } from './behaviour-tags';
import { eachDatabase, errorBody } from './harness';
import { SdkClient } from './sdk-client';

/** How tags are read: `GET /engine/behaviour-tags`, the catalogue the SDK launch serves, and the CTA reads naming them. */

eachDatabase('behaviour tags', (database) => {
  const { api, unique, admin, createCtas, listTags, createTag } = tagSuite(database);

  describe('GET /engine/behaviour-tags', () => {
    it('answers an empty list for a tenant without tags, and lists by name', async () => {
      const tenant = unique('t');
      expect((await admin(tenant).tags.list()).body).toEqual({ data: { behaviourTags: [] } });
      for (const name of ['beta', 'Alpha', 'alpha', 'ß-tag', '10', '9']) {
        await createTag(tenant, name, []);
      }
      expect((await listTags(tenant)).map((tag) => tag.name)).toEqual(['10', '9', 'Alpha', 'alpha', 'beta', 'ß-tag']);
    });

    it('uses the default tenant without x-tenant-id and rejects a malformed one', async () => {
      const defaultTenant = admin('default', 'alice');
      await defaultTenant.tags.create(listTag('default-tenant-tag', []), { 'x-tenant-id': undefined });
      expect(
        (await defaultTenant.tags.list({ 'x-tenant-id': undefined })).body.data.behaviourTags.map((tag) => [tag.name, tag.tenantId]),
      ).toContainEqual(['default-tenant-tag', 'default']);
      const res = await admin('no spaces').tags.list();
      expect(res.status).toBe(400);
      expect(res.body).toEqual(errorBody('INVALID_REQUEST'));
    });
  });

  describe('catalogue', () => {
    it('bumps the tenant catalogue revision on each tag write, not on a rejected one', async () => {
      const tenant = unique('t');
      const revisions = api().service(CatalogueRevisionService);
      const [id] = await createCtas(tenant, 1);
      const start = await revisions.current(tenant);
      await createTag(tenant, 'rev', [id]);
      expect(await revisions.current(tenant)).toBe(start + 1);
      expect((await admin(tenant).tags.update('rev', updateBody([]))).status).toBe(200);
      expect(await revisions.current(tenant)).toBe(start + 2);
      expect((await admin(tenant).tags.create(listTag('rev', []))).status).toBe(400);
      expect((await admin(tenant).tags.update('rev', updateBody(['777777']))).status).toBe(400);
      expect(await revisions.current(tenant)).toBe(start + 2);
    });

    it('serves the tag to devices with the CTAs it links once they go live', async () => {
      const tenant = unique('t');
      const [tagged, untagged] = await createCtas(tenant, 2);
      await createTag(tenant, 'store-nudges', [tagged]);
      await admin(tenant).move(tagged, 'live');
      await admin(tenant).move(untagged, 'live');
      const res = await new SdkClient(api(), tenant, '77').launch({});
      expect(res.status).toBe(200);
      const byId = new Map(res.body.data.ctas.map((cta) => [cta.ctaId, cta.behaviourTagName]));
      expect(byId).toEqual(
        new Map([
          [tagged, 'store-nudges'],
          [untagged, null],
        ]),
      );
      expect(res.body.data.behaviourTags).toEqual([
        {
          behaviourTagName: 'store-nudges',
          exposureRule: { ...examples.tag.exposureRule, ctasResetAt: [] },
          ctaRelation: { shownCta: { rule: 'LIST', ctaList: [] }, hideCta: { rule: 'LIST', ctaList: [tagged] }, activeCtas: [] },
        },
      ]);
    });
  });

  describe('CTA reads', () => {
    it('GET /engine/ctas/{id} names the linking tag, and the list filters by tag', async () => {
      const tenant = unique('t');
      const [tagged, other, untagged] = await createCtas(tenant, 3);
      await createTag(tenant, 'reads tag', [tagged, other]);
      expect((await admin(tenant).ctas.get(tagged)).body.data.behaviourTags).toEqual(['reads tag']);
      expect((await admin(tenant).ctas.get(untagged)).body.data.behaviourTags).toEqual([]);

      const list = await admin(tenant).ctas.list({ behaviourTag: 'reads tag' });
      expect(list.status).toBe(200);
      expect(list.body.data.ctas.map((cta) => String(cta.id)).sort()).toEqual([tagged, other].sort());
      expect(list.body.data.totalEntries).toBe(2);

      // After an update the reads follow the new linked set at once.
      expect((await admin(tenant).tags.update('reads tag', updateBody([untagged]))).status).toBe(200);
      expect((await admin(tenant).ctas.get(tagged)).body.data.behaviourTags).toEqual([]);
      expect((await admin(tenant).ctas.get(untagged)).body.data.behaviourTags).toEqual(['reads tag']);
      const after = await admin(tenant).ctas.list({ behaviourTag: 'reads tag' });
      expect(after.body.data.ctas.map((cta) => String(cta.id))).toEqual([untagged]);

      // Another tenant's filter by the same name finds nothing.
      const elsewhere = await admin(unique('t')).ctas.list({ behaviourTag: 'reads tag' });
      expect(elsewhere.body.data.ctas).toEqual([]);
    });
  });
});
