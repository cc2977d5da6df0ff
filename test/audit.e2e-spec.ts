import { type AdminHeaders, AdminClient, type MemberUpload } from './admin-client';
import { ctaBody, examples, tagBody } from './fixtures';
import { applyPatch, deepClone } from 'fast-json-patch';
import { DataSource } from 'typeorm';
import type { AuditEntry } from '../src/audit/audit.types';
import type { CohortRecord } from '../src/cohorts/cohort-record';
import type { CreateCohortDto } from '../src/cohorts/dto/cohort-body.dto';
import type { EventDefinitionDto } from '../src/events/dto/event-definition.dto';
import { PeriodicJobsService } from '../src/common/periodic-jobs.service';
import { eachDatabase, errorBody, TestApp } from './harness';

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

const property = (propertyName: string) => ({ propertyName, type: 'string', isMandatory: true });

const BELOW_5_2 = { all: [{ attribute: 'appVersion', op: 'semverLt', value: '5.2' }] };
/** A CTA rule whose audience is the cohort `name`. */
const ruleFor = (name: string) => ({ ...examples.rule(), cohortEligibility: { includes: [name], excludes: [] } });

/** Applying an entry's patch to its `before` gives its `after`: the patch is the whole story. */
const expectPatchLeadsToAfter = (entry: AuditEntry): void => {
  expect(applyPatch(deepClone(entry.before), deepClone(entry.changes)).newDocument).toEqual(entry.after);
};

