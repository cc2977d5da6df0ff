import { DataSource } from 'typeorm';
import type { CreateCohortDto } from '../src/cohorts/dto/cohort-body.dto';
import { AdminClient } from './admin-client';
import { auditSuite, property, ruleFor } from './audit';
import { BELOW_5_2 } from './cohorts';
import { ctaBody, examples, tagBody } from './fixtures';
import { eachDatabase, errorBody, TestApp } from './harness';

/** A refused request writes no entry; a change and its entry commit or roll back together. */

eachDatabase('audit history', (database) => {
  let api: TestApp;
  beforeAll(async () => {
    api = await TestApp.start(database);
  });
  afterAll(() => api.close());

  const { audit, entriesOf, cohortOf, members } = auditSuite(() => api);

  describe('refused requests', () => {
    it('write no entry', async () => {
      const tenant = 'audit-refused';
      const admin = new AdminClient(api, tenant);
      const id = await admin.create({ name: 'taken' });
      const count = async () => (await audit(tenant)).body.data.totalEntries;
      expect(await count()).toBe(1);
      const refusals = [
        await admin.ctas.create(ctaBody({ name: 'taken' })),
        await admin.ctas.create(ctaBody({ team: '' })),
        await admin.update(id, { rule: { ...examples.rule(), priority: 'high' } }),
        await admin.status(id, 'pause'),
        await admin.status(id, 'conclude'),
        await admin.update(999999),
        await admin.testCtas.create({ userIds: [], expiresInMinutes: 60, rule: examples.rule() }),
        await admin.testCtas.delete(999999),
        await admin.tags.create(tagBody('t', ['999999'])),
        await admin.tags.update('missing', { ...tagBody('missing', []), behaviourTagName: undefined }),
        await admin.events.upsert({ events: [{ eventName: 'e', properties: [property('p'), property('p')] }] }),
        await admin.events.replace('missing', { properties: [] }),
        await admin.events.delete('missing'),
      ];
      for (const refusal of refusals) {
        expect(refusal.status).toBeGreaterThanOrEqual(400);
      }
      expect(await count()).toBe(1);
    });

    it('write no entry for refused cohort changes', async () => {
      const tenant = 'audit-cohorts-refused';
      const admin = new AdminClient(api, tenant);
      const post = (body: CreateCohortDto) => admin.cohorts.create(body);
      expect((await post({ name: 'staff', kind: 'static' })).status).toBe(200);
      expect((await post({ name: 'staff-on-old', kind: 'rule', rule: { all: [{ cohort: 'staff' }, ...BELOW_5_2.all] } })).status).toBe(200);
      expect((await post({ name: 'paying', kind: 'static' })).status).toBe(200);
      expect((await members(tenant, 'POST', 'paying', { userIds: [1] })).status).toBe(200);
      const live = await admin.create({ rule: ruleFor('paying') });
      expect((await admin.status(live, 'live')).status).toBe(200);
      const count = async () => (await audit(tenant)).body.data.totalEntries;
      expect(await count()).toBe(6);
      const refusals = [
        [await post({ name: 'staff', kind: 'static' }), 'COHORT_DUPLICATE_NAME'],
        [await post({ name: 'all', kind: 'static' }), 'INVALID_REQUEST'],
        [await post({ name: 'no-rule', kind: 'rule' }), 'INVALID_REQUEST'],
        [await admin.raw('PUT', '/cohorts/staff', { body: { kind: 'rule' } }), 'INVALID_REQUEST'],
        [await admin.cohorts.update('missing', { description: 'x' }), 'COHORT_NOT_FOUND'],
        [await admin.cohorts.delete('staff'), 'COHORT_IN_USE'],
        [await admin.cohorts.delete('paying'), 'COHORT_IN_USE'],
        [await admin.cohorts.delete('missing'), 'COHORT_NOT_FOUND'],
        [await members(tenant, 'PUT', 'paying', 'userId\n2\nabc\n3\n'), 'INVALID_REQUEST'],
        [await members(tenant, 'POST', 'paying', { userIds: [2, 'x'] }), 'INVALID_REQUEST'],
        [await members(tenant, 'DELETE', 'paying', '1\n'), 'UNSUPPORTED_MEDIA_TYPE'],
        [await members(tenant, 'POST', 'staff-on-old', { userIds: [2] }), 'INVALID_REQUEST'],
        [await members(tenant, 'POST', 'missing', { userIds: [2] }), 'COHORT_NOT_FOUND'],
      ] as const;
      for (const [refusal, code] of refusals) {
        expect(refusal.body).toEqual(errorBody(code));
      }
      expect(await count()).toBe(6);
      expect((await cohortOf(tenant, 'paying')).memberCount).toBe(1);
    });
  });

  describe('a change and its entry commit or fail together', () => {
    /** Runs `attempt` while the audit table is away, so every entry insert fails. */
    async function withoutAuditTable(attempt: () => Promise<void>): Promise<void> {
      const dataSource = api.service(DataSource);
      await dataSource.query('ALTER TABLE audit_entries RENAME TO audit_entries_away');
      try {
        await attempt();
      } finally {
        await dataSource.query('ALTER TABLE audit_entries_away RENAME TO audit_entries');
      }
    }

    it('rolls every kind of change back when its entry cannot be written', async () => {
      const tenant = 'audit-atomic';
      const admin = new AdminClient(api, tenant);
      const id = await admin.create({ description: 'kept' });
      const other = String(await admin.create());
      expect((await admin.events.upsert({ events: [{ eventName: 'kept', properties: [] }] })).status).toBe(200);
      const testCta = (await admin.testCtas.create({ userIds: [1], expiresInMinutes: 60, rule: examples.rule() })).body.data;
      const before = await entriesOf(tenant);

      await withoutAuditTable(async () => {
        const failures = [
          await admin.ctas.create(ctaBody({ name: 'never-created' })),
          await admin.update(id, { description: 'never written' }),
          await admin.status(id, 'live'),
          await admin.testCtas.create({ userIds: [1], expiresInMinutes: 60, rule: examples.rule(), previousCtaId: testCta }),
          await admin.testCtas.delete(testCta),
          await admin.tags.create(tagBody('never-created', [other])),
          await admin.events.upsert({ events: [{ eventName: 'never-created', properties: [] }] }),
          await admin.events.replace('kept', { properties: [property('never')] }),
          await admin.events.delete('kept'),
        ];
        for (const failure of failures) {
          expect(failure.body).toEqual(errorBody('INTERNAL_ERROR', 'internal error'));
        }
      });

      expect((await admin.list('?name=never-created')).body.data.totalEntries).toBe(0);
      expect(await admin.get(id)).toMatchObject({ description: 'kept', ctaStatus: 'draft', lastUpdatedAt: null });
      expect((await admin.tags.list()).body.data.behaviourTags).toEqual([]);
      expect((await admin.events.list()).body.data.eventList).toEqual([{ eventName: 'kept', properties: [] }]);
      // The test CTA is still there: deleting it now succeeds.
      expect((await admin.testCtas.delete(testCta)).status).toBe(200);
      expect((await entriesOf(tenant)).slice(1)).toEqual(before);
    });

    it('rolls every kind of cohort change back when its entry cannot be written', async () => {
      const tenant = 'audit-atomic-cohorts';
      const admin = new AdminClient(api, tenant);
      expect((await admin.cohorts.create({ name: 'kept', description: 'kept', kind: 'static' })).status).toBe(200);
      expect((await members(tenant, 'POST', 'kept', { userIds: [1, 2] })).status).toBe(200);
      const kept = await cohortOf(tenant, 'kept');
      const before = await entriesOf(tenant);

      await withoutAuditTable(async () => {
        const failures = [
          await admin.cohorts.create({ name: 'never-created', kind: 'static' }),
          await admin.cohorts.update('kept', { description: 'never written' }),
          await members(tenant, 'POST', 'kept', { userIds: [3] }),
          await members(tenant, 'PUT', 'kept', 'userId\n7\n8\n9\n'),
          await members(tenant, 'DELETE', 'kept', { userIds: [1] }),
          await admin.cohorts.delete('kept'),
        ];
        for (const failure of failures) {
          expect(failure.body).toEqual(errorBody('INTERNAL_ERROR', 'internal error'));
        }
      });

      expect((await admin.cohorts.list()).body.data.cohorts).toEqual([kept]);
      const memberOf = async (userId: number) => (await admin.cohorts.member('kept', userId)).body.data.member;
      expect([await memberOf(1), await memberOf(2), await memberOf(3), await memberOf(7)]).toEqual([true, true, false, false]);
      expect(await entriesOf(tenant)).toEqual(before);
    });
  });
});
