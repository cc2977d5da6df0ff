import { type MemberUpload, AdminClient } from './admin-client';
import { auditSuite, expectPatchLeadsToAfter, ruleFor } from './audit';
import { BELOW_5_2 } from './cohorts';
import { eachDatabase, TestApp } from './harness';

/** The entries of cohort writes: definitions, and member changes recorded as counts. */

eachDatabase('audit history', (database) => {
  let api: TestApp;
  beforeAll(async () => {
    api = await TestApp.start(database);
  });
  afterAll(() => api.close());

  const { entriesOf, latest, cohortOf, members } = auditSuite(() => api);

  describe('cohorts', () => {
    const tenant = 'audit-cohorts';

    it('records cohort creates, updates and deletes with the record as GET shows it', async () => {
      const admin = new AdminClient(api, tenant);
      const sent = api.clock.now();
      const res = await admin.cohorts.create(
        { name: 'beta', description: 'the beta', kind: 'static' },
        { 'x-request-id': 'cohort-request-1' },
      );
      expect(res.status).toBe(200);
      const created = await cohortOf(tenant, 'beta');
      const [createEntry] = await entriesOf(tenant);
      expect(createEntry).toEqual({
        id: expect.any(Number),
        at: expect.any(Number),
        actor: null,
        user: 'ops@example.com',
        requestId: 'cohort-request-1',
        entityType: 'cohort',
        entityId: 'beta',
        action: 'create',
        before: null,
        after: created,
        changes: [{ op: 'replace', path: '', value: created }],
      });
      expect(createEntry.at).toBeGreaterThanOrEqual(sent);

      // A CTA naming the cohort shows in the record's usedBy, read in the write's transaction.
      const ctaId = await admin.create({ rule: ruleFor('beta') });
      api.clock.advance(1000);
      expect((await admin.cohorts.update('beta', { description: 'the 2026 beta' }, { user: 'frank@example.com' })).status).toBe(200);
      const updated = await cohortOf(tenant, 'beta');
      expect(updated.usedBy).toEqual([String(ctaId)]);
      const updateEntry = await latest(tenant);
      expect(updateEntry).toMatchObject({
        user: 'frank@example.com',
        entityType: 'cohort',
        entityId: 'beta',
        action: 'update',
        before: { ...created, usedBy: [String(ctaId)] },
        after: updated,
      });
      expect(updateEntry.changes).toEqual([
        { op: 'replace', path: '/lastUpdatedBy', value: 'frank@example.com' },
        { op: 'replace', path: '/lastUpdatedAt', value: updated.lastUpdatedAt },
        { op: 'replace', path: '/description', value: 'the 2026 beta' },
      ]);
      expectPatchLeadsToAfter(updateEntry);

      expect((await admin.cohorts.create({ name: 'old-apps', kind: 'rule', rule: BELOW_5_2 })).status).toBe(200);
      const rule = await cohortOf(tenant, 'old-apps');
      expect(rule.rule).toEqual(BELOW_5_2);
      expect(await latest(tenant)).toMatchObject({ entityId: 'old-apps', action: 'create', before: null, after: rule });
      const newRule = { all: [{ attribute: 'appVersion', op: 'semverLt', value: '6.0' }] };
      expect((await admin.cohorts.update('old-apps', { rule: newRule })).status).toBe(200);
      const ruleUpdate = await latest(tenant);
      expect(ruleUpdate).toMatchObject({ entityId: 'old-apps', action: 'update', before: rule, after: await cohortOf(tenant, 'old-apps') });
      expect(ruleUpdate.changes).toContainEqual({ op: 'replace', path: '/rule/all/0/value', value: '6.0' });
      expectPatchLeadsToAfter(ruleUpdate);

      expect((await admin.cohorts.delete('old-apps', { user: 'gina@example.com' })).status).toBe(200);
      expect(await latest(tenant)).toMatchObject({
        user: 'gina@example.com',
        entityId: 'old-apps',
        action: 'delete',
        before: ruleUpdate.after,
        after: null,
        changes: [{ op: 'replace', path: '', value: null }],
      });
    });

    it('records member changes (JSON and CSV) as counts, not ids', async () => {
      const memberTenant = 'audit-cohort-members';
      expect((await new AdminClient(api, memberTenant).cohorts.create({ name: 'list', kind: 'static' })).status).toBe(200);
      const change = async (method: 'POST' | 'PUT' | 'DELETE', body: MemberUpload, answer: object, user = 'ops@example.com') => {
        const res = await members(memberTenant, method, 'list', body, { user, 'x-request-id': `members-${method}` });
        expect(res.body).toEqual({ data: answer });
        return latest(memberTenant);
      };

      expect(await change('POST', { userIds: [1, '2', 3] }, { added: 3, removed: 0, memberCount: 3 })).toEqual({
        id: expect.any(Number),
        at: expect.any(Number),
        actor: null,
        user: 'ops@example.com',
        requestId: 'members-POST',
        entityType: 'cohort',
        entityId: 'list',
        action: 'members',
        before: { memberCount: 0 },
        after: { memberCount: 3, added: 3, removed: 0 },
        changes: [
          { op: 'replace', path: '/memberCount', value: 3 },
          { op: 'add', path: '/added', value: 3 },
          { op: 'add', path: '/removed', value: 0 },
        ],
      });
      const replaced = await change('PUT', 'userId\n2\n3\n4\n5\n', { added: 2, removed: 1, memberCount: 4 }, 'hank@example.com');
      expect(replaced).toMatchObject({
        user: 'hank@example.com',
        action: 'members',
        before: { memberCount: 3 },
        after: { memberCount: 4, added: 2, removed: 1 },
      });
      expect(replaced.changes).toEqual([
        { op: 'replace', path: '/memberCount', value: 4 },
        { op: 'add', path: '/added', value: 2 },
        { op: 'add', path: '/removed', value: 1 },
      ]);
      expect(await change('POST', '6\n2\n', { added: 1, removed: 0, memberCount: 5 })).toMatchObject({
        before: { memberCount: 4 },
        after: { memberCount: 5, added: 1, removed: 0 },
      });
      expect(await change('DELETE', { userIds: [5, 99] }, { added: 0, removed: 1, memberCount: 4 })).toMatchObject({
        before: { memberCount: 5 },
        after: { memberCount: 4, added: 0, removed: 1 },
      });

      const entries = await entriesOf(memberTenant, '&entityType=cohort&entityId=list');
      expect(entries.map((entry) => entry.action)).toEqual(['members', 'members', 'members', 'members', 'create']);
      expect(JSON.stringify(entries.slice(0, 4))).not.toMatch(/userIds/);
      expect((await entriesOf(memberTenant, '&action=members')).length).toBe(4);
    });

    it('filters the history by entityType=cohort and a cohort name', async () => {
      const all = await entriesOf(tenant);
      expect(all.map((entry) => [entry.entityType, entry.action])).toEqual([
        ['cohort', 'delete'],
        ['cohort', 'update'],
        ['cohort', 'create'],
        ['cohort', 'update'],
        ['cta', 'create'],
        ['cohort', 'create'],
      ]);
      expect(await entriesOf(tenant, '&entityType=cohort')).toEqual(all.filter((entry) => entry.entityType === 'cohort'));
      expect((await entriesOf(tenant, '&entityType=cohort&entityId=beta')).map((entry) => entry.action)).toEqual(['update', 'create']);
      expect(await entriesOf(tenant, '&entityType=cohort&entityId=missing')).toEqual([]);
    });
  });
});
