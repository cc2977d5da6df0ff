import { DataSource } from 'typeorm';
import { AdminClient } from './admin-client';
import { examples, sdkHeaders } from './fixtures';
import { PeriodicJobsService } from '../src/scheduling/periodic-jobs.service';
import { AddCtaApprovals1767225603300 } from '../src/database/migrations/1767225603300-AddCtaApprovals';
import { dataSourceOptions, ORCHESTRATION_MIGRATIONS } from '../src/orchestration-schema';
import { createDatabase, eachDatabase, errorBody, TestApp } from './harness';
import { race, RACE_OFFSETS_MS } from './race';

/**
 * Approvals (four eyes, docs/decisions/0015-approvals.md), tried as a compliance officer would: with
 * approvals required nothing reaches devices without a second key's approval of exactly the content
 * that goes live.
 */

const LAUNCH = '/cta/active/state-machines/';
const HOUR = 60 * 60 * 1000;
/** Named operators: two who write and publish, an editor who only writes, a viewer. */
const KEYS = { alice: 'alice-key', bob: 'bob-key', carol: 'carol-key', vic: 'vic-key' };
const ADMIN_API_KEYS = 'alice:editor:alice-key,bob:publisher:bob-key,carol:publisher:carol-key,vic:viewer:vic-key';
/** An update that leaves the times out: they keep their values. */
const KEEP_TIMES = { startTime: undefined, endTime: undefined };

const needsApproval = (id: string | number, author: string, voidedBy?: string) =>
  errorBody(
    'CTA_STATUS_UPDATE_INVALID',
    `CTA ${id} needs an approval by a key other than '${author}', who last changed it` +
      (voidedBy ? `; the approval by '${voidedBy}' was of an earlier version` : ''),
  );

