import { serializeUserState } from '../src/sdk/user-state';
import { createUserStateStore } from '../src/sdk/user-state.store';
import { holdNextStateWrite, snapshot, storedMachines, userOf } from './app-users';
import { dataSourceOf } from './database-contents';
import { machine, runClockAfterExamples } from './fixtures';
import { eachDatabase, TestApp } from './harness';

const USER = '7301234567891';
const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * An erase is final against requests that read the user's state before it and write after it
 * (docs/decisions/0017-user-data-export-and-erase.md), on one instance: each race is made
 * deterministic by holding the request's write until the erase has committed. Across instances and
 * on Galera: app-users-erase-instances.e2e-spec.ts.
 */
eachDatabase('an erase racing merges and launches on one instance', (database) => {
  let api: TestApp;
  let tenantCount = 0;
  beforeAll(async () => {
    api = await TestApp.start(database);
    runClockAfterExamples(api);
  });
  afterAll(() => api.close());

  /** A snapshot made now by the app's clock (one test moves it days ahead). */
  const fresh = (ctaId: string, key: string) => snapshot(ctaId, key, api.clock.now());
  /** A stored document holding the one machine `key` of `ctaId`, as another instance's writer stores it. */
  const documentWith = (ctaId: string, key: string): string =>
    serializeUserState({
      ctas: new Map([[ctaId, { activeStateMachines: new Map([[key, machine('1', api.clock.now())]]), resetAt: [], actionDoneAt: [] }]]),
      tags: new Map(),
    });

  /** A fresh tenant with a live CTA, and the user's device there with `old` stored for it. */
  async function userWithState(old: string[]) {
    const tenantId = `erase-race-${++tenantCount}`;
    const { admin, device } = userOf(api, tenantId, USER);
    const ctaId = await admin.cta();
    for (const key of old) {
      expect((await device.delta(fresh(ctaId, key))).body).toEqual({ data: true });
    }
    return { tenantId, admin, device, ctaId };
  }

  it('a delta that read the state before the erase stores only its own snapshot after it', async () => {
    const { tenantId, admin, device, ctaId } = await userWithState(['old-1', 'old-2']);
    const held = holdNextStateWrite(api, tenantId, USER);
    const delta = device.delta(fresh(ctaId, 'in-flight'));
    await held.reached;
    expect((await admin.appUsers.erase(USER)).body.data.state).toBe(true);
    held.release();
    expect((await delta).body).toEqual({ data: true });
    expect(await storedMachines(admin, USER)).toEqual([`${ctaId}/in-flight`]);
    // And the launch serves that, not the old state.
    expect(Object.keys((await device.launch()).body.data.ctas[0].activeStateMachines)).toEqual(['in-flight']);
  });

  it('a launch merging its body, having read before the erase, stores only its body', async () => {
    const { tenantId, admin, device, ctaId } = await userWithState(['old-1']);
    const held = holdNextStateWrite(api, tenantId, USER);
    const launch = device.launch(fresh(ctaId, 'launch-body'));
    await held.reached;
    expect((await admin.appUsers.erase(USER)).body.data.state).toBe(true);
    held.release();
    const launched = await launch;
    expect(launched.status).toBe(200);
    expect(Object.keys(launched.body.data.ctas[0].activeStateMachines)).toEqual(['launch-body']);
    expect(await storedMachines(admin, USER)).toEqual([`${ctaId}/launch-body`]);
  });

  it('a launch writing back the state it pruned, having read before the erase, writes nothing', async () => {
    // Two machines four days apart; four days later the first has outlived the rule's 7-day TTL, so
    // the next launch prunes it and writes the other back.
    const { tenantId, admin, device, ctaId } = await userWithState(['old-expiring']);
    api.clock.advance(4 * DAY_MS);
    expect((await device.delta(fresh(ctaId, 'old-kept'))).body).toEqual({ data: true });
    api.clock.advance(4 * DAY_MS);
    const held = holdNextStateWrite(api, tenantId, USER);
    const launch = device.launch();
    await held.reached;
    expect((await admin.appUsers.erase(USER)).body.data.state).toBe(true);
    held.release();
    expect((await launch).status).toBe(200);
    expect(await storedMachines(admin, USER)).toEqual([]);
    expect(Object.keys((await device.launch()).body.data.ctas[0].activeStateMachines)).toEqual([]);
  });

  it('a first merge that found no state, its insert coming after another writer stored some and the erase removed it, stores only its own', async () => {
    const { tenantId, admin, device, ctaId } = await userWithState([]);
    const held = holdNextStateWrite(api, tenantId, USER);
    const delta = device.delta(fresh(ctaId, 'first'));
    await held.reached;
    // Meanwhile another instance's writer (a store of its own on the database) creates the row.
    const other = createUserStateStore(dataSourceOf(api));
    expect(await other.write(tenantId, USER, documentWith(ctaId, 'old'), undefined, api.clock.now())).toBe(true);
    expect(await storedMachines(admin, USER)).toEqual([`${ctaId}/old`]);
    expect((await admin.appUsers.erase(USER)).body.data.state).toBe(true);
    held.release();
    expect((await delta).body).toEqual({ data: true });
    expect(await storedMachines(admin, USER)).toEqual([`${ctaId}/first`]);
  });

  it('a delta holding a version read before the erase loses even once later writes have counted past it', async () => {
    const { tenantId, admin, device, ctaId } = await userWithState(['old-1', 'old-2']);
    const held = holdNextStateWrite(api, tenantId, USER);
    const delta = device.delta(fresh(ctaId, 'in-flight'));
    await held.reached;
    expect((await admin.appUsers.erase(USER)).body.data.state).toBe(true);
    // Another instance stores what the device sends next, twice: had the erase started the row
    // afresh, its version would now be the one the held delta read.
    const other = createUserStateStore(dataSourceOf(api));
    for (const key of ['next-1', 'next-2']) {
      const { version } = (await other.read(tenantId, USER))!;
      expect(await other.write(tenantId, USER, documentWith(ctaId, key), version, api.clock.now())).toBe(true);
    }
    held.release();
    expect((await delta).body).toEqual({ data: true });
    expect(await storedMachines(admin, USER)).toEqual([`${ctaId}/in-flight`, `${ctaId}/next-2`]);
  });

  it('two concurrent erases of one user add up to one erase: one answers the counts, the other zeros', async () => {
    const zeros = { state: false, cohorts: 0, testCtas: 0, auditEntries: 0 };
    // Several rounds: on MariaDB each round is a fresh race of two transactions.
    for (let round = 0; round < 5; round++) {
      const { admin } = await userWithState(['old-1']);
      expect((await admin.cohorts.create({ name: 'listed', kind: 'static' })).status).toBe(200);
      expect((await admin.cohorts.members('POST', 'listed', { userIds: [USER, '5'] })).status).toBe(200);
      await admin.testCta([Number(USER)], 60);
      await admin.testCta([Number(USER), 5], 60);
      const exported = (await admin.appUsers.export(USER)).body.data;
      const whole = { state: true, cohorts: 1, testCtas: 2, auditEntries: exported.auditEntries.length };
      expect(whole.auditEntries).toBe(2);

      const answers = await Promise.all([admin.appUsers.erase(USER), admin.appUsers.erase(USER)]);
      expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
      expect(answers.map((answer) => answer.body.data).sort((x, y) => Number(y.state) - Number(x.state))).toEqual([whole, zeros]);
      // The audit history records the same two receipts.
      const entries = (await admin.audit.search({ entityType: 'appUser' })).body.data.entries;
      expect(entries.map((entry) => entry.after).sort((x: any, y: any) => Number(y.state) - Number(x.state))).toEqual([whole, zeros]);
      expect((await admin.cohorts.get('listed')).body.data.memberCount).toBe(1);
    }
  });

  it('never brings old state back while deltas stream in around an erase, and keeps every delta sent after it', async () => {
    const { admin, device, ctaId } = await userWithState(['old-1', 'old-2', 'old-3']);
    const before = Array.from({ length: 15 }, (_, index) => device.delta(fresh(ctaId, `before-${index}`)));
    const erase = admin.appUsers.erase(USER);
    const around = Array.from({ length: 15 }, (_, index) => device.delta(fresh(ctaId, `around-${index}`)));
    expect((await erase).body.data.state).toBe(true);
    const after = Array.from({ length: 10 }, (_, index) => device.delta(fresh(ctaId, `after-${index}`)));
    const responses = await Promise.all([...before, ...around, ...after]);
    expect(responses.map((response) => response.status)).toEqual(responses.map(() => 200));
    const stored = await storedMachines(admin, USER);
    expect(stored.filter((key) => key.includes('/old-'))).toEqual([]);
    expect(stored.filter((key) => key.includes('/after-'))).toHaveLength(10);
  });
});
