import type { EventDefinitionDto } from '../src/events/dto/event-definition.dto';
import { PeriodicJobsService } from '../src/scheduling/periodic-jobs.service';
import { AdminClient } from './admin-client';
import { auditSuite, expectPatchLeadsToAfter, property } from './audit';
import { ctaBody, examples, tagBody } from './fixtures';
import { HOUR } from './test-clock';
import { eachDatabase, errorBody, TestApp } from './harness';

/** The entry each kind of admin write (CTAs, status changes, test CTAs, tags, events) and the periodic job records. */

eachDatabase('audit history', (database) => {
  let api: TestApp;
  beforeAll(async () => {
    api = await TestApp.start(database);
  });
  afterAll(() => api.close());

  const { adminOf, history, entriesOf, latest } = auditSuite(() => api);

  describe('an entry for each kind of change', () => {
    it('records a CTA create with the record as GET shows it, the key, the user header and the request id', async () => {
      const admin = new AdminClient(api, 'audit-create');
      const sent = api.clock.now();
      const res = await admin.ctas.create(ctaBody(), { 'x-request-id': 'create-request-1' });
      const answered = api.clock.now();
      expect(res.status).toBe(200);
      const record = await admin.get(res.body.data);
      const entries = await entriesOf('audit-create');
      expect(entries).toEqual([
        {
          id: expect.any(Number),
          at: expect.any(Number),
          actor: null,
          user: 'ops@example.com',
          requestId: 'create-request-1',
          entityType: 'cta',
          entityId: String(record.id),
          action: 'create',
          before: null,
          after: record,
          changes: [{ op: 'replace', path: '', value: record }],
        },
      ]);
      expect(entries[0].at).toBeGreaterThanOrEqual(sent);
      expect(entries[0].at).toBeLessThanOrEqual(answered);
    });

    it('records a CTA update with before, after and the patch between them', async () => {
      const admin = new AdminClient(api, 'audit-update');
      const id = await admin.create({ description: 'first', team: 'growth' });
      const before = await admin.get(id);
      api.clock.advance(1000);
      expect((await admin.update(id, { description: 'second', team: 'store' }, { user: 'bob@example.com' })).status).toBe(200);
      const after = await admin.get(id);
      const entry = await latest('audit-update');
      expect(entry).toMatchObject({
        actor: null,
        user: 'bob@example.com',
        entityType: 'cta',
        entityId: String(id),
        action: 'update',
        before,
        after,
      });
      expect(entry.changes).toEqual([
        { op: 'replace', path: '/lastUpdatedBy', value: 'bob@example.com' },
        { op: 'replace', path: '/lastUpdatedAt', value: after.lastUpdatedAt },
        { op: 'replace', path: '/team', value: 'store' },
        { op: 'replace', path: '/description', value: 'second' },
      ]);
      expectPatchLeadsToAfter(entry);
    });

    it('records a rule holding a number JSON cannot write (1e400) as stored, null, and no change where none was made', async () => {
      const admin = new AdminClient(api, 'audit-unwritable-number');
      const id = await admin.create();
      const { name: _name, ...body } = ctaBody({ rule: { ...examples.rule(), huge: 0 } });
      const update = () => api.put(`/engine/ctas/${id}`, JSON.stringify(body).replace('"huge":0', '"huge":1e400'), admin.headers());
      expect((await update()).status).toBe(200);
      expect((await latest('audit-unwritable-number')).after.rule.huge).toBeNull();
      api.clock.advance(1000);
      expect((await update()).status).toBe(200);
      const entry = await latest('audit-unwritable-number');
      expect(entry.changes).toEqual([{ op: 'replace', path: '/lastUpdatedAt', value: entry.after.lastUpdatedAt }]);
      expect(entry.after).toEqual(await admin.get(id));
    });

    it('records status changes by their action, with the optional user header or null', async () => {
      const admin = new AdminClient(api, 'audit-status');
      const id = await admin.create();
      const draft = await admin.get(id);
      expect((await admin.ctas.status(id, 'live', { user: 'carol@example.com' })).status).toBe(200);
      const live = await admin.get(id);
      expect((await admin.status(id, 'pause')).status).toBe(200);
      const paused = await admin.get(id);
      const [pauseEntry, liveEntry] = await entriesOf('audit-status');
      expect(liveEntry).toMatchObject({ action: 'live', user: 'carol@example.com', before: draft, after: live });
      expect(liveEntry.changes).toEqual([
        { op: 'replace', path: '/ctaStatus', value: 'live' },
        { op: 'replace', path: '/startTime', value: live.startTime },
      ]);
      expect(pauseEntry).toMatchObject({ action: 'pause', user: null, actor: null, before: live, after: paused });
      expect(pauseEntry.changes).toEqual([{ op: 'replace', path: '/ctaStatus', value: 'paused' }]);
    });

    it('refuses a blank-but-long user header on a status route like anywhere else', async () => {
      const admin = new AdminClient(api, 'audit-status-user');
      const id = await admin.create();
      const res = await admin.ctas.status(id, 'live', { user: 'u'.repeat(256) });
      expect(res.body).toEqual(errorBody('INVALID_REQUEST', "header 'user' must be at most 255 characters"));
      expect((await admin.get(id)).ctaStatus).toBe('draft');
    });

    it('records test CTA creates, replacements and deletes', async () => {
      const tenant = 'audit-test-ctas';
      const body = { userIds: [987654321, '42'], expiresInMinutes: 60, rule: examples.rule() };
      const first = (await adminOf(tenant).testCtas.create(body, { user: 'qa@example.com' })).body.data;
      const [created] = await entriesOf(tenant);
      expect(created).toMatchObject({
        entityType: 'testCta',
        entityId: String(first),
        action: 'create',
        before: null,
        user: 'qa@example.com',
      });
      expect(created.after).toMatchObject({
        id: first,
        name: `test-${first}`,
        team: 'test',
        ctaStatus: 'live',
        createdBy: 'qa@example.com',
        userIds: ['42', '987654321'],
        rule: { ...examples.rule(), ctaValidTill: created.after.startTime + HOUR },
        tenantId: tenant,
      });
      expect(created.changes).toEqual([{ op: 'replace', path: '', value: created.after }]);

      const second = (await adminOf(tenant).testCtas.create({ ...body, previousCtaId: first }, { user: 'qa@example.com' })).body.data;
      const [secondCreated, replaced] = await entriesOf(tenant);
      expect(replaced).toEqual({
        ...replaced,
        entityId: String(first),
        action: 'delete',
        before: created.after,
        after: null,
        changes: [{ op: 'replace', path: '', value: null }],
      });
      expect(secondCreated).toMatchObject({ entityId: String(second), action: 'create' });

      expect((await adminOf(tenant).testCtas.delete(second)).status).toBe(200);
      const [deleted] = await entriesOf(tenant);
      expect(deleted).toMatchObject({ entityId: String(second), action: 'delete', user: null, before: secondCreated.after, after: null });
    });

    it('records behaviour tag creates and updates with the record as the list shows it', async () => {
      const tenant = 'audit-tags';
      const admin = new AdminClient(api, tenant);
      const [a, b] = [String(await admin.create()), String(await admin.create())];
      expect((await admin.tags.create(tagBody('store-nudges', [a, b]))).status).toBe(200);
      const list = async () => (await admin.tags.list()).body.data.behaviourTags[0];
      const created = await list();
      const [createEntry] = (await admin.tags.history('store-nudges')).body.data.entries;
      expect(createEntry).toMatchObject({
        entityType: 'behaviourTag',
        entityId: 'store-nudges',
        action: 'create',
        before: null,
        after: created,
      });

      api.clock.advance(1000);
      const { behaviourTagName: _name, ...update } = tagBody('store-nudges', [a]);
      update.description = 'one at a time';
      expect((await admin.tags.update('store-nudges', update, { user: 'dave@example.com' })).status).toBe(200);
      const updated = await list();
      const [updateEntry] = (await admin.tags.history('store-nudges')).body.data.entries;
      expect(updateEntry).toMatchObject({ action: 'update', user: 'dave@example.com', before: created, after: updated });
      expect(updateEntry.changes).toEqual([
        { op: 'remove', path: '/linkedCtas/1' },
        { op: 'replace', path: '/lastUpdatedBy', value: 'dave@example.com' },
        { op: 'replace', path: '/lastUpdatedAt', value: updated.lastUpdatedAt },
        { op: 'replace', path: '/description', value: 'one at a time' },
      ]);
      expectPatchLeadsToAfter(updateEntry);
    });

    it('records event definition creates, upsert updates, replacements and deletes', async () => {
      const tenant = 'audit-events';
      const post = (events: EventDefinitionDto[]) => adminOf(tenant).events.upsert({ events });
      expect((await post([{ eventName: 'store_opened', properties: [property('source')] }])).status).toBe(200);
      const stored = { eventName: 'store_opened', properties: [{ ...property('source'), expectedValue: null, description: null }] };
      expect(await latest(tenant)).toMatchObject({
        entityType: 'event',
        entityId: 'store_opened',
        action: 'create',
        before: null,
        after: stored,
      });

      expect(
        (await post([{ eventName: 'store_opened', properties: [property('source'), property('screen')] }, { eventName: 'cart_viewed' }]))
          .status,
      ).toBe(200);
      const [cartCreated, storeUpdated] = await entriesOf(tenant);
      expect(cartCreated).toMatchObject({ entityId: 'cart_viewed', action: 'create', after: { eventName: 'cart_viewed', properties: [] } });
      expect(storeUpdated).toMatchObject({ entityId: 'store_opened', action: 'update', before: stored });
      expect(storeUpdated.changes).toEqual([
        { op: 'add', path: '/properties/1', value: { ...property('screen'), expectedValue: null, description: null } },
      ]);

      expect((await adminOf(tenant).events.replace('store_opened', { properties: [] }, { user: 'erin@example.com' })).status).toBe(200);
      const replaced = await latest(tenant);
      expect(replaced).toMatchObject({
        action: 'update',
        user: 'erin@example.com',
        before: storeUpdated.after,
        after: { eventName: 'store_opened', properties: [] },
      });
      expect(replaced.changes).toEqual([
        { op: 'remove', path: '/properties/1' },
        { op: 'remove', path: '/properties/0' },
      ]);

      expect((await adminOf(tenant).events.delete('store_opened')).status).toBe(200);
      expect(await latest(tenant)).toMatchObject({
        action: 'delete',
        before: replaced.after,
        after: null,
        changes: [{ op: 'replace', path: '', value: null }],
      });
    });
  });

  describe('the periodic job', () => {
    it('records its timed transitions with the actor scheduler', async () => {
      const tenant = 'audit-scheduler';
      const client = new AdminClient(api, tenant);
      const start = api.clock.now() + HOUR;
      const id = await client.create({ startTime: start, endTime: start + HOUR });
      expect((await client.status(id, 'schedule')).status).toBe(200);
      const scheduled = await client.get(id);
      api.clock.advance(HOUR + 1000);
      await api.service(PeriodicJobsService).runAll();
      const live = await client.get(id);
      api.clock.advance(HOUR);
      await api.service(PeriodicJobsService).runAll();
      const concluded = await client.get(id);
      const [concludeEntry, liveEntry] = (await history(tenant, id)).body.data.entries;
      expect(liveEntry).toMatchObject({ actor: 'scheduler', user: null, requestId: null, action: 'live', before: scheduled, after: live });
      expect(liveEntry.changes).toEqual([{ op: 'replace', path: '/ctaStatus', value: 'live' }]);
      expect(concludeEntry).toMatchObject({ actor: 'scheduler', action: 'conclude', before: live, after: concluded });
      expect((await entriesOf(tenant, '&actor=scheduler')).length).toBe(2);
    });
  });
});
