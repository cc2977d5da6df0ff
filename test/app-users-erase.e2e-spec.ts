import { AdminClient } from './admin-client';
import { EMPTY_STATE_DOCUMENT, nothingStored, rowsNaming, sha256Hex, snapshot, storedMachines, userOf } from './app-users';
import { databaseContents } from './database-contents';
import { examples, runClockAfterExamples } from './fixtures';
import { eachDatabase, errorBody, TestApp } from './harness';
import { SdkClient } from './sdk-client';

const USER = '7301234567891';
const OTHER = '7301234567892';

eachDatabase("DELETE /engine/app-users/{userId}: erasing a user's data", (database) => {
  let api: TestApp;
  beforeAll(async () => {
    api = await TestApp.start(database);
    runClockAfterExamples(api);
  });
  afterAll(() => api.close());

  /**
   * The user with state, in two static cohorts (one shared), on two test CTAs (one shared) and in the
   * audit history of a third, replaced (its delete entry names them in `before`); OTHER beside them.
   */
  async function userWithData(tenantId: string, user = USER) {
    const { admin, device } = userOf(api, tenantId, user);
    const ctaId = await admin.exampleCta();
    expect((await device.delta(examples.delta(ctaId))).body).toEqual({ data: true });
    expect((await new SdkClient(api, tenantId, OTHER).delta(snapshot(ctaId, 'other'))).body).toEqual({ data: true });
    for (const [name, members] of [
      ['shared', [user, OTHER, '5']],
      ['solo', [user]],
    ] as const) {
      expect((await admin.cohorts.create({ name, kind: 'static' })).status).toBe(200);
      expect((await admin.cohorts.members('POST', name, { userIds: [...members] })).status).toBe(200);
    }
    const replaced = await admin.testCta([Number(user)], 60);
    const rule = examples.rule();
    const solo = await admin.testCtas.create({ userIds: [user], expiresInMinutes: 60, rule, previousCtaId: replaced });
    expect(solo.status).toBe(200);
    const shared = await admin.testCta([Number(user), Number(OTHER)], 60);
    return { admin, device, ctaId, replaced, solo: String(solo.body.data), shared };
  }

  it('erases the state, the memberships (counts follow), the test CTA lists and the id in audit entries, and answers the counts', async () => {
    const tenantId = 'erase-all';
    const { admin, device, ctaId, solo, shared } = await userWithData(tenantId);
    const exported = (await admin.appUsers.export(USER)).body.data;
    expect(exported.auditEntries).toHaveLength(4);

    const erased = await admin.appUsers.erase(USER, { 'x-request-id': 'erase-request-1' });
    expect(erased.status).toBe(200);
    expect(erased.body).toEqual({ data: { state: true, cohorts: 2, testCtas: 2, auditEntries: 4 } });
    // The counts are the export's.
    expect(erased.body.data).toEqual({
      state: exported.state.ctas.length > 0,
      cohorts: exported.cohorts.length,
      testCtas: exported.testCtas.length,
      auditEntries: exported.auditEntries.length,
    });

    expect((await admin.appUsers.export(USER)).body.data).toEqual(nothingStored(USER));
    expect((await device.launch()).body.data.ctas.map((cta) => [cta.ctaId, cta.activeStateMachines])).toEqual([[ctaId, {}]]);
    expect([(await admin.cohorts.get('shared')).body.data.memberCount, (await admin.cohorts.get('solo')).body.data.memberCount]).toEqual([
      2, 0,
    ]);
    expect((await admin.cohorts.member('shared', USER)).body.data).toEqual({ member: false });
    expect((await admin.cohorts.member('shared', OTHER)).body.data).toEqual({ member: true });
    // The test CTA left with nobody is gone; the shared one still reaches OTHER.
    expect((await admin.testCtas.delete(solo)).body).toEqual(errorBody('CTA_ID_INVALID'));
    expect((await admin.appUsers.export(OTHER)).body.data).toMatchObject({ testCtas: [Number(shared)], cohorts: ['shared'] });
    expect(await storedMachines(admin, OTHER)).toEqual([`${ctaId}/other`]);

    // The audit entries keep their shape, with "erased" where the id was, in before, after and the patch.
    const testCtaEntries = (await admin.audit.search({ entityType: 'testCta', pageSize: '100' })).body.data.entries;
    expect(testCtaEntries.map((entry) => [entry.entityId, entry.action])).toEqual([
      [shared, 'create'],
      [solo, 'create'],
      [expect.any(String), 'delete'],
      [expect.any(String), 'create'],
    ]);
    const lists = testCtaEntries.map((entry: any) => [entry.before?.userIds, entry.after?.userIds, entry.changes[0].value?.userIds]);
    expect(lists).toEqual([
      [undefined, ['erased', OTHER], ['erased', OTHER]],
      [undefined, ['erased'], ['erased']],
      [['erased'], undefined, undefined],
      [undefined, ['erased'], ['erased']],
    ]);

    // One entry records the erase, naming nobody.
    const [entry] = (await admin.audit.search({ entityType: 'appUser' })).body.data.entries;
    expect(entry).toMatchObject({
      actor: null,
      user: 'ops@example.com',
      requestId: 'erase-request-1',
      entityId: sha256Hex(`${tenantId}:${USER}`),
      action: 'erase',
      before: null,
      after: { state: true, cohorts: 2, testCtas: 2, auditEntries: 4 },
    });
    expect((await admin.audit.search({ entityId: sha256Hex(`${tenantId}:${USER}`) })).body.data.totalEntries).toBe(1);
  });

  it("leaves the id in no table but as the key of the user's empty state row", async () => {
    const tenantId = 'erase-tables';
    const user = '7301234567899';
    const { admin } = await userWithData(tenantId, user);
    expect(Object.keys(await rowsNaming(api, user)).sort()).toEqual([
      'audit_entries',
      'cohort_members',
      'cta_test_users',
      'sdk_user_states',
    ]);
    expect((await admin.appUsers.erase(user)).status).toBe(200);
    const naming = await rowsNaming(api, user);
    expect(Object.keys(naming)).toEqual(['sdk_user_states']);
    expect(naming.sdk_user_states.map((row) => JSON.parse(row))).toEqual([
      expect.objectContaining({ tenant_id: tenantId, user_id: user, state: EMPTY_STATE_DOCUMENT }),
    ]);
  });

  it('answers zeros when erasing again, and for a user with nothing stored, and records each erase', async () => {
    const tenantId = 'erase-again';
    const { admin } = await userWithData(tenantId);
    expect((await admin.appUsers.erase(USER)).body.data).toEqual({ state: true, cohorts: 2, testCtas: 2, auditEntries: 4 });
    const zeros = { state: false, cohorts: 0, testCtas: 0, auditEntries: 0 };
    const before = await databaseContents(api);
    expect((await admin.appUsers.erase(USER)).body).toEqual({ data: zeros });
    expect((await admin.appUsers.erase('0042')).body).toEqual({ data: zeros });
    const after = await databaseContents(api);
    // Only the two erases' entries and the revision bumps were written.
    expect(after.audit_entries.length - before.audit_entries.length).toBe(2);
    expect({ ...after, audit_entries: [], catalogue_revisions: [] }).toEqual({ ...before, audit_entries: [], catalogue_revisions: [] });
    const entries = (await admin.audit.search({ entityType: 'appUser' })).body.data.entries;
    expect(entries.map((entry) => [entry.entityId, entry.after])).toEqual([
      [sha256Hex(`${tenantId}:42`), zeros],
      [sha256Hex(`${tenantId}:${USER}`), zeros],
      [sha256Hex(`${tenantId}:${USER}`), { state: true, cohorts: 2, testCtas: 2, auditEntries: 4 }],
    ]);
  });

  it('stores what the device sends after the erase: new data', async () => {
    const tenantId = 'erase-then-delta';
    const { admin, device, ctaId } = await userWithData(tenantId);
    expect((await admin.appUsers.erase(USER)).body.data.state).toBe(true);
    expect((await device.delta(snapshot(ctaId, 'after-erase'))).body).toEqual({ data: true });
    expect(await storedMachines(admin, USER)).toEqual([`${ctaId}/after-erase`]);
    const launched = (await device.launch()).body.data.ctas[0];
    expect(Object.keys(launched.activeStateMachines)).toEqual(['after-erase']);
    expect((await admin.appUsers.erase(USER)).body.data).toEqual({ state: true, cohorts: 0, testCtas: 0, auditEntries: 0 });
  });

  it("erases in the tenant named only: the same id's data in another tenant stays", async () => {
    const [a, b] = ['erase-tenant-a', 'erase-tenant-b'];
    await userWithData(a);
    await userWithData(b);
    const adminB = new AdminClient(api, b);
    const beforeB = (await adminB.appUsers.export(USER)).body.data;
    expect((await new AdminClient(api, a).appUsers.erase(USER)).body.data).toEqual({
      state: true,
      cohorts: 2,
      testCtas: 2,
      auditEntries: 4,
    });
    expect((await adminB.appUsers.export(USER)).body.data).toEqual(beforeB);
    expect(beforeB.cohorts).toEqual(['shared', 'solo']);
    expect((await adminB.cohorts.get('solo')).body.data.memberCount).toBe(1);
  });

  it('refuses a user id that is not a signed 64-bit integer with 400, erasing nothing', async () => {
    const tenantId = 'erase-bad';
    const { admin } = await userWithData(tenantId);
    const before = await databaseContents(api);
    const refused = await admin.appUsers.erase(`${USER}x`);
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual(errorBody('INVALID_REQUEST', `userId "${USER}x" is not a signed 64-bit integer`));
    expect(await databaseContents(api)).toEqual(before);
  });
});
