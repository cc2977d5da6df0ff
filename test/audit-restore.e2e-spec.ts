import { AdminClient } from './admin-client';
import { auditSuite, expectPatchLeadsToAfter } from './audit';
import { examples } from './fixtures';
import { HOUR } from './test-clock';
import { eachDatabase, errorBody, TestApp } from './harness';

/** `POST /engine/ctas/{id}/restore/{auditId}`: putting a CTA back to a version in its history. */

eachDatabase('audit history', (database) => {
  let api: TestApp;
  beforeAll(async () => {
    api = await TestApp.start(database);
  });
  afterAll(() => api.close());

  const { adminOf, history, entriesOf } = auditSuite(() => api);

  describe('restore', () => {
    const tenant = 'audit-restore';
    const ctas = () => new AdminClient(api, tenant);
    const restore = (id: number | string, auditId: number | string, tenantId = tenant) =>
      adminOf(tenantId).ctas.restore(id, auditId, { user: 'restorer@example.com' });

    it('brings back the first version of a paused CTA edited twice, gone live and paused (the history shows who changed what)', async () => {
      const client = ctas();
      const original = examples.rule();
      const id = await client.create({ rule: original, team: 'growth' });
      await client.status(id, 'live');
      await client.status(id, 'pause');
      expect((await client.update(id, { rule: { ...original, priority: 7 }, team: 'store' })).status).toBe(200);
      expect((await client.update(id, { rule: { ...original, priority: 9 }, team: 'store' })).status).toBe(200);
      await client.status(id, 'live');
      await client.status(id, 'pause');
      const page = (await history(tenant, id)).body.data;
      expect(page.entries.slice(0, 4).map((entry: any) => [entry.action, entry.user])).toEqual([
        ['pause', null],
        ['live', null],
        ['update', 'ops@example.com'],
        ['update', 'ops@example.com'],
      ]);
      expect(page.entries[2].changes).toContainEqual({ op: 'replace', path: '/rule/priority', value: 9 });
      const created = page.entries[page.entries.length - 1];
      expect(created.action).toBe('create');
      // The first version has no start; the paused CTA keeps the one going live gave it (a null start keeps it).
      expect(created.after).toMatchObject({ startTime: null });
      const { startTime } = await client.get(id);
      expect(startTime).toEqual(expect.any(Number));

      const res = await restore(id, created.id);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({});
      const restored = await client.get(id);
      expect(restored).toMatchObject({
        rule: { ...original, ctaValidTill: null },
        team: 'growth',
        ctaStatus: 'paused',
        startTime,
        lastUpdatedBy: 'restorer@example.com',
      });
      const [entry] = (await history(tenant, id)).body.data.entries;
      expect(entry).toMatchObject({ action: 'restore', user: 'restorer@example.com', after: restored });
      expectPatchLeadsToAfter(entry);
    });

    it('restores a draft CTA to an update entry', async () => {
      const client = ctas();
      const id = await client.create({ description: 'one' });
      await client.update(id, { description: 'two' });
      await client.update(id, { description: 'three' });
      const [, two] = (await history(tenant, id)).body.data.entries;
      expect((await restore(id, two.id)).status).toBe(200);
      expect((await client.get(id)).description).toBe('two');
    });

    // Live and scheduled CTAs take a restore that keeps their state graph: test/live-edits.e2e-spec.ts.
    it.each([
      ['concluded', ['live', 'conclude']],
      ['terminated', ['terminate']],
    ])('refuses a %s CTA like an update, and records nothing', async (status, actions) => {
      const client = ctas();
      const id = await client.create({ startTime: api.clock.now() + HOUR });
      for (const action of actions) {
        expect((await client.status(id, action)).status).toBe(200);
      }
      const entries = (await history(tenant, id)).body.data.entries;
      const res = await restore(id, entries[entries.length - 1].id);
      expect(res.body).toEqual(
        errorBody('CTA_STATUS_UPDATE_INVALID', `CTA ${id} is ${status}; concluded and terminated CTAs cannot be edited`),
      );
      expect((await history(tenant, id)).body.data.entries).toEqual(entries);
    });

    it('refuses a version whose times no longer pass the update rules', async () => {
      const client = ctas();
      const id = await client.create({ startTime: api.clock.now() + HOUR });
      const [created] = (await history(tenant, id)).body.data.entries;
      await client.update(id, { startTime: null });
      api.clock.advance(2 * HOUR);
      const res = await restore(id, created.id);
      expect(res.body).toEqual(errorBody('INVALID_REQUEST', expect.stringMatching(/^startTime must lie between/)));
      expect((await client.get(id)).startTime).toBeNull();
    });

    it('refuses an unknown, malformed, foreign or other-tenant audit id with INVALID_REQUEST, and an unknown CTA with CTA_ID_INVALID', async () => {
      const client = ctas();
      const id = await client.create();
      const otherId = await client.create();
      const [otherEntry] = (await history(tenant, otherId)).body.data.entries;
      await adminOf(tenant).events.upsert({ events: [{ eventName: 'e' }] });
      const [eventEntry] = await entriesOf(tenant, '&entityType=event');
      const foreignTenant = new AdminClient(api, 'audit-restore-other');
      const foreignId = await foreignTenant.create();
      const [foreignEntry] = (await history('audit-restore-other', foreignId)).body.data.entries;
      for (const auditId of [999999999, 'abc', otherEntry.id, eventEntry.id, foreignEntry.id]) {
        expect((await restore(id, auditId)).body).toEqual(
          errorBody('INVALID_REQUEST', `audit entry '${auditId}' is not an entry of CTA ${id}`),
        );
      }
      expect((await restore(foreignId, foreignEntry.id)).body).toEqual(errorBody('CTA_ID_INVALID', `CTA ${foreignId} does not exist`));
      expect((await restore(999999999, otherEntry.id)).body).toEqual(errorBody('CTA_ID_INVALID'));
      expect((await adminOf(tenant).ctas.restore(id, otherEntry.id)).body).toEqual(
        errorBody('INVALID_REQUEST', "header 'user' is required"),
      );
    });

    it('lives beside the status routes without colliding', async () => {
      const client = ctas();
      const id = await client.create();
      expect((await adminOf(tenant).ctas.status(id, 'restore')).body).toEqual(errorBody('CTA_STATUS_INVALID'));
      expect((await adminOf(tenant).raw('POST', `/ctas/${id}/live`)).status).toBe(404);
      expect((await adminOf(tenant).raw('PUT', `/ctas/${id}/restore/1`)).status).toBe(404);
    });
  });
});