eachDatabase('approvals', (database) => {
  let api: TestApp;
  let tenants = 0;
  /** One client per operator, all on one fresh tenant. */
  const operators = () => {
    const tenant = `approvals-${++tenants}`;
    const as = (name: keyof typeof KEYS) => new AdminClient(api, tenant, `${name}@example.com`, { headers: { 'x-api-key': KEYS[name] } });
    return { alice: as('alice'), bob: as('bob'), carol: as('carol'), vic: as('vic') };
  };
  const history = async (client: AdminClient, id: string | number): Promise<any[]> =>
    (await api.get(`/engine/ctas/${id}/history`, client.headers())).body.data.entries;
  const served = async (client: AdminClient): Promise<[string, string][]> =>
    (await api.post(LAUNCH, {}, sdkHeaders(client.tenantId, '42'))).body.data.ctas.map((cta: any) => [cta.ctaId, cta.rule.priority]);

  beforeAll(async () => {
    api = await TestApp.start(database, { APPROVALS_REQUIRED: 'true', ADMIN_API_KEYS });
  });
  afterAll(() => api.close());

  it("takes nothing live on its author's word alone: another key approves, then it goes live, all in the audit", async () => {
    const { bob, carol, vic } = operators();
    const id = String(await carol.create({ startTime: api.clock.now() + HOUR }));
    expect(await carol.get(id)).toMatchObject({ ctaStatus: 'draft', approval: null });
    expect((await carol.status(id, 'live')).body).toEqual(needsApproval(id, 'carol'));
    expect((await carol.status(id, 'schedule')).body).toEqual(needsApproval(id, 'carol'));
    expect((await carol.approve(id)).body).toEqual(
      errorBody(
        'APPROVAL_INVALID',
        `'carol' made the latest change of CTA ${id}: a key of role publisher or admin other than 'carol' may approve it`,
      ),
    );
    expect(await served(carol)).toEqual([]);

    const approvedAt = api.clock.now();
    expect(await bob.approve(id)).toMatchObject({ status: 200, body: {} });
    const approved = await vic.get(id);
    expect(approved.approval).toEqual({ by: 'bob', at: expect.any(Number) });
    expect(approved.approval?.at).toBeGreaterThanOrEqual(approvedAt);
    expect((await vic.list()).body.data.ctas).toEqual([approved]);
    // The author may take it live now: the approval is a second key's.
    expect((await carol.status(id, 'live')).status).toBe(200);
    expect(await served(carol)).toEqual([[id, 5]]);

    const [live, approve, create] = await history(vic, id);
    expect([live.action, live.actor, approve.action, approve.actor, create.action, create.actor]).toEqual([
      'live',
      'carol',
      'approve',
      'bob',
      'create',
      'carol',
    ]);
    expect(approve).toMatchObject({ user: 'bob@example.com', before: { approval: null }, after: approved });
    expect(approve.changes).toEqual([{ op: 'replace', path: '/approval', value: approved.approval }]);
    expect((await api.get('/engine/audit?action=approve', vic.headers())).body.data.totalEntries).toBe(1);
  });

  it('voids an approval at any later change of the content, even by the approver, so only approved content goes live', async () => {
    const { alice, bob, carol } = operators();
    const id = await alice.create();
    expect((await bob.approve(id)).status).toBe(200);
    await alice.edit(id, { ...KEEP_TIMES, description: 'changed after the approval' });
    expect((await alice.get(id)).approval).toBeNull();
    expect((await bob.status(id, 'live')).body).toEqual(needsApproval(id, 'alice', 'bob'));

    // The approver edits: now bob is the author, so carol must approve.
    await bob.edit(id, { ...KEEP_TIMES, rule: { ...examples.rule(), priority: 2 } });
    expect((await bob.approve(id)).body).toEqual(errorBody('APPROVAL_INVALID', expect.stringMatching(/^'bob' made the latest change/)));
    // An editor may write but not approve.
    expect((await alice.approve(id)).body).toEqual(
      errorBody('FORBIDDEN', "the key 'alice' has the role editor; this route needs publisher"),
    );
    expect((await carol.approve(id)).status).toBe(200);
    expect((await carol.status(id, 'live')).status).toBe(200);
    expect(await served(carol)).toEqual([[String(id), 2]]);

    // A restore is a content change too: paused, restored by carol, it needs another key than carol.
    expect((await carol.status(id, 'pause')).status).toBe(200);
    const created = (await history(carol, id)).find((entry) => entry.action === 'create');
    expect((await api.post(`/engine/ctas/${id}/restore/${created.id}`, undefined, carol.headers())).status).toBe(200);
    expect((await carol.status(id, 'live')).body).toEqual(needsApproval(id, 'carol', 'carol'));
    expect((await bob.approve(id)).status).toBe(200);
    expect((await bob.status(id, 'live')).status).toBe(200);
    expect(await served(bob)).toEqual([[String(id), 5]]);
  });

  it('refuses live edits; pause, conclude and terminate need no approval, nor does the timed go-live of a scheduled CTA', async () => {
    const { alice, bob } = operators();
    const start = api.clock.now() + HOUR;
    const id = await alice.create({ startTime: start });
    expect((await bob.approve(id)).status).toBe(200);
    await bob.move(id, 'schedule');
    expect((await alice.update(id, { ...KEEP_TIMES, description: 'slipped in' })).body).toEqual(
      errorBody(
        'CTA_STATUS_UPDATE_INVALID',
        `CTA ${id} is scheduled and approvals are required, so it takes no edits: pause it, edit it, have another key approve it, then schedule it again`,
      ),
    );
    api.clock.advance(HOUR);
    await api.service(PeriodicJobsService).runAll();
    expect(await alice.get(id)).toMatchObject({ ctaStatus: 'live', description: 'e2e', approval: { by: 'bob' } });
    expect((await history(alice, id))[0]).toMatchObject({ action: 'live', actor: 'scheduler' });
    expect((await alice.update(id, KEEP_TIMES)).body).toEqual(
      errorBody('CTA_STATUS_UPDATE_INVALID', expect.stringMatching(new RegExp(`^CTA ${id} is live and approvals are required`))),
    );
    // Paused and back with the same content: the approval still holds.
    await bob.move(id, 'pause', 'live', 'pause', 'conclude');

    const draft = await alice.create();
    await bob.move(draft, 'terminate');
    const running = await alice.create();
    await bob.approve(running);
    await bob.move(running, 'live', 'terminate');
  });

  it('names why nobody may approve a concluded, terminated, test or unknown CTA, and keeps approvals to publishers', async () => {
    const { alice, bob, carol, vic } = operators();
    const concluded = await alice.create();
    await bob.approve(concluded);
    await bob.move(concluded, 'live', 'conclude');
    expect((await carol.approve(concluded)).body).toEqual(
      errorBody('APPROVAL_INVALID', `CTA ${concluded} is concluded; concluded and terminated CTAs cannot be approved`),
    );
    const terminated = await alice.create();
    await bob.move(terminated, 'terminate');
    expect((await carol.approve(terminated)).body).toEqual(errorBody('APPROVAL_INVALID', expect.stringMatching(/is terminated; /)));
    const test = await alice.testCta([1], 5);
    expect((await bob.approve(test)).body).toEqual(
      errorBody('APPROVAL_INVALID', `CTA ${test} is a test CTA: it reaches only its listed test users and needs no approval`),
    );
    expect((await bob.approve(987654)).body).toEqual(errorBody('CTA_ID_INVALID', 'CTA 987654 does not exist'));
    expect((await bob.approve('abc')).body).toEqual(errorBody('CTA_ID_INVALID'));
    expect((await vic.approve(concluded)).status).toBe(403);
    expect((await api.post(`/engine/ctas/${concluded}/approve`, undefined, { 'x-tenant-id': alice.tenantId })).status).toBe(401);
    // A refused approval writes nothing.
    expect((await history(vic, concluded)).map((entry) => entry.action)).toEqual(['conclude', 'live', 'approve', 'create']);
  });

  it('never approves content nobody reviewed when an approval races an edit', async () => {
    const { alice, bob } = operators();
    const outcomes = new Set<string>();
    for (const offset of RACE_OFFSETS_MS) {
      const id = await alice.create({ description: 'reviewed' });
      const [edit, approval] = await race(
        offset,
        () => alice.update(id, { ...KEEP_TIMES, description: 'unreviewed' }),
        () => bob.approve(id),
      );
      expect([edit.status, approval.status]).toEqual([200, 200]);
      const approve = (await history(bob, id)).find((entry) => entry.action === 'approve');
      const live = await bob.status(id, 'live');
      const cta = await bob.get(id);
      outcomes.add(approve.after.description === 'unreviewed' ? 'edit first' : 'approval first');
      if (approve.after.description === 'unreviewed') {
        // The edit went first: bob approved what he saw, and that goes live.
        expect(live.status).toBe(200);
        expect(cta).toMatchObject({ ctaStatus: 'live', description: 'unreviewed', approval: { by: 'bob' } });
      } else {
        // The approval went first: the edit voided it.
        expect(live.body).toEqual(needsApproval(id, 'alice', 'bob'));
        expect(cta).toMatchObject({ ctaStatus: 'draft', description: 'unreviewed', approval: null });
      }
    }
    // Each order came up, and requests overlapping in between.
    expect([...outcomes].sort()).toEqual(['approval first', 'edit first']);
  });

  it('never takes unreviewed content live when going live races an edit', async () => {
    const { alice, bob } = operators();
    const outcomes = new Set<string>();
    for (const offset of RACE_OFFSETS_MS) {
      const id = await alice.create({ description: 'reviewed' });
      await bob.approve(id);
      const [edit, live] = await race(
        offset,
        () => alice.update(id, { ...KEEP_TIMES, description: 'unreviewed' }),
        () => bob.status(id, 'live'),
      );
      const cta = await bob.get(id);
      outcomes.add(live.status === 200 ? 'live first' : 'edit first');
      if (live.status === 200) {
        // Live first: the edit is a live edit, refused.
        expect(edit.body).toEqual(errorBody('CTA_STATUS_UPDATE_INVALID', expect.stringContaining('approvals are required')));
        expect(cta).toMatchObject({ ctaStatus: 'live', description: 'reviewed', approval: { by: 'bob' } });
      } else {
        expect(edit.status).toBe(200);
        expect(live.body).toEqual(needsApproval(id, 'alice', 'bob'));
        expect(cta).toMatchObject({ ctaStatus: 'draft', description: 'unreviewed', approval: null });
      }
    }
    expect([...outcomes].sort()).toEqual(['edit first', 'live first']);
  });
});