eachDatabase('audit history', (database) => {
  let api: TestApp;
  beforeAll(async () => {
    api = await TestApp.start(database);
  });
  afterAll(() => api.close());

  /** The tenant's admin API without the (optional) user header: its changes name no user. */
  const adminOf = (tenantId: string): AdminClient => new AdminClient(api, tenantId, null);
  const audit = (tenantId: string, query = '') => adminOf(tenantId).audit.search(query);
  const history = (tenantId: string, ctaId: number | string, query = '') => adminOf(tenantId).ctas.history(ctaId, query);
  /** The tenant's entries, newest first (every page); `any`, as tests read the records in them. */
  const entriesOf = async (tenantId: string, query = ''): Promise<any[]> => {
    const res = await audit(tenantId, `?pageSize=100${query}`);
    expect(res.status).toBe(200);
    return res.body.data.entries;
  };
  const latest = async (tenantId: string): Promise<any> => (await entriesOf(tenantId))[0];
  const cohortOf = async (tenantId: string, name: string): Promise<CohortRecord> => {
    const res = await adminOf(tenantId).cohorts.get(name);
    expect(res.status).toBe(200);
    return res.body.data;
  };
  /** A member upload by ops@example.com: JSON ids, or CSV text. */
  const members = (tenantId: string, method: 'POST' | 'PUT' | 'DELETE', name: string, body: MemberUpload, extra: AdminHeaders = {}) =>
    new AdminClient(api, tenantId).cohorts.members(method, name, body, extra);

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

  describe('reading the history', () => {
    const tenant = 'audit-paging';
    let id: number;
    let entries: any[];
    beforeAll(async () => {
      const admin = new AdminClient(api, tenant);
      id = await admin.create();
      for (const team of ['a', 'b', 'c', 'd']) {
        api.clock.advance(10);
        expect((await admin.update(id, { team }, { user: `${team}@example.com` })).status).toBe(200);
      }
      await admin.status(id, 'live');
      await admin.create();
      entries = await entriesOf(tenant);
    });

    it('pages newest first, with the CTA list paging', async () => {
      expect(entries.map((entry) => entry.action)).toEqual(['create', 'live', 'update', 'update', 'update', 'update', 'create']);
      expect(entries.map((entry) => entry.id)).toEqual([...entries.map((entry) => entry.id)].sort((a, b) => b - a));
      const res = await history(tenant, id, '?pageSize=2&pageNumber=1');
      expect(res.body).toEqual({ data: { entries: entries.slice(3, 5), totalEntries: 6, totalPages: 3, pageNumber: 1, pageSize: 2 } });
      expect((await history(tenant, id)).body.data).toMatchObject({
        entries: entries.slice(1),
        pageNumber: 0,
        pageSize: 10,
        totalPages: 1,
      });
      expect((await history(tenant, id, '?pageNumber=3&pageSize=2')).body.data).toEqual({
        entries: [],
        totalEntries: 6,
        totalPages: 3,
        pageNumber: 3,
        pageSize: 2,
      });
    });

    it('filters by entity, actor, user, action and time, combined', async () => {
      const ids = async (query: string) => (await entriesOf(tenant, query)).map((entry) => entry.id);
      expect(await ids(`&entityType=cta&entityId=${id}`)).toEqual(entries.slice(1).map((entry) => entry.id));
      expect(await ids('&user=b@example.com')).toEqual([entries[4].id]);
      expect(await ids('&action=update&user=c@example.com')).toEqual([entries[3].id]);
      expect(await ids('&action=live')).toEqual([entries[1].id]);
      expect(await ids(`&from=${entries[4].at}&to=${entries[2].at}`)).toEqual(entries.slice(2, 5).map((entry) => entry.id));
      expect(await ids('&actor=nobody')).toEqual([]);
    });

    it.each(['?entityType=campaign', '?action=rename', '?entityId=999999', '?user=nobody', '?from=9999999999999', '?to=0'])(
      'answers an empty page for %s',
      async (query) => {
        expect((await audit(tenant, query)).body).toEqual({
          data: { entries: [], totalEntries: 0, totalPages: 0, pageNumber: 0, pageSize: 10 },
        });
      },
    );

    it.each([
      ['?pageSize=0', 'pageSize must be a decimal integer between 1 and 100'],
      ['?pageSize=101', 'pageSize must be a decimal integer between 1 and 100'],
      ['?pageNumber=-1', 'pageNumber must be a decimal integer ≥ 0'],
      ['?pageNumber=x', 'pageNumber must be a decimal integer ≥ 0'],
      ['?from=yesterday', 'from must be epoch milliseconds (a decimal integer ≥ 0)'],
      ['?to=1.5', 'to must be epoch milliseconds (a decimal integer ≥ 0)'],
    ])('refuses %s with INVALID_REQUEST', async (query, message) => {
      expect((await audit(tenant, query)).body).toEqual(errorBody('INVALID_REQUEST', message));
      expect((await history(tenant, id, query.startsWith('?page') ? query : '?pageSize=x')).body).toEqual(errorBody('INVALID_REQUEST'));
    });

    it('refuses a repeated filter, and a CTA history of a non-numeric id', async () => {
      expect((await audit(tenant, '?actor=a&actor=b')).body).toEqual(errorBody('INVALID_REQUEST'));
      expect((await history(tenant, 'abc')).body).toEqual(errorBody('CTA_ID_INVALID', 'CTA abc does not exist'));
    });

    it('shows nothing of one tenant to another', async () => {
      expect((await audit('audit-paging-other')).body.data.totalEntries).toBe(0);
      expect((await history('audit-paging-other', id)).body.data.entries).toEqual([]);
      expect((await entriesOf(tenant)).length).toBe(7);
    });
  });

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

      const res = await restore(id, created.id);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({});
      const restored = await client.get(id);
      expect(restored).toMatchObject({
        rule: { ...original, ctaValidTill: null },
        team: 'growth',
        ctaStatus: 'paused',
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

    it.each([
      ['live', ['live']],
      ['scheduled', ['schedule']],
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
        errorBody('CTA_STATUS_UPDATE_INVALID', `CTA ${id} is ${status}; only draft or paused CTAs can be edited (pause it first)`),
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

eachDatabase('audit retention', (database) => {
  let api: TestApp;
  beforeAll(async () => {
    api = await TestApp.start(database, { AUDIT_RETENTION_DAYS: '30' });
  });
  afterAll(() => api.close());

  it('purges entries older than AUDIT_RETENTION_DAYS in the periodic job, and keeps the younger ones', async () => {
    const client = new AdminClient(api, 'audit-retention');
    const old = await client.create();
    api.clock.advance(20 * DAY);
    const young = await client.create();
    api.clock.advance(11 * DAY);
    await api.service(PeriodicJobsService).runAll();
    const { entries } = (await client.audit.search()).body.data;
    expect(entries.map((entry: any) => entry.entityId)).toEqual([String(young)]);
    expect((await client.get(old)).id).toBe(old);
  });
});
