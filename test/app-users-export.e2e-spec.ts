import { examples, runClockAfterExamples } from './fixtures';
import { AdminClient } from './admin-client';
import { nothingStored, userOf } from './app-users';
import { databaseContents } from './database-contents';
import { eachDatabase, errorBody, TestApp } from './harness';
import { SdkClient } from './sdk-client';

const USER = '7301234567891';
const OTHER = '7301234567892';

eachDatabase('GET /engine/app-users/{userId}: everything stored about a user', (database) => {
  let api: TestApp;
  beforeAll(async () => {
    api = await TestApp.start(database);
    runClockAfterExamples(api);
  });
  afterAll(() => api.close());

  /** A live CTA linked by the example tag, the user's state for both, cohorts and test CTAs naming them or not. */
  async function userWithData(tenantId: string) {
    const { admin, device } = userOf(api, tenantId, USER);
    const ctaId = await admin.exampleCta();
    expect((await device.delta(examples.delta(ctaId))).body).toEqual({ data: true });
    for (const [name, members] of [
      ['beta', [USER, OTHER]],
      ['alpha', [USER]],
      ['others', [OTHER]],
    ] as const) {
      expect((await admin.cohorts.create({ name, kind: 'static' })).status).toBe(200);
      expect((await admin.cohorts.members('POST', name, { userIds: [...members] })).status).toBe(200);
    }
    expect(
      (
        await admin.cohorts.create({
          name: 'new-app',
          kind: 'rule',
          rule: { all: [{ attribute: 'appVersion', op: 'eq', value: '5.2.0' }] },
        })
      ).status,
    ).toBe(200);
    const shared = await admin.testCta([Number(OTHER), Number(USER)], 60);
    const notListing = await admin.testCta([Number(OTHER)], 60);
    return { admin, device, ctaId, shared, notListing };
  }

  it('shows the state as the launch shows it (contexts included), the static cohorts, the test CTAs and the audit entries naming the user', async () => {
    const tenantId = 'export-all';
    const { admin, device, ctaId, shared } = await userWithData(tenantId);
    const sharedEntries = await admin.audit.search({ entityType: 'testCta', entityId: shared });
    const launched = (await device.launch()).body.data;
    const [launchedCta] = launched.ctas;

    const response = await admin.appUsers.export(USER);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      data: {
        userId: USER,
        state: {
          ctas: [
            {
              ctaId,
              activeStateMachines: launchedCta.activeStateMachines,
              resetAt: launchedCta.resetAt,
              actionDoneAt: launchedCta.actionDoneAt,
            },
          ],
          behaviourTags: [
            {
              behaviourTagName: examples.tag.behaviourTagName,
              activeCtas: [ctaId],
              ctasResetAt: examples.delta(ctaId).behaviourTags[0].exposureRule.ctasResetAt,
            },
          ],
          recentActions: launchedCta.actionDoneAt.map((at) => ({ ctaId, at })),
        },
        cohorts: ['alpha', 'beta'],
        testCtas: [Number(shared)],
        auditEntries: sharedEntries.body.data.entries.map((entry) => entry.id),
      },
    });
    // The context the device sent is there: it is why the route needs the admin role.
    expect(launchedCta.activeStateMachines['store-77']).toMatchObject({ context: { storeId: 'store-77' } });
    expect(launched.behaviourTags[0].ctaRelation).toMatchObject({ activeCtas: [ctaId] });
  });

  it("shows what is stored until a launch prunes it (the state of a CTA that has ended), and the CTA's actions after", async () => {
    const tenantId = 'export-ended';
    const { admin, device } = userOf(api, tenantId, USER);
    const ctaId = await admin.cta();
    expect((await device.delta({ ctas: examples.delta(ctaId).ctas })).body).toEqual({ data: true });
    await admin.move(ctaId, 'conclude');
    const stored = (await admin.appUsers.export(USER)).body.data.state;
    expect(stored.ctas.map((cta) => cta.ctaId)).toEqual([ctaId]);
    expect((await device.launch()).body.data).toEqual({ ctas: [], behaviourTags: [] });
    // The exposure policy still counts them (docs/exposure-policy.md).
    const [actedAt] = examples.delta(ctaId).ctas[0].actionDoneAt;
    expect((await admin.appUsers.export(USER)).body.data).toEqual({
      ...nothingStored(USER),
      state: { ctas: [], behaviourTags: [], recentActions: [{ ctaId, at: actedAt }] },
    });
  });

  it('answers an empty export for a user with nothing stored, and reads the id as a signed 64-bit integer (042 is 42)', async () => {
    const admin = new AdminClient(api, 'export-unknown');
    expect((await admin.appUsers.export('42')).body).toEqual({ data: nothingStored('42') });
    expect((await admin.appUsers.export('-9223372036854775808')).body).toEqual({ data: nothingStored('-9223372036854775808') });

    const { device } = userOf(api, 'export-unknown', '42');
    const ctaId = await admin.cta();
    expect((await device.delta({ ctas: [{ ctaId, activeStateMachines: {}, resetAt: [1] }] })).body).toEqual({ data: true });
    expect((await admin.appUsers.export('0042')).body.data).toMatchObject({ userId: '42', state: { ctas: [{ ctaId, resetAt: [1] }] } });
  });

  it("keeps tenants apart: a user id's data in one tenant never shows in another", async () => {
    await userWithData('export-tenant-a');
    const other = new AdminClient(api, 'export-tenant-b');
    expect((await other.appUsers.export(USER)).body).toEqual({ data: nothingStored(USER) });
    // Another tenant's own data for the same id.
    const ctaId = await other.cta();
    expect(
      (await new SdkClient(api, 'export-tenant-b', USER).delta({ ctas: [{ ctaId, activeStateMachines: {}, resetAt: [5] }] })).status,
    ).toBe(200);
    const [a, b] = await Promise.all([new AdminClient(api, 'export-tenant-a').appUsers.export(USER), other.appUsers.export(USER)]);
    expect(b.body.data).toEqual({
      ...nothingStored(USER),
      state: { ctas: [{ ctaId, activeStateMachines: {}, resetAt: [5], actionDoneAt: [] }], behaviourTags: [], recentActions: [] },
    });
    expect(a.body.data.cohorts).toEqual(['alpha', 'beta']);
    expect(a.body.data.state.ctas.map((cta) => cta.ctaId)).not.toContain(ctaId);
  });

  it.each(['abc', '1.5', '1e3', '+1', ' 1', '9223372036854775808', '-9223372036854775809', '1'.repeat(40)])(
    'refuses the malformed user id %p with 400 INVALID_REQUEST, on both routes, and writes nothing',
    async (userId) => {
      const admin = new AdminClient(api, 'export-bad');
      const before = await databaseContents(api);
      for (const response of [await admin.appUsers.export(userId), await admin.appUsers.erase(userId)]) {
        expect(response.status).toBe(400);
        expect(response.body).toEqual(errorBody('INVALID_REQUEST', `userId ${JSON.stringify(userId)} is not a signed 64-bit integer`));
      }
      expect(await databaseContents(api)).toEqual(before);
    },
  );

  it('refuses a malformed tenant before anything is read', async () => {
    const response = await new AdminClient(api, 'not a tenant!').appUsers.export(USER);
    expect(response.status).toBe(400);
    expect(response.body).toEqual(errorBody('INVALID_REQUEST', expect.stringContaining('x-tenant-id')));
  });
});