eachDatabase('approvals not required', (database) => {
  let api: TestApp;
  beforeAll(async () => {
    api = await TestApp.start(database);
  });
  afterAll(() => api.close());

  it('leaves the record as it was (no approval field), and says an approval is not needed', async () => {
    const client = new AdminClient(api, 'no-approvals');
    const id = await client.create();
    expect(await client.get(id)).not.toHaveProperty('approval');
    expect((await client.approve(id)).body).toEqual(
      errorBody(
        'APPROVAL_INVALID',
        `approvals are not required here, so CTA ${id} needs none (APPROVALS_REQUIRED=true, or the module option approvalsRequired, requires them)`,
      ),
    );
    await client.move(id, 'live');
    await client.edit(id, { startTime: undefined, endTime: undefined, description: 'a live edit' });
  });
});

eachDatabase('the approvals migration', (database) => {
  let dataSource: DataSource;
  let drop: () => Promise<void>;
  const timestampOf = (migration: { name: string }): number => Number(/\d+$/.exec(migration.name)?.[0]);
  beforeAll(async () => {
    const created = await createDatabase(database);
    drop = created.drop;
    const earlier = ORCHESTRATION_MIGRATIONS.filter((migration) => timestampOf(migration) < timestampOf(AddCtaApprovals1767225603300));
    dataSource = await new DataSource({ ...dataSourceOptions(created.url), migrations: earlier }).initialize();
  });
  afterAll(async () => {
    await dataSource.destroy();
    await drop();
  });

  it("names the key of each existing CTA's latest content change, as the audit history has it", async () => {
    const cta = (name: string, isTest = 0) =>
      dataSource.query(
        `INSERT INTO ctas (tenant_id, name, team, status, rule, is_test, created_at, created_by) VALUES ('t', ?, 'growth', 'live', '{}', ?, 1, 'ops')`,
        [name, isTest],
      );
    const entry = (ctaId: number, action: string, actor: string | null) =>
      dataSource.query(
        `INSERT INTO audit_entries (tenant_id, at, actor, entity_type, entity_id, action, changes) VALUES ('t', 1, ?, 'cta', ?, ?, '[]')`,
        [actor, String(ctaId), action],
      );
    for (const name of ['updated', 'unnamed', 'restored', 'test']) {
      await cta(name, name === 'test' ? 1 : 0);
    }
    await entry(1, 'create', 'alice');
    await entry(1, 'update', 'bob');
    await entry(1, 'live', 'carol');
    await entry(2, 'create', null);
    await entry(3, 'create', 'alice');
    await entry(3, 'restore', 'dave');
    await entry(3, 'pause', 'erin');
    await new AddCtaApprovals1767225603300().up(dataSource.createQueryRunner());
    const rows = await dataSource.query('SELECT name, content_revision AS revision, content_changed_by AS author FROM ctas ORDER BY id');
    expect(rows.map((row: any) => [row.name, Number(row.revision), row.author])).toEqual([
      ['updated', 1, 'bob'],
      ['unnamed', 1, null],
      ['restored', 1, 'dave'],
      ['test', 1, null],
    ]);
  });
});
